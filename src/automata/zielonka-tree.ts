/**
 * The Zielonka tree of a Muller condition, and the deterministic parity automaton it defines
 * (Casares, Colcombet and Fijalkow, "Optimal transformations of games and automata using Muller
 * conditions", ICALP 2021): how the parity-game route turns an Emerson–Lei condition over a
 * handful of marks into priorities.
 *
 * The condition is given as a predicate on sets of marks (bit masks over marks 0..m−1): a run is
 * accepting iff the set of marks it sees infinitely often is accepted. The root is labelled with
 * every mark; the children of a node labelled X are the maximal subsets of X whose acceptance
 * differs from X's. The automaton's states are the leaves. Reading a transition's marks M in leaf
 * ℓ, it finds the deepest ancestor n of ℓ whose label contains M, emits n's depth and moves to ℓ
 * if n = ℓ, else to the leftmost leaf of n's next child (cyclically) after the one above ℓ. The
 * least depth emitted infinitely often decides: accepting iff that node's label is accepted.
 * Under a root whose children are all leaves (generalized Büchi and co-Büchi), the step moves to
 * the next leaf that holds M instead, as a degeneralization counter skips every mark read at once.
 */

export interface ZielonkaTree {
  /** Number of marks the condition ranges over. */
  readonly marks: number;
  readonly rootAccepting: boolean;
  /** Largest depth of a node (the root has depth 0). */
  readonly maxDepth: number;
  readonly leafCount: number;
  /** From leaf `leaf` (0 = leftmost), reading the marks `marks` (bit mask). */
  step(leaf: number, marks: number): { readonly leaf: number; readonly depth: number };
  /** Whether a node at this depth is accepting (depths alternate from the root's status). */
  acceptingAt(depth: number): boolean;
}

/** Largest number of marks a tree is built for (children are found among all subsets). */
export const MAX_TREE_MARKS = 16;
/** Largest number of marks of a monotone condition (children found from the top, see below). */
export const MAX_MONOTONE_MARKS = 30;
/** Subsets a monotone condition's children may be searched among, per tree. */
const MONOTONE_SEARCH = 100_000;

/**
 * The Zielonka tree of `accepts` over `marks` marks, or undefined when it has more than
 * `maxNodes` nodes or more than MAX_TREE_MARKS marks.
 *
 * `monotone`: the caller knows that a superset of an accepted set is accepted (a positive Boolean
 * combination of `Inf` marks, e.g. generalized Büchi: every mark infinitely often). Then a
 * rejected node has no children (all its subsets are rejected), and an accepted node's children,
 * the maximal rejected subsets, are found by removing marks one at a time through accepted sets
 * only, so the tree is built for up to MAX_MONOTONE_MARKS marks: the 17 `G F` marks of SYNTCOMP's
 * full_arbiter_enc are a root and 17 leaves, where all 2^17 subsets were enumerated per node.
 * The tree is the same either way.
 */
export function zielonkaTree(marks: number, accepts: (set: number) => boolean, maxNodes = 10_000, monotone = false): ZielonkaTree | undefined {
  if (marks > (monotone ? MAX_MONOTONE_MARKS : MAX_TREE_MARKS)) return undefined;
  const memo = new Map<number, boolean>();
  const acc = (set: number) => {
    let r = memo.get(set);
    if (r === undefined) memo.set(set, (r = accepts(set)));
    return r;
  };
  const full = marks === 0 ? 0 : 2 ** marks - 1;
  const label: number[] = [];
  const accepting: boolean[] = [];
  const depth: number[] = [];
  const parent: number[] = [];
  const childIndex: number[] = [];
  const children: number[][] = [];
  const add = (set: number, d: number, p: number, index: number) => {
    label.push(set);
    accepting.push(acc(set));
    depth.push(d);
    parent.push(p);
    childIndex.push(index);
    children.push([]);
    return label.length - 1;
  };
  add(full, 0, -1, 0);
  for (let n = 0; n < label.length; n++) {
    if (label.length > maxNodes) return undefined;
    const x = label[n];
    const status = accepting[n];
    let subsets: number[] = [];
    if (monotone) {
      if (!status) continue;
      const found = acceptedDown(x, acc, MONOTONE_SEARCH);
      if (!found) return undefined;
      subsets = found;
    } else {
      for (let sub = (x - 1) & x; ; sub = (sub - 1) & x) {
        subsets.push(sub);
        if (sub === 0) break;
      }
      if (x === 0) subsets.length = 0;
    }
    // Largest first; among equal sizes the enumeration's order (descending as numbers).
    subsets.sort((a, b) => popcount(b) - popcount(a) || b - a);
    const kept: number[] = [];
    for (const y of subsets) {
      if (acc(y) === status) continue;
      if (kept.some((k) => (y & ~k) === 0)) continue;
      kept.push(y);
    }
    for (const y of kept) children[n].push(add(y, depth[n] + 1, n, children[n].length));
  }
  // Leaves left to right, and each node's leftmost leaf.
  const leaves: number[] = [];
  const leafOf = new Int32Array(label.length).fill(-1);
  const leftmost = new Int32Array(label.length);
  const visit = (n: number) => {
    if (children[n].length === 0) {
      leafOf[n] = leaves.length;
      leaves.push(n);
      leftmost[n] = leafOf[n];
      return;
    }
    for (const c of children[n]) visit(c);
    leftmost[n] = leftmost[children[n][0]];
  };
  visit(0);
  const maxDepth = Math.max(...depth);
  // A root whose children are all leaves (generalized Büchi, `Inf 0 ∧ … ∧ Inf k`, is one).
  const twoLevel = children[0].length > 0 && children[0].every((c) => children[c].length === 0);
  const cache = new Map<number, { leaf: number; depth: number }>();
  return {
    marks,
    rootAccepting: accepting[0],
    maxDepth,
    leafCount: leaves.length,
    acceptingAt: (d) => (d % 2 === 0 ? accepting[0] : !accepting[0]),
    step(leaf, set) {
      const key = leaf * 2 ** marks + set;
      const hit = cache.get(key);
      if (hit) return hit;
      let n = leaves[leaf];
      let below = -1;
      while ((set & ~label[n]) !== 0) {
        below = n;
        n = parent[n];
      }
      let result: { leaf: number; depth: number };
      if (below < 0) result = { leaf, depth: depth[n] };
      else {
        const siblings = children[n];
        let next = siblings[(childIndex[below] + 1) % siblings.length];
        if (n === 0 && twoLevel)
          // Skip the leaves that the marks just read leave too (the degeneralization counter
          // that jumps past every mark seen at once): the first leaf, cyclically after this one,
          // whose label holds the marks. Correct for a root over leaves: while the marks seen
          // infinitely often fit leaf j, every later jump lands no further than j and a leaf
          // holding the marks is never left, so the root's depth is read finitely often; if they
          // fit no leaf, no leaf is kept for good. Fewer (position, leaf) pairs are reachable:
          // full_arbiter_enc's 17 marks mostly come together.
          for (let t = 1; t < siblings.length; t++) {
            const c = siblings[(childIndex[below] + t) % siblings.length];
            if ((set & ~label[c]) === 0) {
              next = c;
              break;
            }
          }
        result = { leaf: leftmost[next], depth: depth[n] };
      }
      cache.set(key, result);
      return result;
    },
  };
}

/**
 * The rejected sets one mark short of an accepted subset of x reachable from x through accepted
 * sets (every maximal rejected subset of x is among them, for a monotone condition), or undefined
 * past `budget` subsets.
 */
function acceptedDown(x: number, acc: (set: number) => boolean, budget: number): number[] | undefined {
  const seen = new Set<number>([x]);
  const out: number[] = [];
  const queue = [x];
  for (let h = 0; h < queue.length; h++) {
    const y = queue[h];
    for (let rest = y; rest !== 0; rest &= rest - 1) {
      const z = y & ~(rest & -rest);
      if (seen.has(z)) continue;
      if (seen.size >= budget) return undefined;
      seen.add(z);
      if (acc(z)) queue.push(z);
      else out.push(z);
    }
  }
  return out;
}

function popcount(x: number): number {
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}
