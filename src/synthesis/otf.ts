/**
 * On-the-fly solving of the K-bounded counting game (game.ts).
 *
 * `solveBounded` explores every choice of both players from every position it reaches. When the
 * safety player has many choices (a dozen TSL signals the guarantees constrain only loosely,
 * thousands of input classes in a dual game), that explores tens of thousands of positions no
 * strategy needs. Here the safety player *commits* to one option per decision (one choice per
 * input class when it moves second, one input class when it moves first), and only the positions
 * that option leads to are explored. When a committed option turns out to lose (a successor is
 * found losing, or a counter would exceed K), the next best option is committed instead; a
 * decision with no option left makes the position losing, which propagates backwards the same
 * way. This is the local (on-the-fly) fixpoint algorithm for safety games:
 *
 * - a position marked losing is losing (the losing region is the least fixpoint, and a position
 *   is only marked once every option of one adversary move, or of its own move, is dead);
 * - when the exploration closes with the start position not losing, every explored position that
 *   is not losing is winning: its committed options lead only to such positions, so committing
 *   forever never exceeds K.
 *
 * Two things keep the explored part small. The losing region is an upset (a position above a
 * losing one loses too, as the winning region is a downset), so a successor above a known losing
 * position is dead without being explored. And positions are expanded depth-first, so a bad
 * commitment is refuted before its siblings' subtrees are explored. The result has the shape of
 * `solveBounded`'s: choices never evaluated have target `UNEXPLORED`, ones found above a losing
 * position `SUBSUMED`, and the first-mover leaves never looked at have no target array. The
 * extraction code reads it unchanged; an attractor counterstrategy (which needs the target of
 * every choice in a losing position) must come from `solveBounded`.
 */
import { activeOf, type LeafList, LosingSet, type MoveTable, positionKeyer, type SolvedGame } from './game.js';
import { sccs } from './ucw.js';

/** Target of a choice that was never evaluated. */
export const UNEXPLORED = -3;
/** Target of a choice whose successor lies above a position known to lose (never created). */
export const SUBSUMED = -4;

/**
 * How many more first-mover leaves are looked at after the first live one, in search of one whose
 * successors are all known already (leaves are built on demand, and there may be thousands).
 */
const LEAF_WINDOW = 8;

export function solveOnTheFly(table: MoveTable, K: number, requestedCap: number, tick: () => void): SolvedGame {
  const { ucw } = table;
  const n = ucw.stateCount;
  // Keep the position vectors within ~300 MB however large the automaton is (as solveBounded).
  const nodeCap = Math.min(requestedCap, Math.floor(300_000_000 / Math.max(64, n)));
  const secondSafety = table.secondIsSafety;
  const edgeFrom = Int32Array.from(ucw.edges, (e) => e.from);
  const edgeTo = Int32Array.from(ucw.edges, (e) => e.to);
  const edgeRej = Int8Array.from(ucw.edges, (e) => (e.rejecting ? 1 : 0));

  // A token in an SCC with rejecting edges can gain count; elsewhere it cannot. So successors are
  // ranked by their tokens in such SCCs first (counter + 1 each), and only then by their other
  // tokens: a move that violates a safety guarantee (its run leaves the waiting state for the
  // assumption-counting part) then ranks below one that keeps it.
  const component = sccs(
    n,
    ucw.out.map((es) => es.map((e) => ucw.edges[e].to)),
  );
  const countingComponent = new Set<number>();
  for (const e of ucw.edges) if (e.rejecting) countingComponent.add(component[e.from]);
  const tokenWeight = Int32Array.from({ length: n }, (_, q) => (countingComponent.has(component[q]) ? n + 1 : 0));

  const vectors: Int8Array[] = [];
  const index = new Map<string, number>();
  const targets: (Int32Array | undefined)[][] = [];
  const lists: LeafList[] = [];
  /** Second mover safe: the committed kept choice per leaf. First mover safe: the committed leaf. */
  const chosen: Int32Array[] = [];
  const chosenLeaf: number[] = [];
  /** First mover safe: leaves known to lose (a choice exceeds K or reaches a losing position). */
  const deadLeaves: Uint8Array[] = [];
  const preds: number[][] = [];
  /** Per node: its rank as a successor (see `weight`); lower is better for the safety player. */
  const weights: number[] = [];
  let losing = new Int32Array(1024);
  let lostCount = 0;
  const stack: number[] = [];
  let overflow = false;
  const keyOf = positionKeyer(n);
  const next = new Int8Array(n).fill(-1);
  const touched: number[] = [];

  /** The successor of position `f` under a choice's edges, into `next`; false if a counter exceeds K. */
  const step = (f: Int8Array, edges: readonly number[]): boolean => {
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i];
      const c = f[edgeFrom[e]] + edgeRej[e];
      if (c > K) return false;
      const to = edgeTo[e];
      if (next[to] < 0) touched.push(to);
      if (c > next[to]) next[to] = c;
    }
    return true;
  };
  const clear = () => {
    for (const q of touched) next[q] = -1;
    touched.length = 0;
  };
  const weight = () => {
    let w = 0;
    for (const q of touched) w += (next[q] + 1) * tokenWeight[q] + 1;
    return w;
  };

  // Successors above a known losing position are dead without being explored.
  const losingSet = new LosingSet();

  /** The node of the successor in `next` (created and stacked if new; −2 on overflow). */
  const insert = (key: string): number => {
    let id = index.get(key);
    if (id !== undefined) return id;
    id = vectors.length;
    if (id >= nodeCap) {
      overflow = true;
      return -2;
    }
    index.set(key, id);
    vectors.push(Int8Array.from(next));
    weights.push(weight());
    preds.push([]);
    chosenLeaf.push(-1);
    if (id >= losing.length) {
      const bigger = new Int32Array(losing.length * 2);
      bigger.set(losing);
      losing = bigger;
    }
    stack.push(id);
    return id;
  };
  const dead = (t: number) => t === -1 || t === SUBSUMED || (t >= 0 && losing[t] !== 0);

  /**
   * Evaluate choice k of a leaf from position f: its known target (stored in `ts`), or −1/SUBSUMED
   * (stored), or UNEXPLORED with the successor's weight in `freshWeight` (a new position: not
   * stored, since another path may create it before this choice is committed).
   */
  let freshWeight = 0;
  const evaluate = (f: Int8Array, edges: readonly number[], ts: Int32Array, k: number): number => {
    const known = ts[k];
    if (known !== UNEXPLORED) return known;
    if (!step(f, edges)) {
      clear();
      return (ts[k] = -1);
    }
    const id = index.get(keyOf(next, touched));
    if (id !== undefined) {
      clear();
      return (ts[k] = id);
    }
    if (losingSet.covers(next)) {
      clear();
      return (ts[k] = SUBSUMED);
    }
    freshWeight = weight();
    clear();
    return UNEXPLORED;
  };
  /** Create the successor of choice k (evaluated as UNEXPLORED) and store it; −2 on overflow. */
  const create = (f: Int8Array, edges: readonly number[], ts: Int32Array, k: number): number => {
    step(f, edges);
    const t = insert(keyOf(next, touched));
    clear();
    if (t >= 0) ts[k] = t;
    return t;
  };

  /**
   * Commit leaf `li` of `u` (second mover safe) to its best live choice: a known successor before
   * a new one (it adds nothing to explore and closes cycles), then the least weight, then the
   * earliest (the enumeration puts preferred options, self-updates, first). False if every
   * choice is dead.
   */
  const commitChoice = (u: number, li: number): boolean => {
    const f = vectors[u];
    const leaf = lists[u].at(li, tick);
    const ts = targets[u][li]!;
    let best = -1;
    let bestScore = Infinity;
    for (let k = 0; k < leaf.kept.length; k++) {
      const t = evaluate(f, leaf.choices[leaf.kept[k]].edges, ts, k);
      if (dead(t)) continue;
      const score = t === UNEXPLORED ? FRESH + freshWeight : weights[t];
      if (score < bestScore) {
        best = k;
        bestScore = score;
      }
    }
    if (best < 0) return false;
    let t = ts[best];
    if (t === UNEXPLORED) t = create(f, leaf.choices[leaf.kept[best]].edges, ts, best);
    if (t === -2) return true;
    chosen[u][li] = best;
    preds[t].push(u * 65536 + li);
    return true;
  };

  /**
   * Commit `u` (first mover safe) to a live leaf: leaves are built in order until one has only
   * known successors, or LEAF_WINDOW more after the first live one; among those, the fewest new
   * successors, then the least weight, then the earliest. False if every leaf is dead.
   */
  const commitLeaf = (u: number): boolean => {
    const f = vectors[u];
    const list = lists[u];
    const deadLeaf = deadLeaves[u];
    let best = -1;
    let bestFresh = Infinity;
    let bestWeight = Infinity;
    let window = LEAF_WINDOW;
    for (let li = 0; li < list.count && bestFresh > 0 && window >= 0; li++) {
      if (deadLeaf[li]) continue;
      // Polled per leaf even when the leaf is already built (then `at` does not poll): losing
      // positions re-commit their predecessors over and over (see markLosing).
      tick();
      const leaf = list.at(li, tick);
      const ts = (targets[u][li] ??= new Int32Array(leaf.kept.length).fill(UNEXPLORED));
      let fresh = 0;
      let total = 0;
      for (let k = 0; k < leaf.kept.length; k++) {
        const t = evaluate(f, leaf.choices[leaf.kept[k]].edges, ts, k);
        if (dead(t)) {
          deadLeaf[li] = 1;
          break;
        }
        if (t === UNEXPLORED) {
          fresh++;
          total += freshWeight;
        } else total += weights[t];
      }
      if (deadLeaf[li]) continue;
      if (best >= 0) window--;
      if (fresh < bestFresh || (fresh === bestFresh && total < bestWeight)) {
        best = li;
        bestFresh = fresh;
        bestWeight = total;
      }
    }
    if (best < 0) return false;
    const leaf = list.at(best, tick);
    const ts = targets[u][best]!;
    for (let k = 0; k < leaf.kept.length; k++)
      if (ts[k] === UNEXPLORED && create(f, leaf.choices[leaf.kept[k]].edges, ts, k) === -2) return true;
    chosenLeaf[u] = best;
    for (let k = 0; k < leaf.kept.length; k++) preds[ts[k]].push(u * 65536 + best);
    return true;
  };

  const markLosing = (start: number): void => {
    const work = [start];
    losing[start] = ++lostCount;
    while (work.length > 0) {
      // One loss can propagate through the whole game, re-committing every predecessor: the
      // propagation polls the clock like the main loop (ten `G(r ∧ aᵢ → F sᵢ)` assumptions ran
      // over a minute past a 10 s limit in here).
      tick();
      const v = work.pop()!;
      losingSet.add(vectors[v]);
      for (const code of preds[v]) {
        const p = Math.floor(code / 65536);
        const li = code % 65536;
        if (losing[p]) continue;
        // Only the committed option counts; entries left from earlier commitments are stale.
        if (secondSafety) {
          if (targets[p][li]![chosen[p][li]] !== v || commitChoice(p, li)) continue;
        } else {
          if (chosenLeaf[p] !== li) continue;
          deadLeaves[p][li] = 1;
          if (commitLeaf(p)) continue;
        }
        if (overflow) return;
        losing[p] = ++lostCount;
        work.push(p);
      }
    }
  };

  for (const q of ucw.initial) {
    next[q] = 0;
    touched.push(q);
  }
  insert(keyOf(next, touched));
  clear();
  while (stack.length > 0 && !overflow && !losing[0]) {
    const u = stack.pop()!;
    if (losing[u] || lists[u] !== undefined) continue;
    tick();
    // A position above a losing one loses (it may have been created before that one was found).
    if (losingSet.covers(vectors[u])) {
      markLosing(u);
      continue;
    }
    const list = table.leavesFor(activeOf(vectors[u]), tick);
    lists[u] = list;
    targets[u] = new Array<Int32Array | undefined>(list.count);
    let lost = false;
    if (secondSafety) {
      const leaves = list.all(tick);
      targets[u] = leaves.map((leaf) => new Int32Array(leaf.kept.length).fill(UNEXPLORED));
      chosen[u] = new Int32Array(leaves.length).fill(-1);
      for (let li = 0; li < leaves.length && !lost && !overflow; li++) lost = !commitChoice(u, li);
    } else {
      deadLeaves[u] = new Uint8Array(list.count);
      lost = !commitLeaf(u);
    }
    if (overflow) break;
    if (lost) markLosing(u);
  }
  const status = losing[0] ? 'lose' : overflow ? 'overflow' : 'win';
  // Positions never expanded (a lost game stops early) have no targets, as in solveBounded.
  const expanded = vectors.map((_, u) => (lists[u] === undefined ? undefined : targets[u]));
  return {
    status,
    K,
    table,
    vectors,
    targets: expanded,
    losingRank: losing.subarray(0, vectors.length),
    nodeCount: vectors.length,
    losingSet,
  };
}

/** Added to a new successor's weight, so that any known successor ranks before it. */
const FRESH = 1 << 30;
