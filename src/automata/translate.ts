/**
 * LTL → TGBA: the tableau of `tableau.ts`, explored from the (simplified, NNF) formula, then
 * post-processed: SCC pruning (drop states that cannot reach an accepting cycle), acceptance
 * sets only for eventualities that can be postponed inside a cycle, and a bisimulation quotient
 * (states with the same marked edges into the same classes merge).
 *
 * `translateLtlSymbolic` keeps BDD guards (for the solver and verifier); `translateLtl` converts
 * them to formulas for the shared `Tgba` contract.
 */
import { and, atoms, conjuncts, type Formula, not } from '../ltl/formula.js';
import { toNnf } from '../ltl/nnf.js';
import { toSpot } from '../ltl/print.js';
import { simplify } from './simplify.js';
import { BDD_FALSE, BddManager, type BddNode } from './bdd.js';
import { stronglyConnectedComponents } from './scc.js';
import { reduceBySimulation } from './simulation.js';
import { deadlineChecker, TimeoutError } from './deadline.js';
import { Tableau } from './tableau.js';
import type { Edge, Tgba } from './types.js';
import { nowMs } from '../diagnostics/clock.js';

export { TimeoutError } from './deadline.js';

export interface TranslateOptions {
  /** Apply `simplify` before translating (default true). */
  readonly simplify?: boolean;
  /** Merge bisimilar states (default true). */
  readonly reduce?: boolean;
  /**
   * After merging bisimilar states, also reduce by direct simulation (default true; only with
   * `reduce`). Quadratic in states and edges with BDD work per pair: a caller that only plays a
   * game on the automaton may find it costs more than the states it saves (see `solveGame`).
   */
  readonly simulation?: boolean;
  /**
   * Absolute `nowMs()` time after which the translation throws `TimeoutError`.
   * Polled while exploring and multiplying out expansions, so even one huge state stops. A
   * `Date.now()` time (recognisably larger) is accepted too and read as the time it names.
   */
  readonly deadline?: number;
  /** Called at the same polling points (e.g. a solver's own budget check, which may throw). */
  readonly tick?: () => void;
  /** Largest number of tableau states explored before throwing `TimeoutError('size')`. */
  readonly maxStates?: number;
  /**
   * How a top-level conjunction is translated. `true`: conjunct by conjunct, then the product of
   * the (reduced) automata. `false`: the tableau of the whole conjunction. Default (auto): the
   * tableau within AUTO_TABLEAU_WORK work units and AUTO_TABLEAU_STATES states, else the
   * product. The tableau merges eventualities that conjuncts share (`F b` pending for two
   * reasons is one obligation), so it is often several times smaller; on long lists of
   * `G(p → X q)` assumptions it spends seconds per hundred states, where the product is quick.
   * The choice reads no clock, so the automaton is the same on every machine and under any
   * `deadline`: running out of time throws, it never picks the other construction.
   */
  readonly productOfConjuncts?: boolean;
  /** The automatic mode's work budget for the tableau (default AUTO_TABLEAU_WORK units). */
  readonly tableauWork?: number;
}

export interface SymbolicEdge {
  readonly to: number;
  readonly guard: BddNode;
  readonly marks: readonly number[];
}

/** A TGBA whose guards are BDD nodes of `bdd`. Same acceptance semantics as `Tgba`. */
export interface SymbolicTgba {
  readonly bdd: BddManager;
  readonly aps: readonly string[];
  readonly stateCount: number;
  readonly initial: readonly number[];
  readonly accSets: number;
  readonly edges: readonly (readonly SymbolicEdge[])[];
  readonly stateFormulas: readonly Formula[];
}

export function translateLtl(f: Formula, options: TranslateOptions = {}): Tgba {
  return toFormulaGuards(translateLtlSymbolic(f, new BddManager(), options));
}

/**
 * One automaton per negated conjunct: ¬(p1 ∧ … ∧ pn) is the disjoint union of these, and each is
 * far smaller than the automaton of the whole negation.
 */
export function translateConjunctsOfNegation(parts: readonly Formula[], options: TranslateOptions = {}): Tgba[] {
  return parts.map((p) => translateLtl(not(p), options));
}

export function toFormulaGuards(a: SymbolicTgba): Tgba {
  const guardMemo = new Map<BddNode, Formula>();
  const guardOf = (n: BddNode) => {
    let g = guardMemo.get(n);
    if (!g) guardMemo.set(n, (g = a.bdd.toFormula(n)));
    return g;
  };
  return {
    aps: a.aps,
    stateCount: a.stateCount,
    initial: a.initial,
    accSets: a.accSets,
    edges: a.edges.map((es) => es.map((e): Edge => ({ to: e.to, guard: guardOf(e.guard), marks: e.marks }))),
    stateLabels: a.stateFormulas.map(toSpot),
  };
}

interface RawEdge {
  to: number;
  guard: BddNode;
  pending: readonly number[];
}

export function translateLtlSymbolic(f: Formula, bdd: BddManager, options: TranslateOptions = {}): SymbolicTgba {
  const poll = deadlineChecker(options.deadline, options.tick);
  // The manager polls too (every 256 new nodes): one conjunction of two large guards in the
  // tableau's reduction ran 14 s past the deadline, between two of its own polls (SYNTCOMP's
  // amba_gr_pb_8: a 10 s check answered after 21 s).
  const outer = bdd.poll;
  bdd.poll = outer ? () => (outer(), poll()) : poll;
  try {
    return translateWith(f, bdd, options, poll);
  } finally {
    bdd.poll = outer;
  }
}

function translateWith(f: Formula, bdd: BddManager, options: TranslateOptions, poll: () => void): SymbolicTgba {
  const aps = [...atoms(f)].sort();
  for (const name of aps) bdd.varIndex(name);
  // Simplification polls too: on a whole spec its implication tests alone can outlast any deadline.
  const root = options.simplify === false ? toNnf(f) : simplify(f, { poll });
  const maxStates = options.maxStates ?? Infinity;
  const mode = options.productOfConjuncts;
  // `G(a ∧ b)` counts as `G a ∧ G b`: simplification gathers invariants into one `G` of a big
  // conjunction, whose tableau is as costly as the whole conjunction's.
  const parts = mode === false ? [] : conjuncts(root);
  if (parts.length <= 1) return tableauTranslation(root, aps, bdd, options, poll, maxStates);
  if (mode === true) return productOfConjuncts(parts, aps, bdd, options, poll);
  try {
    return tableauTranslation(root, aps, bdd, options, poll, Math.min(maxStates, AUTO_TABLEAU_STATES), options.tableauWork ?? AUTO_TABLEAU_WORK);
  } catch (err) {
    // Past the work budget or the state cap: the product. Past the deadline (or a `tick`'s own
    // limit): the caller's `unknown`, never the other automaton.
    if (!(err instanceof TimeoutError) || err.reason === 'deadline') throw err;
  }
  return productOfConjuncts(parts, aps, bdd, options, poll);
}

/** Largest whole-conjunction tableau the automatic mode builds before switching to the product. */
const AUTO_TABLEAU_STATES = 3000;
/**
 * Most work units (`Tableau.work`) the automatic mode spends on the whole-conjunction tableau
 * before switching to the product: about half a second. Chosen on the corpus and a SYNTCOMP
 * sample (docs/synthesis.md, "Tableau or product"): above every tableau there that came out
 * smaller than the product (the costliest, AllLights_aeb1d897's 91 states against 210, 24.1 M),
 * below Alarm_06e9cad4.tsl's (28.4 M for the product's 225 states, which the product builds
 * three times as quickly, and whose game then gave a 17-state controller against 5) and below
 * what the slow ones (Demo1, Morning2, FelixSpecFixed5, TwoCountersDisButAC: thousands of
 * states, or one state of hundreds of thousands of terms) had spent after a second (50–230 M).
 */
const AUTO_TABLEAU_WORK = 26_000_000;

function tableauTranslation(
  root: Formula,
  aps: readonly string[],
  bdd: BddManager,
  options: TranslateOptions,
  poll: () => void,
  maxStates: number,
  maxWork = Infinity,
): SymbolicTgba {
  const tableau = new Tableau(bdd, poll, maxWork);

  // Explore every reachable state.
  const states: Formula[] = [];
  const indexOf = new Map<number, number>();
  const raw: RawEdge[][] = [];
  const stateOf = (g: Formula) => {
    let i = indexOf.get(g.id);
    if (i === undefined) {
      i = states.length;
      indexOf.set(g.id, i);
      states.push(g);
    }
    return i;
  };
  // A top-level disjunction becomes several initial states (a disjoint union), which is smaller
  // than one state whose edges mix every disjunct.
  const roots = root.kind === 'or' ? root.args : [root];
  const initial = [...new Set(roots.map((r) => stateOf(tableau.normalizeState(r))))];
  for (let s = 0; s < states.length; s++) {
    poll();
    if (states.length > maxStates) throw new TimeoutError('size');
    raw.push(tableau.successors(states[s]).map((t) => ({ to: stateOf(t.next), guard: t.guard, pending: t.pending })));
  }
  return postProcess(bdd, aps, states, raw, initial, options.reduce !== false, poll, options.simulation !== false);
}

/**
 * A conjunction φ₁ ∧ … ∧ φₙ as the synchronous product of the conjuncts' automata, folded left to
 * right with a reduction after every step. Specs are conjunctions of many small `G(…)`
 * assumptions; the tableau of the whole conjunction multiplies their expansions out state by
 * state (seconds per hundred states), while each conjunct alone has a handful of states and the
 * reduced partial products stay small.
 */
function productOfConjuncts(
  formulas: readonly Formula[],
  aps: readonly string[],
  bdd: BddManager,
  options: TranslateOptions,
  poll: () => void,
): SymbolicTgba {
  // Each conjunct goes through the same front door (simplify, or NNF when simplification is off).
  const parts = formulas.map((c) => translateLtlSymbolic(c, bdd, options));
  // Smaller automata first keeps the early partial products (and their reductions) cheap.
  parts.sort((a, b) => a.stateCount - b.stateCount);
  let acc = parts[0];
  // Intermediate products get the cheap bisimulation quotient only; the direct-simulation
  // reduction (quadratic in states and edges, BDD work per pair) runs once, on the last.
  parts.slice(1).forEach((next, i) => (acc = multiply(acc, next, aps, bdd, options, poll, i === parts.length - 2)));
  return { ...acc, aps };
}

/** The reduced product of two TGBAs over one BDD manager: marks of `b` are shifted past `a`'s. */
function multiply(
  a: SymbolicTgba,
  b: SymbolicTgba,
  aps: readonly string[],
  bdd: BddManager,
  options: TranslateOptions,
  poll: () => void,
  last: boolean,
): SymbolicTgba {
  const maxStates = options.maxStates ?? Infinity;
  const sets = a.accSets + b.accSets;
  // postProcess speaks of eventualities an edge postpones: here, the acceptance sets it misses.
  const pendingMemo = new Map<string, readonly number[]>();
  const pendingOf = (ma: readonly number[], mb: readonly number[]): readonly number[] => {
    const key = `${ma.join(',')}|${mb.join(',')}`;
    let hit = pendingMemo.get(key);
    if (!hit) {
      const marked = new Set([...ma, ...mb.map((m) => m + a.accSets)]);
      hit = Array.from({ length: sets }, (_, i) => i).filter((i) => !marked.has(i));
      pendingMemo.set(key, hit);
    }
    return hit;
  };
  const states: Formula[] = [];
  const pairs: [number, number][] = [];
  const indexOf = new Map<number, number>();
  const stateOf = (p: number, q: number) => {
    const key = p * b.stateCount + q;
    let i = indexOf.get(key);
    if (i === undefined) {
      i = states.length;
      indexOf.set(key, i);
      pairs.push([p, q]);
      states.push(and(a.stateFormulas[p], b.stateFormulas[q]));
    }
    return i;
  };
  const initial = a.initial.flatMap((p) => b.initial.map((q) => stateOf(p, q)));
  const raw: RawEdge[][] = [];
  for (let s = 0; s < pairs.length; s++) {
    poll();
    if (pairs.length > maxStates) throw new TimeoutError('size');
    const [p, q] = pairs[s];
    const out: RawEdge[] = [];
    for (const ea of a.edges[p])
      for (const eb of b.edges[q]) {
        // Polled per edge pair: products of generalized Büchi automata have thousands per state.
        poll();
        const guard = bdd.and(ea.guard, eb.guard);
        if (guard === BDD_FALSE) continue;
        out.push({ to: stateOf(ea.to, eb.to), guard, pending: pendingOf(ea.marks, eb.marks) });
      }
    raw.push(out);
  }
  return postProcess(bdd, aps, states, raw, initial, options.reduce !== false, poll, last && options.simulation !== false);
}

function postProcess(
  bdd: BddManager,
  aps: readonly string[],
  states: readonly Formula[],
  raw: readonly RawEdge[][],
  initial: readonly number[],
  reduce: boolean,
  poll: () => void,
  simulation: boolean,
): SymbolicTgba {
  const n = states.length;
  const { comp, count } = stronglyConnectedComponents(n, initial, (s) => raw[s].map((e) => e.to));

  // A component is accepting iff it has an internal edge and no eventuality is postponed by all
  // of its internal edges.
  const internalPending: (Set<number> | null)[] = Array.from({ length: count }, () => null);
  for (let s = 0; s < n; s++) {
    if (comp[s] < 0) continue;
    poll();
    for (const e of raw[s]) {
      if (comp[e.to] !== comp[s]) continue;
      const c = comp[s];
      const cur = internalPending[c];
      if (cur === null) internalPending[c] = new Set(e.pending);
      else for (const p of cur) if (!e.pending.includes(p)) cur.delete(p);
    }
  }
  const accepting = internalPending.map((p) => p !== null && p.size === 0);
  // Components are numbered sinks first, so successors' usefulness is known when we get here.
  const useful = new Array<boolean>(count).fill(false);
  const byComp: number[][] = Array.from({ length: count }, () => []);
  for (let s = 0; s < n; s++) if (comp[s] >= 0) byComp[comp[s]].push(s);
  for (let c = 0; c < count; c++) {
    useful[c] = accepting[c] || byComp[c].some((s) => raw[s].some((e) => comp[e.to] !== c && useful[comp[e.to]]));
  }
  const keep = (s: number) => comp[s] >= 0 && useful[comp[s]];
  const initialKept = initial.filter(keep);
  if (initialKept.length === 0) {
    return { bdd, aps, stateCount: 1, initial: [0], accSets: 0, edges: [[]], stateFormulas: [states[initial[0]] ?? states[0]] };
  }

  // Acceptance sets, numbered per SCC: a run's acceptance depends only on the SCC it ends in, so
  // each SCC needs one set per distinct "does not postpone eventuality e" column of its internal
  // edges; identical columns share a set, and indices the SCC does not need mark all its edges.
  const marksOf = sccMarks(n, comp, count, raw, keep);
  const accSets = marksOf.accSets;

  // Renumber kept states.
  const newIndex = new Int32Array(n).fill(-1);
  const keptStates: number[] = [];
  for (let s = 0; s < n; s++) if (keep(s)) newIndex[s] = keptStates.push(s) - 1;
  let edges: SymbolicEdge[][] = keptStates.map((s) =>
    raw[s]
      .map((e, k) => ({ e, k }))
      .filter(({ e }) => keep(e.to))
      .map(({ e, k }) => ({ to: newIndex[e.to], guard: e.guard, marks: marksOf.marks(s, k) })),
  );
  let stateFormulas = keptStates.map((s) => states[s]);
  let init = initialKept.map((s) => newIndex[s]);
  if (reduce) {
    ({ edges, stateFormulas, init } = bisimulationQuotient(bdd, edges, stateFormulas, init, poll));
    poll();
    if (simulation) {
      const reduced = reduceBySimulation(bdd, { edges, initial: init, labels: stateFormulas }, poll);
      init = [...reduced.initial];
      stateFormulas = [...reduced.labels];
      edges = reduced.edges.map((es) => [...es]);
    }
  }
  edges = edges.map((es) => {
    poll();
    return mergeEdges(bdd, es, (t) => t);
  });
  return { bdd, aps, stateCount: edges.length, initial: init, accSets, edges, stateFormulas };
}

function sccMarks(
  n: number,
  comp: Int32Array,
  count: number,
  raw: readonly RawEdge[][],
  keep: (s: number) => boolean,
): { accSets: number; marks: (s: number, k: number) => readonly number[] } {
  // Per component: the eventualities postponed on some internal edge.
  const evsOf: number[][] = Array.from({ length: count }, () => []);
  for (let s = 0; s < n; s++) {
    if (!keep(s)) continue;
    for (const e of raw[s])
      if (comp[e.to] === comp[s]) for (const p of e.pending) if (!evsOf[comp[s]].includes(p)) evsOf[comp[s]].push(p);
  }
  // Column signature of an eventuality inside its component: which internal edges release it.
  const setOf: Map<number, number>[] = Array.from({ length: count }, () => new Map());
  const setsIn = new Int32Array(count);
  for (let c = 0; c < count; c++) {
    const columns = new Map<string, number>();
    for (const ev of evsOf[c]) {
      const bits: string[] = [];
      for (let s = 0; s < n; s++) {
        if (comp[s] !== c || !keep(s)) continue;
        raw[s].forEach((e, k) => {
          if (comp[e.to] === c && !e.pending.includes(ev)) bits.push(`${s}:${k}`);
        });
      }
      const key = bits.join(',');
      let idx = columns.get(key);
      if (idx === undefined) columns.set(key, (idx = columns.size));
      setOf[c].set(ev, idx);
    }
    setsIn[c] = columns.size;
  }
  const accSets = setsIn.reduce((m, k) => Math.max(m, k), 0);
  const memo = new Map<string, readonly number[]>();
  return {
    accSets,
    marks: (s, k) => {
      const e = raw[s][k];
      const c = comp[s];
      if (comp[e.to] !== c) return [];
      const blocked = new Set(e.pending.map((p) => setOf[c].get(p)!));
      const out: number[] = [];
      for (let i = 0; i < accSets; i++) if (!blocked.has(i)) out.push(i);
      const key = out.join(',');
      const hit = memo.get(key);
      if (hit) return hit;
      memo.set(key, out);
      return out;
    },
  };
}

/** Merge edges with the same target and marks; drop false guards. */
function mergeEdges(bdd: BddManager, es: readonly SymbolicEdge[], target: (to: number) => number): SymbolicEdge[] {
  const byKey = new Map<string, { to: number; guard: BddNode; marks: readonly number[] }>();
  for (const e of es) {
    const to = target(e.to);
    const key = `${to}|${e.marks.join(',')}`;
    const g = byKey.get(key);
    if (g) g.guard = bdd.or(g.guard, e.guard);
    else byKey.set(key, { to, guard: e.guard, marks: e.marks });
  }
  return [...byKey.values()].filter((e) => e.guard !== BDD_FALSE);
}

function bisimulationQuotient(
  bdd: BddManager,
  edges: SymbolicEdge[][],
  stateFormulas: Formula[],
  init: number[],
  poll: () => void,
): { edges: SymbolicEdge[][]; stateFormulas: Formula[]; init: number[] } {
  const n = edges.length;
  let cls = new Int32Array(n);
  let classCount = 1;
  for (;;) {
    const sigIndex = new Map<string, number>();
    const next = new Int32Array(n);
    for (let s = 0; s < n; s++) {
      poll();
      const merged = mergeEdges(bdd, edges[s], (t) => cls[t]);
      const sig = `${cls[s]}#` + merged.map((e) => `${e.to}|${e.marks.join(',')}|${e.guard}`).sort().join(';');
      let c = sigIndex.get(sig);
      if (c === undefined) sigIndex.set(sig, (c = sigIndex.size));
      next[s] = c;
    }
    const changed = sigIndex.size !== classCount;
    cls = next;
    classCount = sigIndex.size;
    if (!changed) break;
  }
  if (classCount === n) return { edges, stateFormulas, init };
  const rep = new Int32Array(classCount).fill(-1);
  for (let s = 0; s < n; s++) if (rep[cls[s]] === -1) rep[cls[s]] = s;
  const qEdges = Array.from(rep, (s) => mergeEdges(bdd, edges[s], (t) => cls[t]));
  return {
    edges: qEdges,
    stateFormulas: Array.from(rep, (s) => stateFormulas[s]),
    init: [...new Set(init.map((s) => cls[s]))],
  };
}
