/**
 * Letter classes of a set of BDD guards: the coarsest partition of the alphabet on which every
 * guard is constant, and each guard as the list of classes it contains. Questions about unions
 * and inclusions of guards then become questions about short integer lists, which is what
 * quadratic passes over pairs of states (direct simulation) need: a TGBA of 30–50 states with 40
 * edges per state has a few hundred classes and one or two edges per state in each, while its
 * pair checks made millions of BDD unions. The classes are read off the guards' minterms, so
 * only for guards over a dozen variables or fewer.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from './bdd.js';

export interface LetterClasses {
  readonly count: number;
  /** The classes inside each guard passed in, ascending. */
  readonly classesOf: ReadonlyMap<BddNode, Int32Array>;
}

/**
 * Most variables the guards may mention for the classes to be read off their minterms. Past it
 * the caller works on the BDDs: refining {true} by each guard in turn (BDD conjunctions per class
 * and guard) cost more than the pair checks it was to save (Window2_aeb1d897: 445 classes over
 * 13 variables, 12–30 ms against 9 ms for the BDD checks).
 */
const MINTERM_VARIABLES = 12;

/** `undefined` when the guards mention more than MINTERM_VARIABLES variables or there are more than `maxClasses` classes. */
export function letterClasses(
  bdd: BddManager,
  guards: Iterable<BddNode>,
  maxClasses: number,
  poll: () => void = () => {},
): LetterClasses | undefined {
  const distinct = [...new Set(guards)];
  const support = supportOf(bdd, distinct);
  if (support.length > MINTERM_VARIABLES) return undefined;
  const minterms = mintermsOf(bdd, distinct, support, poll);
  // Classes are the distinct sets of guards a minterm lies in.
  const { ids, count } = refine(1 << support.length, minterms);
  if (count > maxClasses) return undefined;
  const seen = new Int32Array(count).fill(-1);
  const classesOf = new Map<BddNode, Int32Array>();
  distinct.forEach((g, j) => {
    const list: number[] = [];
    for (const m of minterms[j])
      if (seen[ids[m]] !== j) {
        seen[ids[m]] = j;
        list.push(ids[m]);
      }
    classesOf.set(g, Int32Array.from(list).sort());
  });
  return { count, classesOf };
}

/**
 * The coarsest partition of 0..size−1 that splits no set and is split by none: elements get the
 * same number iff they lie in the same sets. Numbers are 0..count−1 in order of first element.
 * Each set costs one pass over its own elements (no signatures are built).
 */
export function refine(size: number, sets: Iterable<ArrayLike<number>>): { ids: Int32Array; count: number } {
  const cls = new Int32Array(size);
  // Per class number handed out so far: the last set that moved some of its elements, and where.
  const movedBy: number[] = [-1];
  const movedTo: number[] = [0];
  let t = 0;
  for (const set of sets) {
    t++;
    for (let i = 0; i < set.length; i++) {
      const x = set[i];
      const c = cls[x];
      if (movedBy[c] !== t) {
        movedBy[c] = t;
        movedTo[c] = movedBy.length;
        movedBy.push(-1);
        movedTo.push(0);
      }
      cls[x] = movedTo[c];
    }
  }
  const renumber = new Map<number, number>();
  const ids = new Int32Array(size);
  for (let x = 0; x < size; x++) {
    let id = renumber.get(cls[x]);
    if (id === undefined) renumber.set(cls[x], (id = renumber.size));
    ids[x] = id;
  }
  return { ids, count: renumber.size };
}

/** The variables (levels, ascending) of the decision nodes below the guards. */
function supportOf(bdd: BddManager, roots: readonly BddNode[]): number[] {
  const seen = new Set<BddNode>();
  const vars = new Set<number>();
  const stack = roots.filter((r) => r > BDD_TRUE);
  while (stack.length > 0) {
    const u = stack.pop()!;
    if (seen.has(u)) continue;
    seen.add(u);
    vars.add(bdd.varOf(u));
    for (const c of [bdd.low(u), bdd.high(u)]) if (c > BDD_TRUE && !seen.has(c)) stack.push(c);
  }
  return [...vars].sort((a, b) => a - b);
}

/**
 * Each guard's minterms over `support` (bit i of a minterm is support[i]), from its nodes bottom
 * up as bitsets: a node's set is its low child's where its variable is 0, its high child's where 1.
 */
function mintermsOf(bdd: BddManager, guards: readonly BddNode[], support: readonly number[], poll: () => void): Int32Array[] {
  const size = 1 << support.length;
  const words = Math.max(1, size >>> 5);
  const full = size >= 32 ? 0xffffffff : (1 << size) - 1;
  const position = new Map(support.map((v, i) => [v, i]));
  // Bit i of a minterm's index is the value of support[i].
  const ones = support.map((_, i) => {
    const m = new Uint32Array(words);
    for (let x = 0; x < size; x++) if ((x >>> i) & 1) m[x >>> 5] |= 1 << (x & 31);
    return m;
  });
  const memo = new Map<BddNode, Uint32Array>();
  memo.set(BDD_FALSE, new Uint32Array(words));
  memo.set(BDD_TRUE, new Uint32Array(words).fill(full));
  const setOf = (root: BddNode): Uint32Array => {
    const hit = memo.get(root);
    if (hit) return hit;
    // Iterative post-order: guards of product automata can be deep.
    const stack = [root];
    while (stack.length > 0) {
      const u = stack[stack.length - 1];
      if (memo.has(u)) {
        stack.pop();
        continue;
      }
      const lo = memo.get(bdd.low(u));
      const hi = memo.get(bdd.high(u));
      if (lo === undefined || hi === undefined) {
        if (lo === undefined) stack.push(bdd.low(u));
        if (hi === undefined) stack.push(bdd.high(u));
        continue;
      }
      stack.pop();
      const m = ones[position.get(bdd.varOf(u))!];
      const out = new Uint32Array(words);
      for (let i = 0; i < words; i++) out[i] = (lo[i] & ~m[i]) | (hi[i] & m[i]);
      memo.set(u, out);
    }
    return memo.get(root)!;
  };
  return guards.map((g) => {
    poll();
    const set = setOf(g);
    const out: number[] = [];
    for (let i = 0; i < words; i++) {
      let w = set[i];
      while (w !== 0) {
        out.push((i << 5) | (31 - Math.clz32(w & -w)));
        w &= w - 1;
      }
    }
    return Int32Array.from(out);
  });
}
