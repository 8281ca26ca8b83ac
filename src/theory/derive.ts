/**
 * The assumptions a theory justifies, derived over the spec's own predicates and updates (as
 * tsltools' `tslmt2tsl` and Temos do with an SMT solver, here with omega.ts / congruence.ts):
 *
 * - consistency: sets of predicate literals over shared terms that cannot hold together, as
 *   `G !(l1 && … && lk)` (only minimal sets, up to a size);
 * - update: what a choice of updates makes true at the next step, `G (P && U -> X l)` for
 *   minimal preconditions P, and `G (U -> (q <-> X q))` where U keeps q as it is;
 * - reachability (#LIA): repeating updates that add constants reaches a predicate,
 *   `G (P -> F (l || !U))` ("from P, either the controller stops doing U, or l comes").
 *
 * Every assumption is added only after the decision procedure found its negation unsatisfiable,
 * so each is valid in the theory whatever the environment does. What is not derived (larger sets,
 * longer chains, other update shapes) is listed in docs/theories.md.
 */
import type { TermData } from '../../runtime/table.js';
import type { SourceSpan } from '../diagnostics/diagnostic.js';
import type { GameSpec, PropositionInfo, SpecPart, TheoryName } from '../game/spec.js';
import * as ltl from '../ltl/formula.js';
import { comparisonOf, liaUnsat, linearOf, numericSignals } from './lia.js';
import { type Constraint, linear } from './omega.js';
import { ufUnsat } from './congruence.js';
import { type TAtom, type TLiteral, atomKey, atomSignals, atTime, fromTermData, predicateText, shiftBack, termText } from './terms.js';
import { nowMs } from '../diagnostics/clock.js';

export interface DeriveOptions {
  /** Largest consistency clause, in literals (default 3; every size when a cluster has ≤ 4 predicates). */
  readonly maxConflictSize?: number;
  /** Largest precondition of an update or reachability fact (default 2). */
  readonly maxPreconditionSize?: number;
  /** Time for the whole derivation; what is not done by then is left out (default 3000 ms). */
  readonly budgetMs?: number;
  /** Where the assumptions are said to come from (the theory header); default: none. */
  readonly span?: SourceSpan;
  /**
   * Which predicates get update facts: `tracked` (default) those the spec reads at every step
   * (under a G, e.g. in an `always` section); `all` every predicate over a cell. Update facts
   * are X-obligations, which make the game much larger; a predicate read only at the start or
   * only as a target to reach needs consistency and reachability facts.
   */
  readonly updates?: 'tracked' | 'all';
}

export interface DeriveResult {
  readonly parts: SpecPart[];
  /** False when a size cap or the time budget left some candidate facts unexamined. */
  readonly exhaustive: boolean;
  readonly queries: number;
  readonly milliseconds: number;
}

interface Pred {
  readonly prop: string;
  readonly atom: TAtom;
  readonly text: string;
  readonly signals: ReadonlySet<string>;
}

interface Lit {
  readonly pred: Pred;
  readonly positive: boolean;
}

interface Fact {
  readonly pre: readonly Lit[];
  readonly post: Lit;
}

interface UpdateChoice {
  readonly prop: string;
  readonly signal: string;
  readonly term: TermData;
  readonly isSelf: boolean;
}

/** Most update combinations examined per predicate (a product over the cells it reads). */
const MAX_COMBINATIONS = 64;
/** Most predicates a precondition is chosen from. */
const MAX_RELEVANT = 8;

class OutOfTime extends Error {}

export function deriveTheoryAssumptions(game: GameSpec, theory: TheoryName, options: DeriveOptions = {}): DeriveResult {
  const started = nowMs();
  const budgetMs = options.budgetMs ?? 3000;
  const maxPre = options.maxPreconditionSize ?? 2;
  let exhaustive = true;
  let queries = 0;
  const parts: SpecPart[] = [];
  const span = options.span;
  const header = `#${theory}`;
  const add = (kind: 'consistency' | 'update' | 'reachability', fact: string, formula: ltl.Formula): void => {
    parts.push({ formula, span, text: `assumed from ${header}: ${fact}`, theory: { theory, kind, fact } });
  };

  const predicates = game.inputs.filter((p): p is PropositionInfo & { predicate: NonNullable<PropositionInfo['predicate']> } => p.predicate !== undefined);
  const updates = game.outputs.flatMap((o) => (o.update ? [{ signal: o.update.signal, term: o.update.term }] : []));
  const numeric = numericSignals(predicates.map((p) => p.predicate), updates);

  const isTheoryAtom = (a: TAtom): boolean => (theory === 'LIA' ? comparisonOf(a, numeric) !== undefined : true);
  const preds: Pred[] = predicates
    .map((p) => {
      const atom: TAtom = { fn: p.predicate.fn, args: p.predicate.args.map((a) => fromTermData(a)) };
      return { prop: p.name, atom, text: predicateText(p.predicate.fn, p.predicate.args), signals: atomSignals(atom) };
    })
    .filter((p) => isTheoryAtom(p.atom));
  if (preds.length === 0) return { parts, exhaustive, queries, milliseconds: nowMs() - started };

  // Many candidate facts ask the same question (a precondition's own consistency, above all).
  const memo = new Map<string, boolean>();
  const unsat = (lits: readonly TLiteral[], extra: readonly Constraint[] = []): boolean => {
    const key = extra.length === 0 ? lits.map((l) => `${l.positive ? '' : '!'}${atomKey(l.atom)}`).sort().join('&') : undefined;
    if (key !== undefined) {
      const known = memo.get(key);
      if (known !== undefined) return known;
    }
    if (++queries % 64 === 0 && nowMs() - started > budgetMs) throw new OutOfTime();
    const answer = theory === 'LIA' ? liaUnsat(lits, numeric, extra) : extra.length === 0 && ufUnsat(lits);
    if (key !== undefined) memo.set(key, answer);
    return answer;
  };
  const tlit = (l: Lit): TLiteral => ({ atom: l.pred.atom, positive: l.positive });
  const litFormula = (l: Lit): ltl.Formula => (l.positive ? ltl.ap(l.pred.prop) : ltl.not(ltl.ap(l.pred.prop)));
  const litText = (l: Lit): string => (l.positive ? l.pred.text : `!(${l.pred.text})`);

  const cells = new Set((game.tslSignals ?? []).filter((s) => s.role === 'cell').map((s) => s.name));
  const outputByName = new Map(game.outputs.map((o) => [o.name, o]));
  const choicesOf = new Map<string, UpdateChoice[]>();
  for (const g of game.signals) {
    if (!cells.has(g.signal)) continue;
    const list: UpdateChoice[] = [];
    for (const name of g.updates) {
      const u = outputByName.get(name)?.update;
      if (u) list.push({ prop: name, signal: u.signal, term: u.term, isSelf: u.isSelfUpdate });
    }
    choicesOf.set(g.signal, list);
  }

  try {
    // -- consistency -----------------------------------------------------------------------------
    const clusters = clustersOf(preds);
    const conflicts = new Map<Pred[], Lit[][]>();
    for (const cluster of clusters) {
      const limit = cluster.length <= 4 ? cluster.length : Math.min(cluster.length, options.maxConflictSize ?? 3);
      if (limit < cluster.length) exhaustive = false;
      const found: Lit[][] = [];
      for (const lits of literalSets(cluster, limit)) {
        if (found.some((f) => containsAll(lits, f))) continue;
        if (unsat(lits.map(tlit))) found.push(lits);
      }
      const needed = withoutImplied(found, cluster);
      conflicts.set(cluster, found);
      for (const lits of needed) add('consistency', conflictText(lits, litText), ltl.G(ltl.not(ltl.and(...lits.map(litFormula)))));
    }
    const allConflicts = [...conflicts.values()].flat();
    /** A precondition already known to be impossible (contains a consistency conflict). */
    const impossible = (lits: readonly Lit[]): boolean => allConflicts.some((c) => containsAll(lits, c));

    // -- updates ---------------------------------------------------------------------------------
    const eventual = eventualityAtoms(game);
    const tracked = options.updates === 'all' ? undefined : alwaysAtoms(game);
    const byCombo = new Map<string, { combo: readonly UpdateChoice[]; facts: Fact[] }>();
    for (const q of preds) {
      const readCells = [...q.signals].filter((s) => cells.has(s) && choicesOf.has(s));
      if (readCells.length === 0) continue;
      const combos = combinations(readCells.map((c) => choicesOf.get(c)!));
      if (combos.length > MAX_COMBINATIONS) {
        exhaustive = false;
        continue;
      }
      for (const combo of combos) {
        const byCell = new Map(combo.map((c) => [c.signal, c.term] as const));
        const post: TAtom = { fn: q.atom.fn, args: atTime(q.atom, 1).args.map((a) => shiftBack(a, 0, byCell)) };
        const postSignals = atomSignals(post);
        // Preconditions come from predicates over what the post-state predicate reads now.
        let relevant = preds.filter((p) => [...p.signals].some((s) => postSignals.has(s)));
        if (relevant.length > MAX_RELEVANT) {
          exhaustive = false;
          relevant = relevant.slice(0, MAX_RELEVANT);
        }
        const facts: Fact[] = [];
        for (const positive of tracked === undefined || tracked.has(q.prop) ? [true, false] : []) {
          const target: Lit = { pred: q, positive };
          const found: Lit[][] = [];
          for (const pre of [[], ...literalSets(relevant, maxPre)]) {
            if (found.some((f) => containsAll(pre, f))) continue;
            if (impossible(pre)) continue;
            if (unsat([...pre.map(tlit), { atom: post, positive: !positive }]) && !unsat(pre.map(tlit))) found.push(pre);
          }
          for (const pre of found) facts.push({ pre, post: target });
        }
        const key = combo.map((c) => c.prop).sort().join('\u0000');
        const entry = byCombo.get(key) ?? { combo, facts: [] };
        entry.facts.push(...facts);
        byCombo.set(key, entry);
        if (theory === 'LIA' && eventual.has(q.prop)) reachability(q, combo, relevant);
      }
    }
    for (const { combo, facts } of byCombo.values()) emitUpdateFacts(facts, combo);
  } catch (err) {
    if (!(err instanceof OutOfTime)) throw err;
    exhaustive = false;
  }
  return { parts, exhaustive, queries, milliseconds: nowMs() - started };

  /**
   * Emits what one choice of updates makes true next, without repeating itself: a predicate the
   * updates keep is one `U -> (q <-> X q)` fact, and a fact that follows from one already kept
   * (weaker-or-equal precondition, stronger-or-equal consequence, by the theory) is left out.
   */
  function emitUpdateFacts(facts: readonly Fact[], combo: readonly UpdateChoice[]): void {
    const updateFormula = ltl.and(...combo.map((c) => ltl.ap(c.prop)));
    const updateText = combo.map((c) => `[${c.signal} <- ${termText(c.term)}]`).join(' && ');
    const own = (f: Fact, positive: boolean) => f.pre.length === 1 && f.pre[0].pred === f.post.pred && f.pre[0].positive === positive && f.post.positive === positive;
    const kept: Fact[] = [];
    const keptPreds = new Set<Pred>();
    for (const f of facts) {
      if (!own(f, true) || !facts.some((g) => g.post.pred === f.post.pred && own(g, false))) continue;
      keptPreds.add(f.post.pred);
      kept.push(f, facts.find((g) => g.post.pred === f.post.pred && own(g, false))!);
    }
    const entails = (pre: readonly Lit[], lits: readonly Lit[]): boolean =>
      lits.every((l) => pre.some((p) => p.pred === l.pred && p.positive === l.positive) || unsat([...pre.map(tlit), { atom: l.pred.atom, positive: !l.positive }]));
    const frames = kept.length;
    for (const f of [...facts].sort((a, b) => a.pre.length - b.pre.length)) {
      if (kept.includes(f)) continue;
      if (kept.some((g) => entails(f.pre, g.pre) && entails([g.post], [f.post]))) continue;
      kept.push(f);
    }
    // A fact kept early may follow from one kept later (same size, weaker precondition).
    for (let i = kept.length - 1; i >= frames; i--) {
      const f = kept[i];
      if (kept.some((g, j) => j !== i && entails(f.pre, g.pre) && entails([g.post], [f.post]))) kept.splice(i, 1);
    }
    const groups = new Map<string, { pre: readonly Lit[]; posts: Lit[] }>();
    for (const f of kept.slice(frames)) {
      const key = f.pre.map(litKey).join('&');
      const group = groups.get(key) ?? { pre: f.pre, posts: [] };
      group.posts.push(f.post);
      groups.set(key, group);
    }
    for (const q of keptPreds) {
      add('update', `${updateText} keeps ${q.text} as it is`, ltl.G(ltl.implies(updateFormula, ltl.iff(ltl.ap(q.prop), ltl.X(ltl.ap(q.prop))))));
    }
    for (const group of groups.values()) {
      // Within one fact, a consequence the others already imply (by the theory) is left out.
      for (let i = group.posts.length - 1; i >= 0 && group.posts.length > 1; i--) {
        const others = group.posts.filter((_, j) => j !== i);
        if (entails(others, [group.posts[i]])) group.posts.splice(i, 1);
      }
      const { pre, posts } = group;
      const when = pre.length === 0 ? '' : ` when ${pre.map(litText).join(' && ')}`;
      const made = posts.map((l) => `${l.pred.text} ${l.positive ? 'true' : 'false'}`);
      const list = made.length === 1 ? made[0] : `${made.slice(0, -1).join(', ')} and ${made[made.length - 1]}`;
      add(
        'update',
        `${updateText}${when} makes ${list} next`,
        ltl.G(ltl.implies(ltl.and(...pre.map(litFormula), updateFormula), ltl.X(ltl.and(...posts.map(litFormula))))),
      );
    }
  }

  /**
   * Repeating `combo` changes each cell by a constant (δ); a comparison of those cells moves by a
   * constant per step and so is reached, or (an equality) reached from where it lies ahead on the
   * right residue. Only for predicates the spec waits for (under F, U, W, R).
   */
  function reachability(q: Pred, combo: readonly UpdateChoice[], relevant: readonly Pred[]): void {
    const comparison = comparisonOf(q.atom, numeric);
    if (!comparison) return;
    const delta = new Map<string, bigint>();
    for (const c of combo) {
      const after = linearOf(fromTermData(c.term), numeric);
      if (!after) return;
      const d = linear.sub(after, linear.variable(`${c.signal}@0`));
      if (!linear.isConstant(d)) return;
      delta.set(`${c.signal}@0`, d.constant);
    }
    // Every variable of the comparison must be one of these cells.
    let step = 0n;
    for (const [x, a] of comparison.diff.coeffs) {
      const d = delta.get(x);
      if (d === undefined) return;
      step += a * d;
    }
    if (step === 0n) return;
    const updateFormula = ltl.and(...combo.map((c) => ltl.ap(c.prop)));
    const updateText = combo.map((c) => `[${c.signal} <- ${termText(c.term)}]`).join(' && ');
    // Keeping every cell changes nothing, so the controller may pause between repetitions: from P,
    // l comes unless the controller does something else than U or keeping, or stops doing U.
    const keeps = combo.map((c) => choicesOf.get(c.signal)?.find((u) => u.isSelf));
    const keepFormula = keeps.every((k) => k !== undefined) ? ltl.and(...keeps.map((k) => ltl.ap(k!.prop))) : undefined;
    const emit = (pre: readonly Lit[], target: Lit): void => {
      const from = pre.length === 0 ? '' : ` from ${pre.map(litText).join(' && ')}`;
      const made = `${target.pred.text} ${target.positive ? 'true' : 'false'}`;
      const allowed = keepFormula ? ltl.or(updateFormula, keepFormula) : updateFormula;
      const reached = ltl.F(ltl.or(litFormula(target), ltl.not(allowed)));
      add(
        'reachability',
        keepFormula
          ? `repeating ${updateText}${from} (keeping the value in between) eventually makes ${made}`
          : `repeating ${updateText}${from} eventually makes ${made}`,
        ltl.G(ltl.implies(ltl.and(...pre.map(litFormula)), keepFormula ? ltl.or(reached, ltl.F(ltl.G(ltl.not(updateFormula)))) : reached)),
      );
    };
    const d = comparison.diff;
    const op = comparison.op;
    if (op !== 'eq') {
      // The literal that becomes true as d grows (step > 0) or shrinks: `>`/`>=` true or `<`/`<=` false.
      const growsTrue = op === 'gt' || op === 'gte';
      emit([], { pred: q, positive: step > 0n ? growsTrue : !growsTrue });
      return;
    }
    // d = 0 is reached from d ≤ 0 (step > 0) or d ≥ 0 (step < 0) when |step| divides d.
    const s = step > 0n ? step : -step;
    const wrongSide: Constraint = { kind: 'ge', expr: linear.add(step > 0n ? d : linear.scale(d, -1n), linear.constant(-1n)) };
    const residue = (): Constraint[] => {
      if (s === 1n) return [];
      // d = s·k + r with 1 ≤ r ≤ s − 1 for fresh k, r: not a multiple of s.
      const k = linear.variable('#k');
      const r = linear.variable('#r');
      return [
        { kind: 'eq', expr: linear.sub(d, linear.add(linear.scale(k, s), r)) },
        { kind: 'ge', expr: linear.add(r, linear.constant(-1n)) },
        { kind: 'ge', expr: linear.sub(linear.constant(s - 1n), r) },
      ];
    };
    const target: Lit = { pred: q, positive: true };
    const found: Lit[][] = [];
    for (const pre of literalSets(relevant, maxPre)) {
      if (found.some((f) => containsAll(pre, f))) continue;
      if (impossibleNow(pre)) continue;
      const lits = pre.map(tlit);
      // Already true there: nothing to reach.
      if (unsat([...lits, { atom: q.atom, positive: false }])) continue;
      if (!unsat(lits, [wrongSide])) continue;
      if (s > 1n && !unsat(lits, residue())) continue;
      found.push(pre);
    }
    // Keep only the weakest preconditions (t >= 0 rather than also t > 0).
    const weakest = found.filter((pre, i) => !found.some((other, j) => j !== i && (j < i || !entailsAll(other, pre)) && entailsAll(pre, other)));
    for (const pre of weakest) emit(pre, target);
  }

  function entailsAll(pre: readonly Lit[], lits: readonly Lit[]): boolean {
    return lits.every((l) => pre.some((p) => p.pred === l.pred && p.positive === l.positive) || unsat([...pre.map(tlit), { atom: l.pred.atom, positive: !l.positive }]));
  }

  function impossibleNow(lits: readonly Lit[]): boolean {
    return lits.length > 0 && unsat(lits.map(tlit));
  }
}

const litKey = (l: Lit): string => `${l.positive ? '' : '!'}${l.pred.prop}`;

/** Whether `big` has every literal of `small` (same predicate, same polarity). */
function containsAll(big: readonly Lit[], small: readonly Lit[]): boolean {
  return small.every((s) => big.some((b) => b.pred === s.pred && b.positive === s.positive));
}

/** Clusters up to this many predicates have implied conflicts removed (2^n assignments each). */
const IMPLIED_CHECK_LIMIT = 12;

/**
 * The conflicts minus those the others imply propositionally (`a → b` and `¬(b ∧ c)` make
 * `¬(a ∧ c)` redundant): fewer assumptions for the solver, the same meaning. Later (larger)
 * conflicts are dropped first.
 */
function withoutImplied(conflicts: readonly Lit[][], cluster: readonly Pred[]): Lit[][] {
  if (cluster.length > IMPLIED_CHECK_LIMIT) return [...conflicts];
  const index = new Map(cluster.map((p, i) => [p, i]));
  const violates = (c: readonly Lit[], mask: number): boolean => c.every((l) => ((mask >> index.get(l.pred)!) & 1) === (l.positive ? 1 : 0));
  const kept = [...conflicts];
  for (let i = kept.length - 1; i >= 0; i--) {
    const others = kept.filter((_, j) => j !== i);
    let implied = true;
    for (let mask = 0; mask < 1 << cluster.length && implied; mask++) {
      if (violates(kept[i], mask) && !others.some((c) => violates(c, mask))) implied = false;
    }
    if (implied) kept.splice(i, 1);
  }
  return kept;
}

/** Predicates linked by the signals they read (connected components). */
function clustersOf(preds: readonly Pred[]): Pred[][] {
  const parent = preds.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const bySignal = new Map<string, number>();
  preds.forEach((p, i) => {
    for (const s of p.signals) {
      const j = bySignal.get(s);
      if (j === undefined) bySignal.set(s, i);
      else parent[find(i)] = find(j);
    }
  });
  const groups = new Map<number, Pred[]>();
  preds.forEach((p, i) => {
    const r = find(i);
    groups.set(r, [...(groups.get(r) ?? []), p]);
  });
  return [...groups.values()];
}

/** Every set of 1..size literals over distinct predicates, smallest first. */
function* literalSets(preds: readonly Pred[], size: number): Generator<Lit[]> {
  for (let k = 1; k <= Math.min(size, preds.length); k++) {
    for (const chosen of subsets(preds.length, k)) {
      for (let mask = 0; mask < 1 << k; mask++) {
        yield chosen.map((i, j) => ({ pred: preds[i], positive: (mask & (1 << j)) === 0 }));
      }
    }
  }
}

function* subsets(n: number, k: number, start = 0, acc: number[] = []): Generator<number[]> {
  if (acc.length === k) {
    yield [...acc];
    return;
  }
  for (let i = start; i < n; i++) {
    acc.push(i);
    yield* subsets(n, k, i + 1, acc);
    acc.pop();
  }
}

function combinations<T>(lists: readonly (readonly T[])[]): T[][] {
  let out: T[][] = [[]];
  for (const list of lists) {
    out = out.flatMap((prefix) => list.map((x) => [...prefix, x]));
    if (out.length > MAX_COMBINATIONS) return out;
  }
  return out;
}

function conflictText(lits: readonly Lit[], text: (l: Lit) => string): string {
  if (lits.length === 1) return `${lits[0].pred.text} is always ${lits[0].positive ? 'false' : 'true'}`;
  if (lits.length === 2) {
    const [a, b] = lits;
    if (a.positive && b.positive) return `${a.pred.text} and ${b.pred.text} cannot both hold`;
    if (!a.positive && !b.positive) return `${a.pred.text} or ${b.pred.text} always holds`;
    const [p, q] = a.positive ? [a, b] : [b, a];
    return `${p.pred.text} implies ${q.pred.text}`;
  }
  return `${lits.slice(0, -1).map(text).join(', ')} and ${text(lits[lits.length - 1])} cannot all hold`;
}

/** Propositions the user's formulas read at every step: under a G (an `always` section is one). */
function alwaysAtoms(game: GameSpec): Set<string> {
  const out = new Set<string>();
  const visit = (f: ltl.Formula, under: boolean): void => {
    if (f.kind === 'ap') {
      if (under) out.add(f.name);
      return;
    }
    const inner = under || f.kind === 'G';
    for (const c of ltl.children(f)) visit(c, inner);
  };
  for (const p of [...game.initially, ...game.preset, ...game.assumptions, ...game.guarantees]) if (p.theory === undefined) visit(p.formula, false);
  return out;
}

/** Propositions that occur under an eventuality (F, U, M) or a weak one (W, R): targets worth reaching. */
function eventualityAtoms(game: GameSpec): Set<string> {
  const out = new Set<string>();
  const visit = (f: ltl.Formula, under: boolean): void => {
    if (f.kind === 'ap') {
      if (under) out.add(f.name);
      return;
    }
    const inner = under || f.kind === 'F' || f.kind === 'U' || f.kind === 'M' || f.kind === 'W' || f.kind === 'R';
    for (const c of ltl.children(f)) visit(c, inner);
  };
  for (const p of [...game.initially, ...game.preset, ...game.assumptions, ...game.guarantees]) if (p.theory === undefined) visit(p.formula, false);
  return out;
}
