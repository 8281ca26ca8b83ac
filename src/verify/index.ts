/**
 * src/verify — the independent model checker every controller must pass before it leaves the
 * solver (and every external tool's controller before we trust it).
 *
 * It shares nothing with the game solver beyond the formula and automaton layers: the product of
 * the Mealy machine with the tableau automaton of ¬φ is explored lazily (only automaton states the
 * machine can reach are ever built) and checked for an accepting cycle. Letters are never
 * enumerated: a product edge exists iff (input cube ∧ output cube ∧ automaton guard) is
 * satisfiable, decided by a BDD walk. Partial output cubes mean "any completion may be chosen",
 * so existential satisfiability is exactly "some completion violates φ".
 */
import { BDD_FALSE, BDD_TRUE, BddManager, type BddNode } from '../automata/bdd.js';
import { stronglyConnectedComponents } from '../automata/scc.js';
import { Tableau } from '../automata/tableau.js';
import { type SymbolicTgba, translateLtlSymbolic } from '../automata/translate.js';
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { Cube, MealyMachine, MealyTransition } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import { exactlyOne, type GameSpec, inputNames, outputNames, specFormula } from '../game/spec.js';
import { and, type Formula, not } from '../ltl/formula.js';
import { simplify } from '../automata/simplify.js';

export interface ControllerStep {
  readonly state: number;
  readonly inputs: Record<string, boolean>;
  readonly outputs: Record<string, boolean>;
}

export interface Counterexample {
  readonly prefix: ControllerStep[];
  /** Non-empty; repeats forever after the prefix. */
  readonly cycle: ControllerStep[];
}

export type VerifyResult =
  | { readonly ok: true; readonly productStates: number }
  | {
      readonly ok: false;
      readonly kind: 'malformed' | 'incomplete' | 'violation';
      readonly message: string;
      readonly counterexample?: Counterexample;
    };

export interface VerifyOptions {
  /** Check against this formula instead of `specFormula(spec)` (e.g. a single guarantee). */
  readonly formula?: Formula;
  /**
   * Called as the product is explored (per product state and every few hundred BDD nodes); it
   * may throw to abandon the check, e.g. a solver whose time slice is over. It cannot change an
   * answer, only stop one from being given.
   */
  readonly poll?: () => void;
}

export class InternalVerificationError extends Error {
  constructor(
    message: string,
    readonly result: Extract<VerifyResult, { ok: false }>,
  ) {
    super(message);
    this.name = 'InternalVerificationError';
  }
}

/** Throws `InternalVerificationError` unless the controller satisfies the spec. */
export function verifyOrThrow(spec: GameSpec, m: MealyMachine, options: VerifyOptions = {}): { productStates: number } {
  const r = verifyController(spec, m, options);
  if (r.ok) return { productStates: r.productStates };
  const lasso = r.counterexample ? `\n${formatCounterexample(r.counterexample)}` : '';
  throw new InternalVerificationError(
    `internal error: the controller for '${spec.name}' fails independent verification (${r.kind}): ${r.message}${lasso}`,
    r,
  );
}

export function verifyController(spec: GameSpec, m: MealyMachine, options: VerifyOptions = {}): VerifyResult {
  const inputs = inputNames(spec);
  const outputs = outputNames(spec);
  const malformed = checkShape(m, new Set(inputs), new Set(outputs));
  if (malformed) return { ok: false, kind: 'malformed', message: malformed };

  const bdd = new BddManager();
  bdd.poll = options.poll;
  // Inputs first in the variable order: the completeness check only ever looks at inputs.
  for (const name of [...inputs, ...outputs]) bdd.varIndex(name);
  const byState: MealyTransition[][] = Array.from({ length: m.stateCount }, () => []);
  m.transitions.forEach((t) => byState[t.from].push(t));

  const incomplete = checkInputComplete(bdd, byState, inputs);
  if (incomplete) return { ok: false, kind: 'incomplete', message: incomplete };

  const formula = options.formula ?? specFormula(spec);
  // Only local rewrites: pairwise implication tests across the spec's many conjuncts cost more
  // than the smaller product they could buy (see SimplifyOptions.pairwise).
  return checkProduct(bdd, m, byState, simplify(not(formula), { pairwise: false, poll: options.poll }), inputs, outputs, options.poll);
}

/**
 * Whether `refined` is `checked` with values fixed for outputs of `spec` that `checked` left free, and nothing
 * else changed: the same states and initial state, and transition by transition the same source,
 * target and input cube, and an output cube that extends the checked one. `verifyController`
 * reads a free output as "any value may be chosen", so every run of `refined` is a run of
 * `checked`, and a controller that passed the check passes it with its outputs fixed.
 */
export function fixesOutputsOf(spec: GameSpec, checked: MealyMachine, refined: MealyMachine): boolean {
  if (refined.stateCount !== checked.stateCount || refined.initial !== checked.initial) return false;
  if (refined.transitions.length !== checked.transitions.length) return false;
  const sameNames = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((n, i) => n === b[i]);
  if (!sameNames(refined.inputs, checked.inputs) || !sameNames(refined.outputs, checked.outputs)) return false;
  const outputs = new Set(outputNames(spec));
  const extendsCube = (wide: Cube, narrow: Cube) => Object.keys(narrow).every((n) => Object.hasOwn(wide, n) && wide[n] === narrow[n]);
  const sameCube = (a: Cube, b: Cube) => Object.keys(a).length === Object.keys(b).length && extendsCube(a, b);
  // What the refinement adds are values of the spec's outputs (anything else the check would refuse).
  const addsOutputs = (wide: Cube) => Object.keys(wide).every((n) => outputs.has(n) && typeof wide[n] === 'boolean');
  return checked.transitions.every((t, i) => {
    const r = refined.transitions[i];
    return r.from === t.from && r.to === t.to && sameCube(r.input, t.input) && extendsCube(r.output, t.output) && addsOutputs(r.output);
  });
}

/**
 * Checks that a counterstrategy defeats every controller: it answers every output valuation of
 * every step (every signal-respecting one when `signalsEnforced`), commits to one complete input
 * per state when the environment moves first (Mealy specs), and no play it allows satisfies the
 * spec. The last is the controller check with roles swapped: the product of the environment's
 * machine with the tableau of φ (not ¬φ) must have no accepting cycle, outputs being the
 * controller's free choice within each transition's cube. A `violation` is a play, consistent
 * with the counterstrategy, that satisfies φ.
 */
export function verifyCounterstrategy(spec: GameSpec, cs: Counterstrategy, options: Pick<VerifyOptions, 'poll'> = {}): VerifyResult {
  const inputs = inputNames(spec);
  const outputs = outputNames(spec);
  const machine: MealyMachine = { inputs, outputs, stateCount: cs.stateCount, initial: cs.initial, transitions: cs.transitions };
  const malformed = checkShape(machine, new Set(inputs), new Set(outputs));
  if (malformed) return { ok: false, kind: 'malformed', message: malformed };
  // Under Mealy semantics the controller sees each input before it answers, so an environment
  // that chooses its input after the outputs would be clairvoyant: whatever it claims, it must
  // commit to one input per state (checked below).
  if (spec.semantics === 'mealy' && cs.seesCurrentOutputs)
    return { ok: false, kind: 'malformed', message: 'the environment sees the outputs before its input, but the controller of a Mealy specification moves second' };
  if (cs.signalsEnforced && spec.initially.length > 0)
    return { ok: false, kind: 'malformed', message: 'outputs that break a signal are left out, but an INITIALLY part could excuse them' };
  const bdd = new BddManager();
  bdd.poll = options.poll;
  for (const name of [...outputs, ...inputs]) bdd.varIndex(name);
  const byState: MealyTransition[][] = Array.from({ length: cs.stateCount }, () => []);
  for (const t of cs.transitions) byState[t.from].push(t);
  // Output valuations the environment may leave unanswered: those breaking a signal's rule.
  const excused = cs.signalsEnforced ? bdd.not(bdd.fromFormula(and(...spec.signals.map((g) => exactlyOne(g.updates))))) : BDD_FALSE;
  for (const [s, ts] of byState.entries()) {
    for (const t of ts)
      for (const name of inputs)
        if (!Object.hasOwn(t.input, name)) return { ok: false, kind: 'malformed', message: `state ${s} leaves input '${name}' open` };
    if (!cs.seesCurrentOutputs) {
      const key = (c: Cube) => inputs.map((n) => (c[n] ? 1 : 0)).join('');
      if (new Set(ts.map((t) => key(t.input))).size > 1) return { ok: false, kind: 'malformed', message: `state ${s} plays more than one input` };
    }
    let covered = excused;
    for (const t of ts) covered = bdd.or(covered, bdd.cube(t.output));
    if (covered !== BDD_TRUE) {
      const witness = bdd.satisfyingAssignment(bdd.not(covered)) ?? new Map<string, boolean>();
      const shown = outputs.map((name) => `${name}=${witness.get(name) ?? false}`).join(', ');
      return { ok: false, kind: 'incomplete', message: `state ${s} has no answer to the outputs ${shown || '(no outputs)'}` };
    }
  }
  const r = checkProduct(bdd, machine, byState, simplify(specFormula(spec), { pairwise: false, poll: options.poll }), inputs, outputs, options.poll);
  if (r.ok || r.kind !== 'violation') return r;
  return { ...r, message: `a play allowed by the counterstrategy satisfies the specification (${r.message.replace(/^.*\(/, '(')}` };
}

function checkShape(m: MealyMachine, inputs: ReadonlySet<string>, outputs: ReadonlySet<string>): string | null {
  if (!Number.isInteger(m.stateCount) || m.stateCount < 1) return `the machine has ${m.stateCount} states`;
  const validState = (s: number) => Number.isInteger(s) && s >= 0 && s < m.stateCount;
  if (!validState(m.initial)) return `initial state ${m.initial} is not a state (0..${m.stateCount - 1})`;
  for (const [i, t] of m.transitions.entries()) {
    if (!validState(t.from)) return `transition ${i} leaves non-existent state ${t.from}`;
    if (!validState(t.to)) return `transition ${i} (from state ${t.from}) targets non-existent state ${t.to}`;
    for (const name in t.input) {
      if (outputs.has(name)) return `transition ${i} (from state ${t.from}) reads output '${name}' in its input condition`;
      if (!inputs.has(name)) return `transition ${i} (from state ${t.from}) mentions unknown proposition '${name}'`;
    }
    for (const name in t.output) {
      if (inputs.has(name)) return `transition ${i} (from state ${t.from}) sets input '${name}'`;
      if (!outputs.has(name)) return `transition ${i} (from state ${t.from}) sets unknown proposition '${name}'`;
    }
  }
  return null;
}

function checkInputComplete(bdd: BddManager, byState: readonly MealyTransition[][], inputs: readonly string[]): string | null {
  for (const [s, ts] of byState.entries()) {
    let covered = BDD_FALSE;
    for (const t of ts) {
      covered = bdd.or(covered, bdd.cube(t.input));
      if (covered === BDD_TRUE) break;
    }
    if (covered === BDD_TRUE) continue;
    const witness = bdd.satisfyingAssignment(bdd.not(covered)) ?? new Map<string, boolean>();
    const shown = inputs.map((name) => `${name}=${witness.get(name) ?? false}`).join(', ');
    return `state ${s} has no transition for the input ${shown || '(no inputs)'}`;
  }
  return null;
}

interface ProductEdge {
  readonly to: number;
  readonly pending: readonly number[];
  readonly transition: MealyTransition;
  readonly guard: BddNode;
}

function checkProduct(
  bdd: BddManager,
  m: MealyMachine,
  byState: readonly MealyTransition[][],
  negated: Formula,
  inputs: readonly string[],
  outputs: readonly string[],
  poll?: () => void,
): VerifyResult {
  // The tableau polls too: its expansions and reductions can run long without making a BDD node.
  const tableau = new Tableau(bdd, poll);
  const autIndex = new Map<number, number>();
  const autStates: Formula[] = [];
  const autOf = (f: Formula) => {
    const g = tableau.normalizeState(f);
    let i = autIndex.get(g.id);
    if (i === undefined) {
      i = autStates.length;
      autIndex.set(g.id, i);
      autStates.push(g);
    }
    return i;
  };
  const roots = negated.kind === 'or' ? negated.args : [negated];
  const autInitial = [...new Set(roots.map(autOf))];

  // The machine's distinct letters (a transition's inputs and outputs, disjoint as checked above)
  // as dense arrays, and which letter each transition reads: many transitions read the same one.
  // Each letter remembers which guards meet it: the same few thousand (guard, letter) pairs come
  // up millions of times (taxi-service-real: 5.2 million tests of 32,559 pairs).
  const letters: Array<{ readonly assignment: Int8Array; readonly meets: Map<BddNode, boolean> }> = [];
  const letterIndex = new Map<MealyTransition, number>();
  const indexOfLetter = new Map<string, number>();
  for (const t of m.transitions) {
    const a = bdd.assignmentArray(t.input);
    const out = bdd.assignmentArray(t.output);
    for (let i = 0; i < a.length; i++) if (out[i] !== 0) a[i] = out[i];
    const key = a.join(',');
    let index = indexOfLetter.get(key);
    if (index === undefined) {
      indexOfLetter.set(key, (index = letters.length));
      letters.push({ assignment: a, meets: new Map() });
    }
    letterIndex.set(t, index);
  }
  // An automaton state's successors under a letter, once per (state, letter): the product meets
  // the pair again at every machine state with that letter, and a large state is expanded anew
  // under each letter (sweap's taxi-service-real: 42,389 product states, 7 s, mostly re-expansions).
  const successorMemo = new Map<number, ReturnType<Tableau['successorsUnder']>>();
  const successorsOf = (as: number, t: MealyTransition) => {
    const index = letterIndex.get(t)!;
    const key = as * letters.length + index;
    let terms = successorMemo.get(key);
    if (terms === undefined) {
      const { assignment, meets } = letters[index];
      const compatible = (g: BddNode) => {
        let ok = meets.get(g);
        if (ok === undefined) meets.set(g, (ok = bdd.compatibleWith(g, assignment)));
        return ok;
      };
      successorMemo.set(key, (terms = tableau.successorsUnder(autStates[as], assignment, compatible)));
    }
    return terms;
  };
  const letterOf = (t: MealyTransition): Cube => mergeDicts(t.input, t.output);

  // Explore the product breadth-first; product state = (machine state, automaton state).
  const index = new Map<number, number>();
  const pairs: [number, number][] = [];
  const edges: ProductEdge[][] = [];
  const productOf = (ms: number, as: number) => {
    const key = as * m.stateCount + ms;
    let i = index.get(key);
    if (i === undefined) {
      i = pairs.length;
      index.set(key, i);
      pairs.push([ms, as]);
    }
    return i;
  };
  const initial = autInitial.map((a) => productOf(m.initial, a));
  for (let p = 0; p < pairs.length; p++) {
    poll?.();
    const [ms, as] = pairs[p];
    const out: ProductEdge[] = [];
    for (const t of byState[ms])
      for (const term of successorsOf(as, t))
        out.push({ to: productOf(t.to, autOf(term.next)), pending: term.pending, transition: t, guard: term.guard });
    edges.push(out);
  }

  const { comp, count } = stronglyConnectedComponents(pairs.length, initial, (p) => edges[p].map((e) => e.to));
  // Accepting component: an internal edge exists and no eventuality is postponed by all of them.
  const stillPending: (Set<number> | null)[] = Array.from({ length: count }, () => null);
  for (let p = 0; p < pairs.length; p++)
    for (const e of edges[p]) {
      if (comp[e.to] !== comp[p]) continue;
      const cur = stillPending[comp[p]];
      if (cur === null) stillPending[comp[p]] = new Set(e.pending);
      else for (const x of cur) if (!e.pending.includes(x)) cur.delete(x);
    }
  const bad = stillPending.findIndex((s) => s !== null && s.size === 0);
  if (bad < 0) return { ok: true, productStates: pairs.length };

  const lasso = extractLasso(bad, comp, edges, initial);
  const step = (p: number, e: ProductEdge): ControllerStep => {
    const assignment = bdd.satisfyingAssignment(e.guard, letterOf(e.transition)) ?? new Map<string, boolean>();
    const pick = (names: readonly string[]) => dict(names.map((n) => [n, assignment.get(n) ?? false]));
    return { state: pairs[p][0], inputs: pick(inputs), outputs: pick(outputs) };
  };
  const counterexample: Counterexample = {
    prefix: lasso.prefix.map(([p, e]) => step(p, e)),
    cycle: lasso.cycle.map(([p, e]) => step(p, e)),
  };
  return {
    ok: false,
    kind: 'violation',
    message: `an execution of the controller violates the specification (product of ${pairs.length} states)`,
    counterexample,
  };
}

/**
 * A path from an initial product state into component `target`, then a cycle inside it that,
 * for every eventuality postponed somewhere in the component, takes an edge that does not postpone
 * it (such an edge exists because the component is accepting).
 */
function extractLasso(
  target: number,
  comp: Int32Array,
  edges: readonly ProductEdge[][],
  initial: readonly number[],
): { prefix: [number, ProductEdge][]; cycle: [number, ProductEdge][] } {
  const pathTo = (from: readonly number[], goal: (p: number) => boolean, inside: (p: number) => boolean) => {
    const parent = new Map<number, [number, ProductEdge] | null>();
    const queue: number[] = [];
    for (const s of from) {
      if (!parent.has(s)) {
        parent.set(s, null);
        queue.push(s);
      }
    }
    for (let h = 0; h < queue.length; h++) {
      const p = queue[h];
      if (goal(p)) {
        const path: [number, ProductEdge][] = [];
        for (let cur = parent.get(p); cur; cur = parent.get(cur[0])) path.unshift(cur);
        return { end: p, path };
      }
      for (const e of edges[p]) {
        if (parent.has(e.to) || !inside(e.to)) continue;
        parent.set(e.to, [p, e]);
        queue.push(e.to);
      }
    }
    throw new Error('verifier: lasso extraction lost its way');
  };
  const inTarget = (p: number) => comp[p] === target;
  const { end: entry, path: prefix } = pathTo(initial, inTarget, () => true);

  const internal: [number, ProductEdge][] = [];
  for (let p = 0; p < edges.length; p++) if (inTarget(p)) for (const e of edges[p]) if (inTarget(e.to)) internal.push([p, e]);
  const eventualities = new Set<number>();
  for (const [, e] of internal) for (const x of e.pending) eventualities.add(x);
  // Greedily pick edges until every eventuality is released by at least one picked edge.
  const required: [number, ProductEdge][] = [];
  const open = new Set(eventualities);
  while (open.size > 0) {
    let best = internal[0];
    let bestScore = -1;
    for (const cand of internal) {
      let score = 0;
      for (const x of open) if (!cand[1].pending.includes(x)) score++;
      if (score > bestScore) [best, bestScore] = [cand, score];
    }
    required.push(best);
    for (const x of [...open]) if (!best[1].pending.includes(x)) open.delete(x);
  }
  if (required.length === 0) required.push(internal.find(([p]) => p === entry)!);

  const cycle: [number, ProductEdge][] = [];
  let at = entry;
  // Paths are appended step by step: one may be longer than a call's arguments may be (`push(...path)`).
  for (const [src, e] of required) {
    for (const step of pathTo([at], (p) => p === src, inTarget).path) cycle.push(step);
    cycle.push([src, e]);
    at = e.to;
  }
  if (at !== entry) for (const step of pathTo([at], (p) => p === entry, inTarget).path) cycle.push(step);
  return { prefix, cycle };
}

/** Human-readable lasso: one line per step, the cycle marked as repeating forever. */
export function formatCounterexample(cx: Counterexample): string {
  const line = (s: ControllerStep) => {
    const on = (r: Record<string, boolean>) => Object.keys(r).filter((k) => r[k]).join(', ') || '-';
    return `  state ${s.state}: inputs {${on(s.inputs)}} → outputs {${on(s.outputs)}}`;
  };
  return [
    ...(cx.prefix.length > 0 ? ['prefix:', ...cx.prefix.map(line)] : []),
    'then repeat forever:',
    ...cx.cycle.map(line),
  ].join('\n');
}

export interface TraceCheck {
  /** True when no continuation of the trace can satisfy the specification any more. */
  readonly badPrefix: boolean;
  /** Index of the first step after which that was already the case. */
  readonly step?: number;
}

const specAutomata = new WeakMap<GameSpec, SymbolicTgba>();

/**
 * Is this finite execution already a bad prefix of the spec? Runs the trace through the pruned
 * automaton of φ (every state of which still has an accepting continuation), so the answer is
 * exact: the set of reachable states becomes empty exactly when every extension violates φ.
 * The automaton is built once per spec object.
 */
export function checkTraceAgainstSpec(spec: GameSpec, steps: readonly ControllerStep[]): TraceCheck {
  let aut = specAutomata.get(spec);
  if (!aut) {
    aut = translateLtlSymbolic(specFormula(spec), new BddManager());
    specAutomata.set(spec, aut);
  }
  const a = aut;
  let current = new Set(a.initial.filter((q) => a.edges[q].length > 0));
  for (const [i, s] of steps.entries()) {
    const letter = a.bdd.assignmentArray(mergeDicts(s.inputs, s.outputs));
    const next = new Set<number>();
    for (const q of current) for (const e of a.edges[q]) if (a.bdd.compatibleWith(e.guard, letter)) next.add(e.to);
    if (next.size === 0) return { badPrefix: true, step: i };
    current = next;
  }
  return { badPrefix: current.size === 0 };
}
