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
import { translateLtlSymbolic } from '../../src/automata/translate.js';
import * as ltl from '../../src/ltl/formula.js';
import { acceptingLasso, mergeLassos } from './accepting-lasso.js';
import { atomGroups, differenceProduct, type ProductGroup } from './difference-product.js';
import { evaluateBatch, evaluateLasso, formatLasso, type Lasso, randomLassoBatches, unpackLane } from './lasso-eval.js';
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
  const judge: ProductJudge = { deadline, simplify: options.simplify ?? false, cache: new Map() };
  const undecidedAfterWords = (reason: CompareResult['undecided']): CompareResult => ({ verdict: 'agree-on-words', method: 'random-words', wordsChecked, undecided: reason });

  // Parts first: most differences between a front end and its reference are local (one
  // conjunct written another way), and a small product is decided where the whole spec's is not.
  const parts = matchingParts(fa, fb);
  const proven: [ltl.Formula, ltl.Formula][] = [];
  let partsDiffer = false;
  let undecided: CompareResult['undecided'];
  for (const [x, y] of parts) {
    const r = productsEmpty(x, y, judge);
    if (r === 'empty') proven.push([x, y]);
    else if (typeof r === 'string') undecided ??= r;
    else {
      // The part's lasso is no witness for the whole, but the evaluator must still agree with it.
      confirm(treeFromFormula(r.left), treeFromFormula(r.right), r.lasso, 'a part');
      partsDiffer = true;
    }
  }
  if (!partsDiffer) return undecided ? undecidedAfterWords(undecided) : { verdict: 'equivalent', method: 'emptiness', wordsChecked, parts: parts.length };
  // In b, the parts proven equivalent are now written as in a, so the products below cancel them.
  const fbAligned = substituteParts(fb, proven);

  // A part differs, which the context may still mask: decide the whole, and let the evaluator
  // confirm the lasso the product yields.
  for (const [left, right, leftTree, rightTree, aSide] of [
    [fa, fbAligned, ta, tb, true],
    [fbAligned, fa, tb, ta, false],
  ] as const) {
    let lasso: Lasso | null;
    try {
      lasso = differenceLasso(left, right, judge);
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

/** What the product checks of one comparison share: the deadline, and groups already decided. */
interface ProductJudge {
  readonly deadline: number;
  readonly simplify: boolean;
  /** A group's accepting lasso, or null when it is empty (groups recur across parts and sides). */
  readonly cache: Map<ltl.Formula, Lasso | null>;
}

/**
 * An accepting lasso of x ∧ ¬y, or null when it is empty, by our translator on the groups of
 * `differenceProduct` (empty as soon as one group is; otherwise their lassos merged).
 */
function differenceLasso(x: ltl.Formula, y: ltl.Formula, judge: ProductJudge): Lasso | null {
  const product = differenceProduct(x, y);
  if (product.empty) return null;
  const lassos: Lasso[] = [];
  for (const group of product.groups) {
    const key = ltl.and(...group.conjuncts);
    let w = judge.cache.get(key);
    if (w === undefined) judge.cache.set(key, (w = groupLasso(group, judge)));
    if (w === null) return null;
    lassos.push(w);
  }
  const merged = mergeLassos(lassos);
  if (merged === null) throw new TimeoutError('size');
  return merged;
}

/**
 * A lasso of a group's conjunction, or null when it is empty, found lazily: translate only some
 * conjuncts (the group's seeds first), and when their lasso violates others (by the evaluator) add
 * those and retry. An empty subset proves the whole group empty; a lasso of the subset that
 * satisfies every conjunct is a lasso of the group. Spec-sized groups are often decided with a
 * few of their conjuncts where the product of all of them is out of reach.
 */
function groupLasso(group: ProductGroup, judge: ProductJudge): Lasso | null {
  const trees = new Map<ltl.Formula, LtlTree>();
  const treeOf = (f: ltl.Formula) => {
    let t = trees.get(f);
    if (!t) trees.set(f, (t = treeFromFormula(f)));
    return t;
  };
  const chosen = new Set<ltl.Formula>(group.seeds.length > 0 ? group.seeds : group.conjuncts.slice(0, 1));
  for (;;) {
    const w = acceptingLasso(translateLtlSymbolic(ltl.and(...chosen), new BddManager(), { deadline: judge.deadline, simplify: judge.simplify }));
    if (w === null) return null;
    const violated = group.conjuncts.filter((c) => !chosen.has(c) && !evaluateLasso(treeOf(c), w));
    if (violated.length === 0) return w;
    // The smallest two at a time keeps the translated subset small (all at once is the full
    // product, the thing this avoids).
    violated.sort((p, q) => ltl.size(p) - ltl.size(q));
    for (const c of violated.slice(0, 2)) chosen.add(c);
  }
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
  judge: ProductJudge,
): 'empty' | { left: ltl.Formula; right: ltl.Formula; lasso: Lasso } | NonNullable<CompareResult['undecided']> {
  try {
    const xy = differenceLasso(x, y, judge);
    if (xy) return { left: x, right: y, lasso: xy };
    const yx = differenceLasso(y, x, judge);
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
      const groups = pairConjuncts(cx, cy);
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

/**
 * `f` with each part `y` of a proven pair [x, y] replaced by its equivalent `x` (sound: a
 * congruence), whether y is a node of f or its conjuncts all occur in one conjunction of f.
 */
export function substituteParts(f: ltl.Formula, pairs: readonly (readonly [ltl.Formula, ltl.Formula])[]): ltl.Formula {
  if (pairs.length === 0) return f;
  const whole = new Map<ltl.Formula, ltl.Formula>(pairs.map(([x, y]) => [y, x]));
  // By conjuncts too: `matchingParts` splits `G(p ∧ q)` into `G p ∧ G q`, which are not nodes of f.
  const groups = pairs.map(([x, y]) => ({ x, ys: ltl.conjuncts(y) })).filter((g) => g.ys.length > 0);
  return ltl.mapFormula(f, (node, rebuilt) => {
    const hit = whole.get(node) ?? whole.get(rebuilt);
    if (hit) return hit;
    if (groups.length === 0 || (rebuilt.kind !== 'and' && rebuilt.kind !== 'G')) return rebuilt;
    let cs = ltl.conjuncts(rebuilt);
    let changed = false;
    for (const g of groups) {
      const set = new Set(cs);
      if (!g.ys.every((y) => set.has(y))) continue;
      const drop = new Set(g.ys);
      cs = [...cs.filter((c) => !drop.has(c)), g.x];
      changed = true;
    }
    return changed ? ltl.and(...cs) : rebuilt;
  });
}

/**
 * The conjuncts not shared by both sides, paired: a conjunct alone of its operator on each side
 * (typically the `A → G` of a spec) with its counterpart, the rest as one conjunction pair per
 * group of connected atoms (conjunctions over disjoint atoms are equivalent when their groups
 * are). Each pairing is only a sufficient condition; a pair that differs sends the caller to the
 * whole formulas.
 */
function pairConjuncts(cx: readonly ltl.Formula[], cy: readonly ltl.Formula[]): [ltl.Formula, ltl.Formula][] {
  const inX = new Set(cx);
  const inY = new Set(cy);
  const onlyX = cx.filter((f) => !inY.has(f));
  const onlyY = cy.filter((f) => !inX.has(f));
  const kinds = (fs: readonly ltl.Formula[]) => {
    const m = new Map<string, ltl.Formula[]>();
    for (const f of fs) m.set(f.kind, [...(m.get(f.kind) ?? []), f]);
    return m;
  };
  const [kx, ky] = [kinds(onlyX), kinds(onlyY)];
  const out: [ltl.Formula, ltl.Formula][] = [];
  const paired = new Set<ltl.Formula>();
  for (const [kind, xs] of kx) {
    const ys = ky.get(kind);
    if (kind === 'ap' || kind === 'not' || xs.length !== 1 || ys?.length !== 1) continue;
    out.push([xs[0], ys[0]]);
    paired.add(xs[0]).add(ys[0]);
  }
  const restX = onlyX.filter((f) => !paired.has(f));
  const restY = onlyY.filter((f) => !paired.has(f));
  const sideX = new Set(restX);
  for (const group of atomGroups([...restX, ...restY])) {
    out.push([ltl.and(...group.filter((f) => sideX.has(f))), ltl.and(...group.filter((f) => !sideX.has(f)))]);
  }
  return out;
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
