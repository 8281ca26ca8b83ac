/**
 * Formula equivalence for conformance tests: is our front end's formula the reference tool's?
 *
 * Two judges that share no code. Our translator decides it (a ∧ ¬b and ¬a ∧ b both empty) under
 * a time cap; the direct lasso evaluator of `lasso-eval.ts` checks every answer: a non-empty
 * product must yield a lasso that the evaluator confirms before we say `different`, and in every
 * case at least 200 random lassos are evaluated on both formulas (any disagreement is
 * `different`, with that lasso). Past the cap the verdict is only `agree-on-words`.
 */
import { BddManager } from '../../src/automata/bdd.js';
import { TimeoutError } from '../../src/automata/deadline.js';
import { stronglyConnectedComponents } from '../../src/automata/scc.js';
import { type SymbolicEdge, type SymbolicTgba, translateLtlSymbolic } from '../../src/automata/translate.js';
import * as ltl from '../../src/ltl/formula.js';
import { evaluateBatch, evaluateLasso, formatLasso, type Lasso, type Letter, randomLassoBatches, unpackLane } from './lasso-eval.js';
import { isBinary, LtlTree, Op, printTree, treeFromFormula } from './ltl-tree.js';

/** Either our hash-consed formula or a reference tool's tree. */
export type FormulaInput = ltl.Formula | LtlTree;

export interface CompareOptions {
  /** Time for both emptiness checks together, in ms (default 2000). */
  readonly timeoutMs?: number;
  /** Random lassos to evaluate (default 224, never fewer than 200). */
  readonly words?: number;
  readonly seed?: number;
  /** Atoms the random words vary besides those of the formulas (e.g. declared but unused inputs). */
  readonly atoms?: readonly string[];
  /** Exactly-one groups most random words respect (TSL signals' updates). */
  readonly oneHot?: readonly (readonly string[])[];
  /** Formulas nested deeper than this skip the (recursive) translator (default 2000). */
  readonly maxDepth?: number;
  /**
   * Let the translator simplify the product formula first (default false): `simplify` does not
   * poll the deadline, and on some whole specs (`sig ∧ (A → G₁ ∧ … ∧ Gₙ)`) it runs for minutes.
   */
  readonly simplify?: boolean;
}

export type Verdict = 'equivalent' | 'different' | 'agree-on-words';

export interface CompareResult {
  readonly verdict: Verdict;
  /**
   * `emptiness`: both products empty for every pair of matching parts (see `matchingParts`),
   * and the random words agreed. `product-witness`: a non-empty product's lasso, confirmed by
   * the evaluator. `random-words`: a random lasso told them apart, or (agree-on-words) the
   * products were not decided.
   */
  readonly method: 'emptiness' | 'product-witness' | 'random-words';
  /** A lasso on which the two formulas differ (verdict `different`), with both truth values. */
  readonly witness?: { readonly lasso: Lasso; readonly a: boolean; readonly b: boolean };
  readonly wordsChecked: number;
  /** Verdict `equivalent`: how many pairs of matching sub-formulas the products decided. */
  readonly parts?: number;
  /** Why the products did not decide it (verdict `agree-on-words`). */
  readonly undecided?: 'timeout' | 'size' | 'too-deep';
}

/** The translator's answer and the evaluator's disagree: a bug in one of them, never a verdict. */
export class InconsistentJudgesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InconsistentJudgesError';
  }
}

export function compareFormulas(a: FormulaInput, b: FormulaInput, options: CompareOptions = {}): CompareResult {
  const ta = a instanceof LtlTree ? a : treeFromFormula(a);
  const tb = b instanceof LtlTree ? b : treeFromFormula(b);

  // Random words first: cheap, and a disagreement there needs no translation.
  const atoms = [...new Set([...ta.atoms(), ...tb.atoms(), ...(options.atoms ?? [])])].sort();
  const batches = randomLassoBatches(atoms, { seed: options.seed, words: Math.max(200, options.words ?? 224), oneHot: options.oneHot });
  let wordsChecked = 0;
  for (const batch of batches) {
    const va = evaluateBatch(ta, batch);
    const vb = evaluateBatch(tb, batch);
    wordsChecked += batch.lanes;
    const diff = (va ^ vb) >>> 0;
    if (diff !== 0) {
      const lane = 31 - Math.clz32(diff & -diff);
      const lasso = unpackLane(batch, lane);
      return { verdict: 'different', method: 'random-words', witness: { lasso, a: ((va >>> lane) & 1) === 1, b: ((vb >>> lane) & 1) === 1 }, wordsChecked };
    }
  }

  const maxDepth = options.maxDepth ?? 2000;
  if (ta.depth() > maxDepth || tb.depth() > maxDepth) return { verdict: 'agree-on-words', method: 'random-words', wordsChecked, undecided: 'too-deep' };
  const fa = a instanceof LtlTree ? formulaFromTree(a) : a;
  const fb = b instanceof LtlTree ? formulaFromTree(b) : b;
  const deadline = performance.now() + (options.timeoutMs ?? 2000);
  const undecidedAfterWords = (reason: CompareResult['undecided']): CompareResult => ({ verdict: 'agree-on-words', method: 'random-words', wordsChecked, undecided: reason });

  // Parts first: most differences between a front end and its reference are local (one
  // conjunct written another way), and a small product is decided where the whole spec's is not.
  let partsDiffer = false;
  const parts = matchingParts(fa, fb);
  for (const [x, y] of parts) {
    const r = productsEmpty(x, y, deadline, options);
    if (r === 'empty') continue;
    if (typeof r === 'string') return undecidedAfterWords(r);
    // The part's lasso is no witness for the whole, but the evaluator must still agree with it.
    confirm(treeFromFormula(r.left), treeFromFormula(r.right), r.lasso, 'a part');
    partsDiffer = true;
    break;
  }
  if (!partsDiffer) return { verdict: 'equivalent', method: 'emptiness', wordsChecked, parts: parts.length };

  // A part differs, which the context may still mask: decide the whole, and let the evaluator
  // confirm the lasso the product yields.
  for (const [left, right, leftTree, rightTree, aSide] of [
    [fa, fb, ta, tb, true],
    [fb, fa, tb, ta, false],
  ] as const) {
    let lasso: Lasso | null;
    try {
      lasso = productLasso(left, right, deadline, options);
    } catch (err) {
      const reason = undecidedReason(err);
      if (reason) return undecidedAfterWords(reason);
      throw err;
    }
    if (lasso === null) continue;
    confirm(leftTree, rightTree, lasso, aSide ? 'a ∧ ¬b' : 'b ∧ ¬a');
    return { verdict: 'different', method: 'product-witness', witness: { lasso, a: aSide, b: !aSide }, wordsChecked };
  }
  return { verdict: 'equivalent', method: 'emptiness', wordsChecked, parts: 1 };
}

/** Throws unless the evaluator finds `left` true and `right` false on the translator's lasso. */
function confirm(left: LtlTree, right: LtlTree, lasso: Lasso, what: string): void {
  const l = evaluateLasso(left, lasso);
  const r = evaluateLasso(right, lasso);
  if (!l || r) {
    throw new InconsistentJudgesError(
      `the translator accepts ${formatLasso(lasso)} for ${what} (x ∧ ¬y), but the evaluator says x=${l}, y=${r}\n  x: ${printTree(left, 300)}\n  y: ${printTree(right, 300)}`,
    );
  }
}

/** An accepting lasso of x ∧ ¬y by our translator, or null when that product is empty. */
function productLasso(x: ltl.Formula, y: ltl.Formula, deadline: number, options: CompareOptions): Lasso | null {
  return acceptingLasso(translateLtlSymbolic(ltl.and(x, ltl.not(y)), new BddManager(), { deadline, simplify: options.simplify ?? false }));
}

function undecidedReason(err: unknown): CompareResult['undecided'] | undefined {
  if (err instanceof TimeoutError) return err.reason === 'size' ? 'size' : 'timeout';
  if (err instanceof RangeError) return 'too-deep';
  return undefined;
}

/** Both products of a pair empty, an accepting lasso of one, or why it was not decided. */
function productsEmpty(
  x: ltl.Formula,
  y: ltl.Formula,
  deadline: number,
  options: CompareOptions,
): 'empty' | { left: ltl.Formula; right: ltl.Formula; lasso: Lasso } | NonNullable<CompareResult['undecided']> {
  try {
    const xy = productLasso(x, y, deadline, options);
    if (xy) return { left: x, right: y, lasso: xy };
    const yx = productLasso(y, x, deadline, options);
    return yx ? { left: y, right: x, lasso: yx } : 'empty';
  } catch (err) {
    const reason = undecidedReason(err);
    if (reason) return reason;
    throw err;
  }
}

/**
 * Pairs of sub-formulas whose pairwise equivalence implies that of `a` and `b` (LTL equivalence
 * is a congruence). Conjunctions are compared as sets of conjuncts, `G(p ∧ q)` counting as
 * `G p ∧ G q`: conjuncts the two sides share (the same hash-consed formula) drop out, and the
 * rest are grouped by shared atoms, since conjunctions over disjoint atoms are equivalent when
 * their groups are. Otherwise equal operators pair their operands. Only src/ltl's constructors
 * (always-sound folds) are trusted for "the same formula".
 */
export function matchingParts(a: ltl.Formula, b: ltl.Formula): [ltl.Formula, ltl.Formula][] {
  const out: [ltl.Formula, ltl.Formula][] = [];
  const work: [ltl.Formula, ltl.Formula][] = [[a, b]];
  while (work.length > 0) {
    const [x, y] = work.pop()!;
    if (x === y) continue;
    const cx = ltl.conjuncts(x);
    const cy = ltl.conjuncts(y);
    if (cx.length > 1 || cy.length > 1) {
      const groups = groupByAtoms(cx, cy);
      const progress = groups.length > 1 || groups[0]?.[0] !== x || groups[0]?.[1] !== y;
      if (progress) {
        work.push(...groups);
        continue;
      }
    }
    if (x.kind === y.kind) {
      switch (x.kind) {
        case 'not':
        case 'X':
        case 'F':
        case 'G':
          work.push([x.arg, (y as typeof x).arg]);
          continue;
        case 'implies':
        case 'U':
        case 'W':
        case 'R':
        case 'M':
          work.push([x.left, (y as typeof x).left], [x.right, (y as typeof x).right]);
          continue;
      }
    }
    out.push([x, y]);
  }
  return out;
}

/** Conjuncts not shared by both sides, as one conjunction pair per group of connected atoms. */
function groupByAtoms(cx: readonly ltl.Formula[], cy: readonly ltl.Formula[]): [ltl.Formula, ltl.Formula][] {
  const inX = new Set(cx);
  const inY = new Set(cy);
  const onlyX = cx.filter((f) => !inY.has(f));
  const onlyY = cy.filter((f) => !inX.has(f));
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let c = k; c !== r; ) {
      const n = parent.get(c)!;
      parent.set(c, r);
      c = n;
    }
    return r;
  };
  const atomsOf = new Map<ltl.Formula, string[]>();
  for (const f of [...onlyX, ...onlyY]) {
    const names = [...ltl.atoms(f)];
    atomsOf.set(f, names);
    for (const n of names) if (!parent.has(n)) parent.set(n, n);
    for (const n of names.slice(1)) parent.set(find(n), find(names[0]));
  }
  const groups = new Map<string, [ltl.Formula[], ltl.Formula[]]>();
  const add = (f: ltl.Formula, side: 0 | 1) => {
    const names = atomsOf.get(f)!;
    const key = names.length === 0 ? '' : find(names[0]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = [[], []]));
    g[side].push(f);
  };
  for (const f of onlyX) add(f, 0);
  for (const f of onlyY) add(f, 1);
  return [...groups.values()].map(([xs, ys]) => [ltl.and(...xs), ltl.and(...ys)]);
}

/** Our formula for a tree, built with src/ltl's constructors (only their always-sound folds). */
export function formulaFromTree(tree: LtlTree): ltl.Formula {
  const live = tree.reachable();
  const out: ltl.Formula[] = new Array(tree.size);
  for (let i = 0; i <= tree.root; i++) {
    if (!live[i]) continue;
    const op = tree.op[i];
    const x = out[tree.left[i]];
    const y = isBinary(op) ? out[tree.right[i]] : ltl.TRUE;
    switch (op) {
      case Op.true:
        out[i] = ltl.TRUE;
        break;
      case Op.false:
        out[i] = ltl.FALSE;
        break;
      case Op.ap:
        out[i] = ltl.ap(tree.names[tree.left[i]]);
        break;
      case Op.not:
        out[i] = ltl.not(x);
        break;
      case Op.X:
        out[i] = ltl.X(x);
        break;
      case Op.F:
        out[i] = ltl.F(x);
        break;
      case Op.G:
        out[i] = ltl.G(x);
        break;
      case Op.and:
        out[i] = ltl.and(x, y);
        break;
      case Op.or:
        out[i] = ltl.or(x, y);
        break;
      case Op.implies:
        out[i] = ltl.implies(x, y);
        break;
      case Op.iff:
        out[i] = ltl.iff(x, y);
        break;
      case Op.xor:
        out[i] = ltl.xor(x, y);
        break;
      case Op.U:
        out[i] = ltl.U(x, y);
        break;
      case Op.W:
        out[i] = ltl.W(x, y);
        break;
      case Op.R:
        out[i] = ltl.R(x, y);
        break;
      case Op.M:
        out[i] = ltl.M(x, y);
        break;
    }
  }
  return out[tree.root];
}

/**
 * An accepting lasso of the automaton, or null when its language is empty: a path from an
 * initial state into a reachable SCC whose internal edges carry every acceptance set, then a
 * cycle through that SCC taking an edge of each set.
 */
export function acceptingLasso(aut: SymbolicTgba): Lasso | null {
  const { comp, count } = stronglyConnectedComponents(aut.stateCount, aut.initial, (s) => aut.edges[s].map((e) => e.to));
  const marks: Set<number>[] = Array.from({ length: count }, () => new Set());
  const internal = new Uint8Array(count);
  for (let s = 0; s < aut.stateCount; s++) {
    if (comp[s] < 0) continue;
    for (const e of aut.edges[s]) {
      if (comp[e.to] !== comp[s]) continue;
      internal[comp[s]] = 1;
      for (const m of e.marks) marks[comp[s]].add(m);
    }
  }
  let target = -1;
  for (let c = 0; c < count && target < 0; c++) if (internal[c] && marks[c].size === aut.accSets) target = c;
  if (target < 0) return null;

  const letter = (e: SymbolicEdge): Letter => {
    const assignment = aut.bdd.satisfyingAssignment(e.guard);
    if (!assignment) throw new Error('acceptingLasso: an edge with an unsatisfiable guard');
    return [...assignment].filter(([, v]) => v).map(([k]) => k).sort();
  };
  // Breadth-first from `from` to the first edge `goal` accepts, moving only inside `within`
  // (or anywhere, -1): the edges of the path, that edge last.
  const pathTo = (from: readonly number[], within: number, goal: (s: number, e: SymbolicEdge) => boolean): SymbolicEdge[] => {
    const parent = new Map<number, { s: number; e: SymbolicEdge } | null>(from.map((s) => [s, null]));
    const queue = [...from];
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      for (const e of aut.edges[s]) {
        if (within >= 0 && comp[e.to] !== within) continue;
        if (goal(s, e)) {
          const path = [e];
          for (let p = parent.get(s); p; p = parent.get(p.s)) path.push(p.e);
          return path.reverse();
        }
        if (!parent.has(e.to)) {
          parent.set(e.to, { s, e });
          queue.push(e.to);
        }
      }
    }
    throw new Error('acceptingLasso: no path where the SCC analysis promised one');
  };

  const starts = [...new Set(aut.initial)];
  const entryInitial = starts.find((s) => comp[s] === target);
  const prefix = entryInitial !== undefined ? [] : pathTo(starts, -1, (_, e) => comp[e.to] === target);
  const entry = entryInitial ?? prefix[prefix.length - 1].to;
  const cycle: SymbolicEdge[] = [];
  const covered = new Set<number>();
  let at = entry;
  for (let m = 0; m < aut.accSets; m++) {
    if (covered.has(m)) continue;
    for (const e of pathTo([at], target, (_, e) => e.marks.includes(m))) {
      cycle.push(e);
      for (const k of e.marks) covered.add(k);
      at = e.to;
    }
  }
  if (cycle.length === 0 || at !== entry) cycle.push(...pathTo([at], target, (_, e) => e.to === entry));
  return { prefix: prefix.map(letter), cycle: cycle.map(letter) };
}

/** A short one-line form of a formula for messages. */
export function shortFormula(f: FormulaInput, maxChars = 240): string {
  return printTree(f instanceof LtlTree ? f : treeFromFormula(f), maxChars);
}

/**
 * The message for a failed conformance check: file, both formulas (shortened) and, when there is
 * one, the lasso that tells them apart with each formula's truth value on it.
 */
export function formatFailure(
  file: string,
  ours: FormulaInput,
  theirs: FormulaInput,
  result: CompareResult,
  labels: readonly [string, string] = ['ours', 'reference'],
): string {
  const lines = [
    `${file}: ${result.verdict} (${result.method}${result.undecided ? `, products undecided: ${result.undecided}` : ''}, ${result.wordsChecked} random words)`,
    `  ${labels[0]}: ${shortFormula(ours)}`,
    `  ${labels[1]}: ${shortFormula(theirs)}`,
  ];
  if (result.witness) {
    lines.push(`  distinguishing lasso: ${formatLasso(result.witness.lasso)}`);
    lines.push(`  on it, ${labels[0]} is ${result.witness.a}, ${labels[1]} is ${result.witness.b}`);
  }
  return lines.join('\n');
}
