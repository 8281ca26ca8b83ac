/**
 * Pending obligations and progress toward them, read off a solved primal game, for strategy
 * choice (extract.ts): which winning move makes progress, whether anything is pending at all,
 * and which output signals the pending obligations are about.
 *
 * The game's automaton is universal co-Büchi for φ (a Büchi automaton for ¬φ read universally).
 * A token in an SCC with rejecting edges is a run that has "guessed" that some guarantee's
 * eventuality is never met (`F p`, the right side of `U`): as long as such a token is alive, that
 * obligation is open. Such SCCs are the *obligations* here; one is met when its tokens are gone
 * while the automaton part (one guarantee with its assumptions) they belong to is still alive —
 * a part whose tokens all die had its assumptions broken (or a one-shot eventuality met, which
 * this cannot tell apart, so it is never counted as progress).
 *
 * Progress is a cooperative distance: per obligation, the fewest steps along winning moves (both
 * players' choices existential) after which it can be met without breaking an assumption. It is
 * 0 when the obligation is not open, and "unreachable" when no winning play meets it. Counters
 * are no measure of progress here: bounded synthesis charges a step only when the environment has
 * nothing left to do under its assumptions, so a step that asks for something the assumptions
 * promise later, or the first step of all, costs nothing even when the controller idles.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from '../automata/bdd.js';
import type { SolvedGame } from './game.js';
import type { Dimension } from './split.js';
import { sccs } from './ucw.js';

/**
 * Work budget for the distances (positions and moves visited, over all obligations): the
 * distances cost one backward search per obligation, and a game with hundreds of counting SCCs
 * and tens of thousands of positions would spend seconds on them. Beyond the budget the remaining
 * obligations count as making no difference (distance 0), which only weakens the preference.
 * Counted in work units, not time, so the controller is the same on every machine.
 */
const DISTANCE_WORK = 4_000_000;

/** The distance of an obligation that no winning play can meet (larger than any real one). */
const UNREACHABLE = 1 << 20;

export interface ProgressOracle {
  /** Whether a token of position `node` is in a counting SCC, i.e. some obligation is open. */
  pending(node: number): boolean;
  /** Sum over the obligations open at `node` of the steps until each can be met (see above). */
  distance(node: number): number;
  /** Indices of the output dimensions mentioned by the open obligations' automaton states. */
  concerned(node: number): ReadonlySet<number>;
  /** Whether no token is left (every part's assumptions were broken, or nothing is tracked). */
  empty(node: number): boolean;
}

export function progressOracle(game: SolvedGame, outputDims: readonly Dimension[]): ProgressOracle {
  const { ucw } = game.table;
  const n = ucw.stateCount;
  const component = sccs(
    n,
    ucw.out.map((es) => es.map((e) => ucw.edges[e].to)),
  );
  // Obligations: the SCCs with a rejecting edge inside, numbered densely.
  const obligationOfComponent = new Map<number, number>();
  for (const e of ucw.edges)
    if (e.rejecting && component[e.from] === component[e.to] && !obligationOfComponent.has(component[e.from]))
      obligationOfComponent.set(component[e.from], obligationOfComponent.size);
  const obligationOf = Int32Array.from({ length: n }, (_, q) => obligationOfComponent.get(component[q]) ?? -1);
  const obligations = obligationOfComponent.size;
  // Parts: weakly connected components of the automaton (one per guarantee of the union).
  const part = weakComponents(n, ucw.edges);
  const obligationPart = new Int32Array(obligations);
  for (let q = 0; q < n; q++) if (obligationOf[q] >= 0) obligationPart[obligationOf[q]] = part[q];

  const winning = (t: number) => t >= 0 && game.losingRank[t] === 0 && game.targets[t] !== undefined;

  // The graph of winning moves, reversed (compressed rows): predecessors of each position.
  let reverse: { start: Int32Array; preds: Int32Array } | undefined;
  const buildReverse = () => {
    const count = new Int32Array(game.nodeCount + 1);
    const edges: number[] = [];
    for (let v = 0; v < game.nodeCount; v++) {
      if (!winning(v)) continue;
      for (const ts of game.targets[v]!) {
        if (!ts) continue;
        for (const t of ts)
          if (winning(t)) {
            edges.push(v, t);
            count[t + 1]++;
          }
      }
    }
    for (let i = 0; i < game.nodeCount; i++) count[i + 1] += count[i];
    const fill = count.slice(0, game.nodeCount);
    const preds = new Int32Array(edges.length / 2);
    for (let i = 0; i < edges.length; i += 2) preds[fill[edges[i + 1]]++] = edges[i];
    return { start: count, preds };
  };

  // Per winning position: the obligations open there and the parts alive (computed once).
  let summary: { open: (readonly number[])[]; alive: (ReadonlySet<number>)[] } | undefined;
  const summarize = () => {
    const open: (readonly number[])[] = [];
    const alive: ReadonlySet<number>[] = [];
    for (let v = 0; v < game.nodeCount; v++) {
      const os = new Set<number>();
      const ps = new Set<number>();
      if (winning(v)) {
        const vec = game.vectors[v];
        for (let q = 0; q < n; q++)
          if (vec[q] >= 0) {
            ps.add(part[q]);
            if (obligationOf[q] >= 0) os.add(obligationOf[q]);
          }
      }
      open.push([...os]);
      alive.push(ps);
    }
    work += game.nodeCount * n;
    return { open, alive };
  };

  const distances: (Int32Array | undefined)[] = new Array(obligations);
  let work = 0;
  /** Backward breadth-first search from the positions where obligation `o` is met. */
  const distancesOf = (o: number): Int32Array | undefined => {
    if (distances[o]) return distances[o];
    // The first search also reads every position's tokens once (nodeCount × n).
    if (work > DISTANCE_WORK || (summary === undefined && game.nodeCount * n > DISTANCE_WORK)) return undefined;
    reverse ??= buildReverse();
    summary ??= summarize();
    const { start, preds } = reverse;
    const { open, alive } = summary;
    const dist = new Int32Array(game.nodeCount).fill(-1);
    const queue: number[] = [];
    for (let v = 0; v < game.nodeCount; v++) {
      if (!winning(v) || open[v].includes(o) || !alive[v].has(obligationPart[o])) continue;
      dist[v] = 0;
      queue.push(v);
    }
    work += game.nodeCount;
    for (let h = 0; h < queue.length; h++) {
      const t = queue[h];
      for (let i = start[t]; i < start[t + 1]; i++) {
        const p = preds[i];
        if (dist[p] >= 0 || !open[p].includes(o)) continue;
        dist[p] = dist[t] + 1;
        queue.push(p);
      }
      work += start[t + 1] - start[t];
    }
    distances[o] = dist;
    return dist;
  };

  // Output dimensions that each automaton state's guards mention.
  const dimOfVar = new Map<string, number>();
  outputDims.forEach((d, i) => {
    for (const v of d.vars) dimOfVar.set(v, i);
  });
  const mentionedBy: (ReadonlySet<number> | undefined)[] = new Array(n);
  const mentioned = (q: number): ReadonlySet<number> => {
    let dims = mentionedBy[q];
    if (!dims) {
      const found = new Set<number>();
      for (const ei of ucw.out[q]) supportDims(ucw.edges[ei].bdd, ucw.edges[ei].guard, dimOfVar, found);
      mentionedBy[q] = dims = found;
    }
    return dims;
  };

  return {
    pending(node) {
      const v = game.vectors[node];
      for (let q = 0; q < n; q++) if (v[q] >= 0 && obligationOf[q] >= 0) return true;
      return false;
    },
    distance(node) {
      const v = game.vectors[node];
      const seen = new Set<number>();
      let sum = 0;
      for (let q = 0; q < n; q++) {
        const o = obligationOf[q];
        if (v[q] < 0 || o < 0 || seen.has(o)) continue;
        seen.add(o);
        const dist = distancesOf(o);
        if (!dist) continue;
        sum += dist[node] >= 0 ? dist[node] : UNREACHABLE;
      }
      return sum;
    },
    concerned(node) {
      const v = game.vectors[node];
      const dims = new Set<number>();
      for (let q = 0; q < n; q++) if (v[q] >= 0 && obligationOf[q] >= 0) for (const d of mentioned(q)) dims.add(d);
      return dims;
    },
    empty(node) {
      return game.vectors[node].every((c) => c < 0);
    },
  };
}

function weakComponents(n: number, edges: readonly { readonly from: number; readonly to: number }[]): Int32Array {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const e of edges) {
    const a = find(e.from);
    const b = find(e.to);
    if (a !== b) parent[a] = b;
  }
  return Int32Array.from({ length: n }, (_, q) => find(q));
}

/** Adds the output dimensions of the variables a guard depends on. */
function supportDims(bdd: BddManager, guard: BddNode, dimOfVar: ReadonlyMap<string, number>, into: Set<number>): void {
  const seen = new Set<BddNode>();
  const stack = [guard];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === BDD_TRUE || node === BDD_FALSE || seen.has(node)) continue;
    seen.add(node);
    const d = dimOfVar.get(bdd.nodeVarName(node));
    if (d !== undefined) into.add(d);
    stack.push(bdd.low(node), bdd.high(node));
  }
}
