/**
 * The K-bounded counting safety game (Schewe–Finkbeiner bounded synthesis, in the safety-game
 * form of Filiot–Jin–Raskin). A game position is a counter vector over the states of a universal
 * co-Büchi automaton: −1 = no run is there, c ≥ 0 = some run got there after c rejecting edges.
 * The safety player must keep every counter ≤ K forever. Smaller vectors are better for the
 * safety player (the winning region is a downset), which we use twice: among a player's own
 * choices only the minimal successors matter (the adversary: only the maximal ones), and a
 * strategy may move to any winning position that dominates the real one.
 *
 * Each step has a first and a second mover (Mealy: environment, then controller). The same code
 * solves the primal game (controller = safety player, automaton of ¬φ) and the dual one
 * (environment = safety player, automaton of φ). Positions are explored forward from the start;
 * losing positions are propagated backwards as soon as they are found, so a lost game stops early.
 */
import type { Cube } from '../game/mealy.js';
import { type Formula, TRUE } from '../ltl/formula.js';
import { Bdd, type Node, ONE, ZERO } from './bdd.js';
import { type Dimension, indexMover, type MoverIndex, type SplitPart, splitGuards } from './split.js';
import type { Ucw } from './ucw.js';

export interface Mover {
  readonly dims: readonly Dimension[];
  /** Merge equivalent options (fine for the safety player, and for single booleans always). */
  readonly merge: boolean;
}

export interface Choice {
  /** The second mover's part (its residual holds just the enabled edges, see movesFor). */
  readonly part: SplitPart;
  /** Enabled automaton edges (sorted indices into ucw.edges). A plain array: there are millions. */
  readonly edges: readonly number[];
  /** Index of the choice that stands for this one after dominance pruning (itself if kept). */
  readonly rep: number;
}
export interface Leaf {
  readonly part: SplitPart;
  readonly choices: readonly Choice[];
  /** Indices of kept choices (rep === own index). */
  readonly kept: readonly number[];
  /** Second-mover parts cut off because they enter a rejecting sink (they lose at every bound). */
  readonly fatal: readonly SplitPart[];
}

/** Move structure per set of active automaton states; independent of K, so shared across K. */
export class MoveTable {
  private readonly cache = new Map<string, LeafList>();
  private readonly excludedCache = new Map<string, SplitPart[]>();
  constructor(
    readonly ucw: Ucw,
    readonly first: Mover,
    readonly second: Mover,
    /** Whether the second mover is the safety player (it then keeps minimal edge sets). */
    readonly secondIsSafety: boolean,
    /**
     * A condition on the first mover's propositions that every move must satisfy (an invariant
     * assumption `G ψ` over inputs: the environment never breaks it, since breaking it would
     * forfeit the game). Moves violating it are left out of the game.
     */
    readonly firstFilter: Formula = TRUE,
    /**
     * Skip dominated second moves while enumerating (default): only the safety player's minimal
     * ones, or the adversary's maximal ones (with equivalent options merged). The game's answer is
     * the same, as solving only ever uses undominated choices; but a counterstrategy read off the
     * game must answer *every* controller output, so its extraction asks for all.
     */
    readonly minimalChoicesOnly = true,
  ) {
    // First mover's propositions first: splitting on them walks down the diagrams.
    const names = (m: Mover) => m.dims.flatMap((d) => d.vars);
    this.bdd = new Bdd([...names(first), ...names(second)]);
    this.firstIndex = indexMover(this.bdd, first.dims);
    this.secondIndex = indexMover(this.bdd, second.dims);
    this.guards = ucw.edges.map((e) => this.bdd.fromForeign(e.bdd, e.guard));
    this.filter = this.bdd.fromFormula(firstFilter);
    const firstDims = dimensionsOf(this.firstIndex);
    const secondDims = dimensionsOf(this.secondIndex);
    this.doomedStates = ucw.out.map((es, q) => this.doomed(es.filter((i) => ucw.edges[i].to === q && ucw.edges[i].rejecting), firstDims, secondDims));
    // Entering a doomed state loses at every bound, so the safety player's moves that force such
    // an edge are cut off while splitting (LedMatrix: 900 minimal controller moves per input
    // class without this, most of them violating a guarantee under the GF assumption).
    this.fatalEdge = ucw.edges.map((e) => this.doomedStates[e.to]);
  }
  /**
   * Whether a token in a state with these rejecting self-loops loses at every bound: the adversary
   * can enable one of them in every step whatever the safety player does, so the token stays and
   * its counter grows without end (e.g. the state "guarantee violated, waiting for the assumption
   * GF a to fail": its self-loops are `a` rejecting and `¬a` not). A step is adversary first then
   * safety player, or the reverse; the filter restricts the first mover's moves.
   */
  private doomed(selfLoops: readonly number[], firstDims: MoverDimensions, secondDims: MoverDimensions): boolean {
    if (selfLoops.length === 0) return false;
    const loops = selfLoops.reduce((acc, i) => this.bdd.or(acc, this.guards[i]), ZERO);
    if (this.secondIsSafety) {
      // ∃ first (filter ∧ ∀ second loops)
      const forced = this.bdd.and(this.filter, this.bdd.quantify(loops, secondDims, false));
      return this.bdd.quantify(forced, firstDims, true) === ONE;
    }
    // ∀ first (filter → ∃ second loops)
    const answered = this.bdd.or(this.bdd.not(this.filter), this.bdd.quantify(loops, secondDims, true));
    return this.bdd.quantify(answered, firstDims, false) === ONE;
  }
  /** Second-mover choices enumerated so far (a deterministic measure of the table's work). */
  choicesBuilt = 0;
  /** Per automaton state: a token there loses at every bound (see `doomed`). */
  readonly doomedStates: readonly boolean[];
  private readonly bdd: Bdd;
  private readonly firstIndex: MoverIndex;
  private readonly secondIndex: MoverIndex;
  private readonly guards: readonly Node[];
  private readonly filter: Node;
  private readonly fatalEdge: readonly boolean[];

  /** The first-mover parts excluded by `firstFilter` in a position with these active states. */
  excludedFor(active: readonly number[], tick: () => void): SplitPart[] {
    this.movesFor(active, tick);
    return this.excludedCache.get(active.join(',')) ?? [];
  }

  get size(): number {
    return this.cache.size;
  }

  movesFor(active: readonly number[], tick: () => void): Leaf[] {
    return this.leavesFor(active, tick).all(tick);
  }

  /**
   * The leaves of a position with these active states, each computed on first use: a game in
   * which the first mover is the safety player commits to one live leaf and need not enumerate
   * the second mover's choices in the thousands of others (TwoCounters5: about 5,000 input
   * classes per position in the dual game).
   */
  leavesFor(active: readonly number[], tick: () => void): LeafList {
    const key = active.join(',');
    const hit = this.cache.get(key);
    if (hit) return hit;
    const edgeIds: number[] = [];
    for (const q of active) edgeIds.push(...this.ucw.out[q]);
    // Ascending, so each choice's enabled edges come out sorted without a sort per choice.
    edgeIds.sort((a, b) => a - b);
    // Splitting works on distinct guard nodes: product automata repeat the same guard on many
    // edges (4–5× on large corpus specs), and every split step costs one pass over the guards.
    const slotOf = new Map<Node, number>();
    const guards: Node[] = [];
    const fatal: boolean[] = [];
    const edgeSlot = edgeIds.map((i) => {
      const g = this.guards[i];
      let slot = slotOf.get(g);
      if (slot === undefined) {
        slot = guards.push(g) - 1;
        slotOf.set(g, slot);
        fatal.push(false);
      }
      // A guard shared with an edge into a doomed state is fatal for all its edges.
      if (this.fatalEdge[i]) fatal[slot] = true;
      return slot;
    });
    const filtered = this.filter !== ONE;
    const filterSlot = guards.length;
    if (filtered) {
      guards.push(this.filter);
      fatal.push(false);
    }
    const firstParts: SplitPart[] = [];
    const residuals: (readonly Node[])[] = [];
    const excluded: SplitPart[] = [];
    // The safety player's branches into a doomed state are cut off while splitting.
    const firstFatal = this.secondIsSafety ? undefined : fatal;
    const secondFatal = this.secondIsSafety ? fatal : undefined;
    for (const lp0 of splitGuards(this.bdd, guards, this.firstIndex, this.first.merge, tick, firstFatal)) {
      // Parts are kept without their residual guards: the cache holds every position's leaves.
      const lp = lp0.withoutResidual();
      let residual = lp0.residual;
      if (filtered) {
        if (residual[filterSlot] === ZERO) {
          excluded.push(lp);
          continue;
        }
        residual = residual.slice(0, filterSlot);
      }
      firstParts.push(lp);
      residuals.push(residual);
    }
    // The safety player as second mover only ever uses its minimal choices (extraction picks
    // among `kept`), so dominated ones need not be enumerated; the adversary's must all be, as
    // a counterstrategy answers every output.
    const skip = this.minimalChoicesOnly;
    const maximalOnly = skip && !this.secondIsSafety;
    // Each second-mover part keeps only its enabled edges (ascending, as edgeIds are).
    const enabledEdges = (atLeaf: readonly Node[]): number[] => {
      const on: number[] = [];
      for (let j = 0; j < edgeSlot.length; j++) {
        const g = atLeaf[edgeSlot[j]];
        if (g === ONE) on.push(edgeIds[j]);
        else if (g !== ZERO) throw new Error(`guard still open after splitting: proposition not declared?`);
      }
      return on;
    };
    const leafOf = (lp: SplitPart, residual: readonly Node[], tick: () => void): Leaf => {
      const fatalParts: SplitPart[] = [];
      const parts = splitGuards(
        this.bdd,
        residual,
        this.secondIndex,
        this.second.merge || maximalOnly,
        tick,
        secondFatal,
        fatalParts,
        this.secondIsSafety && skip,
        maximalOnly,
        enabledEdges,
      );
      const edgeSets = parts.map((p) => p.residual);
      const reps = dominance(edgeSets, this.secondIsSafety);
      const choices: Choice[] = [];
      const kept: number[] = [];
      for (let i = 0; i < parts.length; i++) {
        choices.push({ part: parts[i], edges: edgeSets[i], rep: reps[i] });
        if (reps[i] === i) kept.push(i);
      }
      this.choicesBuilt += parts.length;
      return { part: lp, choices, kept, fatal: fatalParts };
    };
    if (this.cache.size > 200_000) {
      this.cache.clear();
      this.excludedCache.clear();
    }
    const list = new LeafList(firstParts, residuals, leafOf);
    this.cache.set(key, list);
    this.excludedCache.set(key, excluded);
    return list;
  }
}

/** A position's leaves (see `MoveTable.leavesFor`); leaf i is the i-th first-mover part. */
export class LeafList {
  private readonly leaves: (Leaf | undefined)[];
  private built = 0;
  private complete: Leaf[] | undefined;
  constructor(
    private readonly parts: readonly SplitPart[],
    /** The guards under each part, dropped once its leaf is built. */
    private readonly residuals: (readonly Node[] | undefined)[],
    private readonly build: (part: SplitPart, residual: readonly Node[], tick: () => void) => Leaf,
  ) {
    this.leaves = new Array<Leaf | undefined>(parts.length);
  }
  get count(): number {
    return this.parts.length;
  }
  at(i: number, tick: () => void): Leaf {
    let leaf = this.leaves[i];
    if (leaf === undefined) {
      leaf = this.build(this.parts[i], this.residuals[i]!, tick);
      this.leaves[i] = leaf;
      this.residuals[i] = undefined;
      this.built++;
    }
    return leaf;
  }
  all(tick: () => void): Leaf[] {
    if (this.complete) return this.complete;
    if (this.built < this.parts.length) for (let i = 0; i < this.parts.length; i++) this.at(i, tick);
    this.complete = this.leaves as Leaf[];
    return this.complete;
  }
}

/** A mover's dimensions as `Bdd.quantify` takes them: each one's levels and option values. */
type MoverDimensions = readonly { readonly levels: readonly number[]; readonly values: readonly (readonly boolean[])[] }[];

function dimensionsOf(index: MoverIndex): MoverDimensions {
  return index.levels.map((levels, d) => ({ levels, values: index.values[d] }));
}

function subset(a: readonly number[], b: readonly number[]): boolean {
  if (a.length > b.length) return false;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    while (j < b.length && b[j] < a[i]) j++;
    if (j === b.length || b[j] !== a[i]) return false;
    j++;
  }
  return true;
}

/**
 * For each set, the index of a kept set that dominates it (minimal sets if `keepMinimal`, else
 * maximal). Sets are visited by size (stable, so earlier — preferred — choices win ties) and
 * compared only with the sets kept so far: a dominating set is never larger (smaller).
 */
function dominance(sets: readonly (readonly number[])[], keepMinimal: boolean): number[] {
  const order = sets.map((_, i) => i);
  order.sort((a, b) => (keepMinimal ? sets[a].length - sets[b].length : sets[b].length - sets[a].length));
  const rep = new Array<number>(sets.length);
  const kept: number[] = [];
  for (const i of order) {
    let r = i;
    for (const k of kept) {
      if (keepMinimal ? subset(sets[k], sets[i]) : subset(sets[i], sets[k])) {
        r = k;
        break;
      }
    }
    rep[i] = r;
    if (r === i) kept.push(i);
  }
  return rep;
}

/**
 * Losing positions as sparse (state, counter) lists. The losing region is an upset (the winning
 * region is a downset), so a position at or above a recorded one loses too and need not be
 * explored.
 */
export class LosingSet {
  private readonly states: Int32Array[] = [];
  private readonly counters: Int8Array[] = [];
  get size(): number {
    return this.states.length;
  }
  covers(v: Int8Array): boolean {
    for (let i = 0; i < this.states.length; i++) {
      const qs = this.states[i];
      const cs = this.counters[i];
      let all = true;
      for (let j = 0; j < qs.length; j++)
        if (v[qs[j]] < cs[j]) {
          all = false;
          break;
        }
      if (all) return true;
    }
    return false;
  }
  /** Record a losing position (one above a recorded position adds nothing). */
  add(v: Int8Array): void {
    if (this.covers(v)) return;
    const qs = activeOf(v);
    this.states.push(Int32Array.from(qs));
    this.counters.push(Int8Array.from(qs, (q) => v[q]));
  }
}

/** Work units per second-mover choice enumerated (≈ 6 µs, against ≈ 0.2 µs per edge followed). */
const CHOICE_WORK = 30;

export class Timeout extends Error {
  constructor() {
    super('timeout');
  }
}

export interface SolvedGame {
  readonly status: 'win' | 'lose' | 'overflow';
  readonly K: number;
  readonly table: MoveTable;
  readonly vectors: readonly Int8Array[];
  /**
   * Per expanded node: per leaf: target node of each kept choice (−1 = a counter exceeded K).
   * On-the-fly games (otf.ts) leave some unevaluated: other negative targets, and first-mover
   * leaves that were never built have no array.
   */
  readonly targets: readonly (readonly (Int32Array | undefined)[] | undefined)[];
  /** Order in which nodes were found losing (0 = winning or unknown); used by attractor strategies. */
  readonly losingRank: Int32Array;
  readonly nodeCount: number;
  /** Losing positions found (on-the-fly games), for solving the same game again faster. */
  readonly losingSet?: LosingSet;
}

export function activeOf(v: Int8Array): number[] {
  const out: number[] = [];
  for (let q = 0; q < v.length; q++) if (v[q] >= 0) out.push(q);
  return out;
}

export function dominatedBy(a: Int8Array, b: Int8Array): boolean {
  for (let q = 0; q < a.length; q++) if (a[q] > b[q]) return false;
  return true;
}

/**
 * Keys for positions, built from their active entries only (sparse): two UTF-16 units per active
 * entry, the state's low bits, then its high bits with the counter. `touched` lists the active
 * states (in any order; it is sorted in place when short); when many are active the vector is
 * scanned instead.
 */
export function positionKeyer(n: number): (v: Int8Array, touched: number[]) => string {
  const keyUnits = new Uint16Array(2 * n);
  return (v, touched) => {
    let m = 0;
    const put = (q: number) => {
      keyUnits[m++] = q & 0xffff;
      keyUnits[m++] = ((q >>> 16) << 8) | (v[q] & 0xff);
    };
    if (touched.length * 8 >= n) {
      for (let q = 0; q < n; q++) if (v[q] >= 0) put(q);
    } else {
      // Insertion sort: `touched` is short here, and the comparator call of sort() dominated.
      for (let i = 1; i < touched.length; i++) {
        const x = touched[i];
        let j = i - 1;
        while (j >= 0 && touched[j] > x) touched[j + 1] = touched[j--];
        touched[j + 1] = x;
      }
      for (const q of touched) put(q);
    }
    let key = '';
    // In chunks: `apply` passes each unit as an argument, and engines cap the argument count.
    for (let i = 0; i < m; i += 8192) key += String.fromCharCode.apply(null, keyUnits.subarray(i, Math.min(m, i + 8192)) as unknown as number[]);
    return key;
  };
}

/**
 * Explore and solve the K-bounded game. `tick` throws Timeout when the deadline passed. With a
 * `workCap`, the game stops with 'overflow' once its work passes the cap: choices enumerated
 * count CHOICE_WORK each, and every enabled edge followed to a successor counts one (about
 * 0.2 µs; a deterministic budget, so the outcome is the same on every machine).
 */
export function solveBounded(
  table: MoveTable,
  K: number,
  requestedCap: number,
  tick: () => void,
  workCap = Infinity,
  /**
   * Positions known to lose at this K (from an earlier solve of the same game): a new position
   * above one of them is marked losing without being explored. Positions this game finds losing
   * are added to it, so the losing parts are not explored again and again.
   */
  knownLosing?: LosingSet,
): SolvedGame {
  const { ucw } = table;
  const n = ucw.stateCount;
  // Keep the position vectors within ~300 MB however large the automaton is.
  const nodeCap = Math.min(requestedCap, Math.floor(300_000_000 / Math.max(64, n)));
  const secondSafety = table.secondIsSafety;
  const vectors: Int8Array[] = [];
  const index = new Map<string, number>();
  const targets: (Int32Array[] | undefined)[] = [];
  let losing = new Int32Array(1024);
  let lostCount = 0;
  const alive: (Int32Array | undefined)[] = [];
  const aliveLeaves: number[] = [];
  const preds: number[][] = [];
  const queue: number[] = [];
  let overflow = false;

  const keyOf = positionKeyer(n);
  const nodeOf = (v: Int8Array, touched: number[]): number => {
    const key = keyOf(v, touched);
    let id = index.get(key);
    if (id !== undefined) return id;
    v = Int8Array.from(v);
    id = vectors.length;
    if (id >= nodeCap) {
      overflow = true;
      return -2;
    }
    index.set(key, id);
    vectors.push(v);
    targets.push(undefined);
    alive.push(undefined);
    aliveLeaves.push(0);
    preds.push([]);
    if (id >= losing.length) {
      const bigger = new Int32Array(losing.length * 2);
      bigger.set(losing);
      losing = bigger;
    }
    if (knownLosing?.covers(v)) losing[id] = ++lostCount;
    else queue.push(id);
    return id;
  };

  const markLosing = (start: number): void => {
    const work = [start];
    losing[start] = ++lostCount;
    while (work.length > 0) {
      const v = work.pop()!;
      knownLosing?.add(vectors[v]);
      for (const code of preds[v]) {
        const p = Math.floor(code / 65536);
        const leaf = code % 65536;
        if (losing[p]) continue;
        if (secondSafety) {
          const a = alive[p]!;
          if (--a[leaf] === 0) {
            losing[p] = ++lostCount;
            work.push(p);
          }
        } else {
          const a = alive[p]!;
          if (a[leaf] === 1) {
            a[leaf] = 0;
            if (--aliveLeaves[p] === 0) {
              losing[p] = ++lostCount;
              work.push(p);
            }
          }
        }
      }
    }
  };

  const init = new Int8Array(n).fill(-1);
  for (const q of ucw.initial) init[q] = 0;
  nodeOf(init, [...ucw.initial]);
  const next = new Int8Array(n).fill(-1);
  const touched: number[] = [];
  const choicesBefore = table.choicesBuilt;
  let edgeWork = 0;
  for (let head = 0; head < queue.length; head++) {
    if (losing[0]) break;
    if ((table.choicesBuilt - choicesBefore) * CHOICE_WORK + edgeWork > workCap) {
      overflow = true;
      break;
    }
    const u = queue[head];
    if (losing[u]) continue;
    tick();
    const f = vectors[u];
    const leaves = table.movesFor(activeOf(f), tick);
    const perLeaf: Int32Array[] = [];
    const a = new Int32Array(leaves.length);
    let liveLeaves = 0;
    for (let li = 0; li < leaves.length; li++) {
      const leaf = leaves[li];
      const ts = new Int32Array(leaf.kept.length);
      let live = 0;
      let dead = false;
      for (let k = 0; k < leaf.kept.length; k++) {
        const edges = leaf.choices[leaf.kept[k]].edges;
        edgeWork += edges.length;
        let bad = false;
        for (let i = 0; i < edges.length; i++) {
          const e = ucw.edges[edges[i]];
          const c = f[e.from] + (e.rejecting ? 1 : 0);
          if (c > K) {
            bad = true;
            break;
          }
          if (next[e.to] < 0) touched.push(e.to);
          if (c > next[e.to]) next[e.to] = c;
        }
        let t = -1;
        if (!bad) t = nodeOf(next, touched);
        for (const q of touched) next[q] = -1;
        touched.length = 0;
        if (t === -2) break;
        ts[k] = t;
        if (t >= 0 && !losing[t]) {
          live++;
          preds[t].push(u * 65536 + li);
        } else dead = true;
      }
      if (overflow) break;
      perLeaf.push(ts);
      if (secondSafety) a[li] = live;
      else {
        a[li] = dead ? 0 : 1;
        if (!dead) liveLeaves++;
      }
    }
    if (overflow) break;
    targets[u] = perLeaf;
    alive[u] = a;
    aliveLeaves[u] = liveLeaves;
    const lost = secondSafety ? a.some((x) => x === 0) : liveLeaves === 0;
    if (lost) markLosing(u);
  }
  const status = losing[0] ? 'lose' : overflow ? 'overflow' : 'win';
  return {
    status,
    K,
    table,
    vectors,
    targets,
    losingRank: losing.subarray(0, vectors.length),
    nodeCount: vectors.length,
  };
}
