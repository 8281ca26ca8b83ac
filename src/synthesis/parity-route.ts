/**
 * The parity-game route: a spec in the fragment of components.ts is played as a parity game on
 * the product of its deterministic components, and solved with Zielonka's algorithm
 * (parity-game.ts). This is the route ltlsynt takes (deterministic automaton, parity game), except
 * that no determinization is needed: the product is deterministic by construction, and its
 * Emerson–Lei acceptance becomes priorities through Zielonka trees (src/automata/zielonka-tree.ts).
 *
 * Positions are tuples of component states. At each position the acceptance is first evaluated
 * on the atoms that are settled for good (a violated safety part, a satisfied co-safety part): if
 * that decides it, the position is a sink won by one side; components the remaining condition no
 * longer mentions are forgotten (their state no longer matters), which merges positions. What is
 * left, with the current values of the safety and co-safety atoms, is a condition over Büchi marks
 * only: its Zielonka tree's leaves are the memory of the parity game. Along a play the settled
 * atoms change finitely often, so the tree of the last condition decides the play; a change of
 * condition restarts at the new tree's first leaf with the least priority.
 *
 * Moves are enumerated symbolically as in the bounded engine (split.ts): at each position the
 * components' edge guards are split by the first mover's propositions into classes, and each class
 * by the second mover's; equivalent options are merged. A vertex of the first mover is (position,
 * leaf, priority of the edge that led there), one of the second mover (position, leaf, class).
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from '../automata/bdd.js';
import { zielonkaTree, type ZielonkaTree } from '../automata/zielonka-tree.js';
import type { Counterstrategy, CounterstrategyTransition } from '../game/counterstrategy.js';
import { dict, own } from '../../runtime/dict.js';
import { type Cube, cubeKey, type MealyMachine, type MealyTransition } from '../game/mealy.js';
import { exactlyOne, type GameSpec, inputNames, outputNames } from '../game/spec.js';
import { and } from '../ltl/formula.js';
import { componentsOf } from './components.js';
import { solveParityGame } from './parity-game.js';
import { Frontiers, pathCubes, preferredCube } from './partition.js';
import { completeCube, dimensionsFor } from './split.js';

export interface ParityRouteOptions {
  readonly tick: () => void;
  readonly controller: boolean;
  readonly counterstrategy: boolean;
  /** Largest number of game vertices before giving up (default 2,000,000). */
  readonly maxVertices?: number;
  /**
   * Largest number of first-mover moves at one position, and of BDD nodes made to find them,
   * before giving up (defaults `MAX_FIRST_MOVES`, `MAX_MOVE_NODES`).
   */
  readonly maxFirstMoves?: number;
  readonly maxMoveNodes?: number;
  readonly progress?: (msg: string) => void;
  /**
   * Take atoms outside the fragment through the Master Theorem (components.ts): every LTL
   * formula within its guess limits. Off by default: on the corpus's TSL-derived specs its games
   * cost more than the bounded engine's (docs/synthesis.md, "General LTL").
   */
  readonly general?: boolean;
}

export interface ParityRouteStats {
  readonly positions: number;
  readonly vertices: number;
  readonly components: number;
  /**
   * BDD nodes made for letters, steps and moves: the work of building the game, the same on
   * every machine (regression tests count it rather than time it).
   */
  readonly bddNodes: number;
}

export type ParityRouteResult =
  | { readonly verdict: 'realizable'; readonly controller?: MealyMachine; readonly stats: ParityRouteStats }
  | { readonly verdict: 'unrealizable'; readonly counterstrategy?: Counterstrategy; readonly stats: ParityRouteStats }
  /** The spec is outside the fragment, or its game is larger than the cap. */
  | { readonly verdict: 'unsupported'; readonly reason: string };

/** Names of the edge-code variables of `movesOf` (no proposition or obligation starts with NUL). */
const EDGE_BIT = '\u0000edge';

/** Sets of edges ascending, in the order of a refinement that puts the side inside edge j first. */
function insideFirst(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; ; i++) {
    if (i === a.length || i === b.length) return b.length - a.length;
    if (a[i] !== b[i]) return a[i] - b[i];
  }
}

/**
 * A position whose first mover has more move classes than this is a sign that the route is the
 * wrong tool: each class is a vertex with its own edges, and the classes come from the letters
 * (TwoCounters5: 19 inputs, 2,524 classes at the first position, 7,483 at a later one; the
 * bounded engine commits to one input class at a time and decides it in about a second). On
 * the specs the route decides no position had more than 257 (narylatch); TwoCountersDisButAC
 * (1,513) took the route 9 s and the bounded engine one.
 */
export const MAX_FIRST_MOVES = 512;
/**
 * BDD nodes one position's moves may make: on a sample of 120 specs the route decides, at most
 * 21,000 (TwoCountersDisButA6); TwoCounters5's first position made 1.3 million (2.5 s).
 */
export const MAX_MOVE_NODES = 400_000;

/**
 * Classes of letters one component's step may split into (by what its factors leave) on the
 * letters a position asks about: on a sample of 120 specs the route decides at most 257
 * (narylatch), while k independent invariants `G(xᵢ → X yᵢ)` over free outputs make 2^k, each a
 * distinct successor, and the product of such steps is then beyond any time slice.
 */
export const MAX_STEP_CLASSES = 4096;

/** Thrown when a position's moves or a step are beyond the bounds above; the route answers `unsupported`. */
class TooManyMoves extends Error {}

/** Bound on a vertex's priority or move index, the low part of its numeric key. */
const VERTEX_X_LIMIT = 2 ** 21;
/** Highest priority base: above every tree's depth (≤ MAX_MONOTONE_MARKS + 1). */
const PRIORITY_BASE = 40;
const SINK_WIN = 0;
const SINK_LOSE = 1;

/** An edge of a position: its successor and marks, and the letters (inputs and outputs) taking it. */
interface Edge {
  /** Successor position, or −1 / −2 for the sinks won by the controller / the environment. */
  readonly to: number;
  /** Components whose step is marked. */
  readonly marks: readonly number[];
  readonly guard: BddNode;
}
/**
 * A first-mover move: a class of the first mover's letters (`guard`) after which the second
 * mover can take exactly the edges `edges` (indices into the position's edges): for each of them,
 * every letter of the class has a completion taking it (ltlsynt's split of a state's edges).
 */
interface FirstMove {
  readonly guard: BddNode;
  readonly edges: readonly number[];
}
interface Position {
  readonly states: readonly number[];
  /** The remaining condition over Büchi atoms (a node of the acceptance manager). */
  readonly condition: BddNode;
  edges?: readonly Edge[];
  moves?: readonly FirstMove[];
  /** Each edge's marks as a set over the Zielonka tree's marks of this position's condition. */
  markSets?: Int32Array;
}

export function solveByParityGame(spec: GameSpec, options: ParityRouteOptions): ParityRouteResult {
  const { tick } = options;
  const progress = options.progress ?? (() => {});
  const maxVertices = options.maxVertices ?? 2_000_000;
  const mealy = spec.semantics === 'mealy';
  const inputs = inputNames(spec);
  const outputs = outputNames(spec);
  // The controller may be kept to one-hot TSL signal updates only when breaking one violates φ
  // outright, i.e. when no INITIALLY part could excuse it (as in the bounded engine's dual game).
  const enforce = spec.initially.length === 0;
  const outputDims = dimensionsFor(outputs, enforce ? spec.signals : []);
  const enforced = spec.signals.filter((g) => outputDims.some((d) => d.vars.length > 1 && d.vars[0] === g.updates[0]));
  const comps = componentsOf(spec, enforced, tick, options.general === true);
  if (!comps) return { verdict: 'unsupported', reason: 'a conjunct outside the fragment' };
  const { components, acceptanceBdd: acc } = comps;
  progress(`parity route: ${components.length} components (${components.map((c) => c.label).join(', ')})`);

  // Letters: the first mover's first (componentsOf orders them so), obligations below.
  const lbdd = comps.bdd;
  // A single conjunction of letter guards can take seconds: the BDD package polls the clock too.
  // …and counts the nodes one position's moves make (`movesOf`).
  let moveNodesEnd = Infinity;
  // Below 2^21 whatever the caller asks: a move's index is part of a vertex's numeric key (`vertex`).
  const maxFirstMoves = Math.min(options.maxFirstMoves ?? MAX_FIRST_MOVES, VERTEX_X_LIMIT - 1);
  const maxMoveNodes = options.maxMoveNodes ?? MAX_MOVE_NODES;
  lbdd.poll = () => {
    tick();
    if (lbdd.nodeCount > moveNodesEnd) throw new TooManyMoves(`a position's moves took more than ${maxMoveNodes} BDD nodes`);
  };
  const letterCount = inputs.length + outputs.length;
  const firstCount = mealy ? inputs.length : outputs.length;
  const letters = new Frontiers(lbdd, 0, letterCount, tick);
  const firstLetters = new Frontiers(lbdd, 0, firstCount, tick);
  // The controller's letters are one-hot on the signals it is kept to.
  const oneHot = lbdd.fromFormula(and(...enforced.map((g) => exactlyOne(g.updates))));
  // Cubes are keyed by the user's names (a proposition may be called __proto__): null-prototype records.
  const preferredOutputs: Cube = dict(enforced.flatMap((g): Array<[string, boolean]> => (g.selfUpdate === undefined ? [] : [[g.selfUpdate, true]])));
  /** A complete valuation of the first mover's letters inside a guard (preferred values). */
  const completeFirst = (guard: BddNode): Cube => {
    const cube = preferredCube(lbdd, guard, mealy ? dict() : preferredOutputs);
    const names = mealy ? inputs : outputs;
    return dict(names.map((n): [string, boolean] => [n, own(cube, n) ?? (mealy ? false : (own(preferredOutputs, n) ?? false))]));
  };

  /** A component's step from a state: letters partitioned by successor and mark. */
  const stepMemo = new Map<string, Array<{ guard: BddNode; to: number; mark: boolean }>>();
  const stepsOf = (k: number, state: number, within: BddNode = oneHot) => {
    const key = `${k}:${state}:${within}`;
    const hit = stepMemo.get(key);
    if (hit) return hit;
    const groups = components[k].groups(state).map((factors) => {
      // The letters some factor rejects outright (its residual is `false`) lead to `false`
      // whatever the others leave: they are one class, set aside before the others are split.
      // Split with them, a list of invariants `G(xᵢ → X ψᵢ)` beside a rule that allows one xᵢ at
      // a time (a TSL cell's updates, one-hot) made a class per subset of the xᵢ before the rule
      // came up and emptied all but a few: 2^17 classes in Automata16S's first step, seconds of
      // BDD operations, where the live letters give 3.
      let live = within;
      for (const f of factors) {
        const dead = letters.of(f).get(BDD_FALSE);
        if (dead !== undefined) live = lbdd.and(live, lbdd.not(dead));
        if (live === BDD_FALSE) break;
      }
      // The live letters by what the factors leave (conjoined so far): a class per distinct conjunction.
      let classes = new Map<BddNode, BddNode>(live === BDD_FALSE ? [] : [[BDD_TRUE, live]]);
      for (const f of live === BDD_FALSE ? [] : factors) {
        const next = new Map<BddNode, BddNode>();
        for (const [acc, guard] of classes)
          for (const [r, g] of letters.of(f)) {
            if (r === BDD_FALSE) continue;
            const both = lbdd.and(guard, g);
            if (both === BDD_FALSE) continue;
            const rest = lbdd.and(acc, r);
            const prev = next.get(rest);
            next.set(rest, prev === undefined ? both : lbdd.or(prev, both));
          }
        classes = next;
        if (classes.size > MAX_STEP_CLASSES) throw new TooManyMoves(`a component's step with more than ${MAX_STEP_CLASSES} classes of letters`);
        tick();
      }
      const dead = lbdd.and(within, lbdd.not(live));
      if (dead !== BDD_FALSE) classes.set(BDD_FALSE, lbdd.or(classes.get(BDD_FALSE) ?? BDD_FALSE, dead));
      return [...classes];
    });
    let product: Array<{ guard: BddNode; values: BddNode[] }> = [{ guard: BDD_TRUE, values: [] }];
    for (const g of groups) {
      const next: typeof product = [];
      for (const p of product)
        for (const [value, guard] of g) {
          tick();
          const both = lbdd.and(p.guard, guard);
          if (both !== BDD_FALSE) next.push({ guard: both, values: [...p.values, value] });
        }
      product = next;
      if (product.length > MAX_STEP_CLASSES) throw new TooManyMoves(`a component's step with more than ${MAX_STEP_CLASSES} classes of letters`);
    }
    const bySuccessor = new Map<string, { guard: BddNode; to: number; mark: boolean }>();
    for (const p of product) {
      tick();
      const step = components[k].successor(state, p.values);
      const key = `${step.to}${step.mark ? '*' : ''}`;
      const same = bySuccessor.get(key);
      if (same) same.guard = lbdd.or(same.guard, p.guard);
      else bySuccessor.set(key, { guard: p.guard, to: step.to, mark: step.mark });
    }
    const steps = [...bySuccessor.values()];
    stepMemo.set(key, steps);
    return steps;
  };

  // Positions.
  const positions: Position[] = [];
  const positionIds = new Map<string, number>();
  const restrictMemo = new Map<string, BddNode>();
  const restricted = (f: BddNode, values: Int8Array, key: string): BddNode => {
    const k = `${f}|${key}`;
    let r = restrictMemo.get(k);
    if (r === undefined) restrictMemo.set(k, (r = restrict(acc, f, values)));
    return r;
  };
  /** A condition with atom k's value fixed. */
  const fixMemo = new Map<number, BddNode>();
  const fix = (f: BddNode, k: number, value: boolean): BddNode => {
    if (f <= 1) return f;
    // A number (node ids stay below 2^26): a string key per call was a tenth of positionOf.
    const key = (f * components.length + k) * 2 + (value ? 1 : 0);
    let r = fixMemo.get(key);
    if (r === undefined) {
      const values = new Int8Array(components.length);
      values[k] = value ? 1 : -1;
      fixMemo.set(key, (r = restrict(acc, f, values)));
    }
    return r;
  };
  /**
   * The order in which a tuple's components are settled and forgotten, in positionOf and in
   * edgesOf alike (one fixed order: see positionOf): safety parts first, then co-safety parts,
   * then Büchi components. A safety part is allowed or violated, and a violated one (a one-hot
   * rule, an invariant) often leaves the rest of the condition without the components that have
   * hundreds of steps, which are then never split. (Ordered by their number of steps from the
   * initial state instead, workstation_resupply_pb_4's game had 971 positions instead of 605.)
   */
  const rank = { safety: 0, cosafety: 1, buchi: 2 } as const;
  const order = components.map((c, k) => ({ k, n: rank[c.kind] })).sort((a, b) => a.n - b.n || a.k - b.k).map((x) => x.k);
  /**
   * The position of a tuple of states (after settling and forgetting), or a sink. In `order`, a
   * component the condition (with the atoms settled so far fixed) no longer mentions is
   * forgotten, settled or not; one it mentions whose atom is settled fixes it. The condition is
   * then the acceptance with *every* settled atom fixed, forgotten ones included (each was
   * irrelevant once the atoms before it were fixed, and fixing more atoms keeps it so), and
   * forgotten components stay out of every later condition, whose atoms only get more settled.
   * Last, components with atoms still open that the final condition does not mention are
   * forgotten too.
   */
  const positionOf = (states: number[]): number => {
    let settled = comps.acceptance;
    for (const k of order) {
      if (states[k] < 0) continue;
      if (settled <= 1 || !supportOf(acc, settled).has(k)) {
        states[k] = -1;
        continue;
      }
      const v = components[k].permanent(states[k]);
      if (v !== undefined) settled = fix(settled, k, v);
    }
    if (settled === BDD_TRUE) return -1 - SINK_WIN;
    if (settled === BDD_FALSE) return -1 - SINK_LOSE;
    const support = supportOf(acc, settled);
    const current = new Int8Array(components.length);
    for (let k = 0; k < components.length; k++) {
      if (states[k] < 0) continue;
      if (!support.has(k)) {
        if (components[k].permanent(states[k]) === undefined) states[k] = -1;
        continue;
      }
      const v = components[k].current(states[k]);
      if (v !== undefined) current[k] = v ? 1 : -1;
    }
    const key = states.join(',');
    let id = positionIds.get(key);
    if (id === undefined) {
      id = positions.length;
      positionIds.set(key, id);
      positions.push({ states, condition: restricted(settled, current, current.join('')) });
    }
    return id;
  };

  // Zielonka trees per remaining condition.
  const trees = new Map<BddNode, { tree: ZielonkaTree; marks: number[] } | undefined>();
  const treeOf = (condition: BddNode) => {
    if (trees.has(condition)) return trees.get(condition);
    const marks = [...supportOf(acc, condition)].sort((a, b) => a - b);
    const tree = zielonkaTree(
      marks.length,
      (set) => {
        tick();
        return acc.evaluate(condition, (name) => (set & (1 << marks.indexOf(Number(name)))) !== 0);
      },
      undefined,
      isMonotone(acc, condition),
    );
    const entry = tree ? { tree, marks } : undefined;
    trees.set(condition, entry);
    return entry;
  };

  /**
   * A position's edges: every letter (within the one-hot signals) by successor and marks. The
   * letters are split component by component in `order`, and each class carries the acceptance
   * with the atoms its successors settle fixed, as positionOf will: a class whose condition is
   * already decided goes to a sink without further splits, and a component its condition no
   * longer mentions is forgotten rather than split by. SYNTCOMP's ltl_f specs (finding_nemo,
   * workstation_resupply) have a co-safety part with 450 steps per state beside a one-hot rule
   * whose violation takes that part out of the condition: split by it first, a thousand classes
   * per position merged into forty only by positionOf.
   */
  const edgesOf = (p: number): readonly Edge[] => {
    const pos = positions[p];
    if (pos.edges) return pos.edges;
    // A class is its letters, the acceptance with the atoms its successors settle fixed, and the
    // step that split it off its parent: the successors and marks are read off that chain once,
    // for the classes left at the end (copying them at every split was a tenth of
    // full_arbiter_enc's game construction).
    interface Split {
      guard: BddNode;
      /** The acceptance with the atoms settled by the successors so far fixed. */
      readonly settled: BddNode;
      readonly parent?: Split;
      readonly component: number;
      readonly to: number;
      readonly mark: boolean;
    }
    let classes: Split[] = [{ guard: oneHot, settled: comps.acceptance, component: -1, to: -1, mark: false }];
    for (const k of order) {
      const state = pos.states[k];
      if (state < 0) continue;
      const splits = (c: Split) => c.settled > 1 && supportOf(acc, c.settled).has(k);
      // The component's steps on the letters of the classes it splits only: the components
      // before it in `order` have often cut those down to a few (finding_nemo_pb_4's co-safety
      // part has up to 7,682 steps on all letters).
      let within = BDD_FALSE;
      for (const c of classes) if (splits(c)) within = lbdd.or(within, c.guard);
      const steps = within === BDD_FALSE ? [] : stepsOf(k, state, within);
      // A class is split by this component's steps into one class per (step target, mark): the
      // classes so far are distinct, so (class index, target, mark) is a key (a number: string
      // keys of every component's choices were a tenth of full_arbiter_enc's game construction).
      // A class the component does not split stays as it is.
      const merged = new Map<number, Split>();
      const next: Split[] = [];
      for (let ci = 0; ci < classes.length; ci++) {
        const c = classes[ci];
        if (!splits(c)) {
          next.push(c);
          continue;
        }
        for (const step of steps) {
          // Polled per class: a product of many components has thousands of classes per step.
          tick();
          const guard = lbdd.and(c.guard, step.guard);
          if (guard === BDD_FALSE) continue;
          const key = (ci * 2 ** 31 + step.to) * 2 + (step.mark ? 1 : 0);
          const same = merged.get(key);
          if (same) {
            same.guard = lbdd.or(same.guard, guard);
            continue;
          }
          const v = components[k].permanent(step.to);
          const split: Split = { guard, settled: v === undefined ? c.settled : fix(c.settled, k, v), parent: c, component: k, to: step.to, mark: step.mark };
          merged.set(key, split);
          next.push(split);
        }
      }
      classes = next;
      tick();
    }
    const byTarget = new Map<string, { to: number; marks: number[]; guard: BddNode }>();
    for (const c of classes) {
      tick();
      const successors = pos.states.map(() => -1);
      const marked: number[] = [];
      for (let link: Split | undefined = c; link?.parent; link = link.parent) {
        successors[link.component] = link.to;
        if (link.mark) marked.push(link.component);
      }
      // positionOf forgets components (−1) in `successors`: their marks go with them.
      const to = positionOf(successors);
      const marks = to < 0 ? [] : marked.filter((k) => successors[k] >= 0).sort((a, b) => a - b);
      const key = `${to}:${marks.join(',')}`;
      const same = byTarget.get(key);
      if (same) same.guard = lbdd.or(same.guard, c.guard);
      else byTarget.set(key, { to, marks, guard: c.guard });
    }
    pos.edges = [...byTarget.values()];
    return pos.edges;
  };

  /**
   * A position's first-mover moves: the classes of letters after which the same edges are open.
   * The classes are read off one BDD, the edges' guards each tagged with its index in binary
   * below every letter: the first mover's letters that leave the same residual (the same second
   * letters to the same edges) are one class, and classes with the same open edges merge. Refining
   * the letters edge by edge instead costs (classes × edges) BDD operations per position: 256
   * edges and 257 classes at each of narylatch's 257 positions, more than 10 s where this takes a
   * fraction of one.
   */
  const movesOf = (p: number): readonly FirstMove[] => {
    const pos = positions[p];
    if (pos.moves) return pos.moves;
    const edges = edgesOf(p);
    const bits = Math.max(1, Math.ceil(Math.log2(edges.length)));
    const byOpen = new Map<string, { guard: BddNode; edges: number[] }>();
    moveNodesEnd = lbdd.nodeCount + maxMoveNodes;
    try {
      // Each guard with the second mover's letters quantified away first: a first-mover letter
      // opens edge j iff some second letter completes it to the edge's guard, and the tagged
      // BDD then has the codes right below the first mover's letters, not below the second's
      // too (IntendDemo's positions: 200 edges over 30 letters, a third of the nodes).
      // Joined pairwise (a balanced tree of ∨): one growing disjunction would be rebuilt per edge.
      let tagged = edges.map((e, j) => lbdd.and(existsSecond(e.guard), edgeCode(j, bits)));
      while (tagged.length > 1) tagged = Array.from({ length: Math.ceil(tagged.length / 2) }, (_, i) => (2 * i + 1 < tagged.length ? lbdd.or(tagged[2 * i], tagged[2 * i + 1]) : tagged[2 * i]));
      for (const [residual, guard] of firstLetters.of(tagged[0] ?? BDD_FALSE)) {
        tick();
        const open = codesOf(residual, bits);
        if (open.length === 0) continue;
        const key = open.join(',');
        const same = byOpen.get(key);
        if (same) same.guard = lbdd.or(same.guard, guard);
        else if (byOpen.size === maxFirstMoves) throw new TooManyMoves(`a position with more than ${maxFirstMoves} first-mover moves`);
        else byOpen.set(key, { guard, edges: open });
      }
    } finally {
      moveNodesEnd = Infinity;
    }
    // The order of a refinement edge by edge (letters that open edge j before those that do not,
    // for j = 0, 1, …), which the strategies read off the game depend on.
    pos.moves = [...byOpen.values()].sort((a, b) => insideFirst(a.edges, b.edges));
    return pos.moves;
  };
  /**
   * Edge j's index in binary, on variables below the letters. Bit k is made before bit k + 1
   * (`codesOf` reads them in that order).
   */
  const codeMemo = new Map<number, BddNode>();
  const edgeCode = (j: number, bits: number): BddNode => {
    const key = j * 64 + bits;
    let code = codeMemo.get(key);
    if (code !== undefined) return code;
    for (let k = 0; k < bits; k++) lbdd.varIndex(`${EDGE_BIT}${k}`);
    code = BDD_TRUE;
    for (let k = bits - 1; k >= 0; k--) code = lbdd.and(code, lbdd.literal(`${EDGE_BIT}${k}`, ((j >> k) & 1) === 1));
    codeMemo.set(key, code);
    return code;
  };
  /** A guard over the letters with the second mover's quantified away (∃). */
  const existsMemo = new Map<BddNode, BddNode>();
  const existsSecond = (f: BddNode): BddNode => {
    if (f <= 1 || lbdd.varOf(f) >= letterCount) return f;
    let r = existsMemo.get(f);
    if (r !== undefined) return r;
    const v = lbdd.varOf(f);
    const lo = existsSecond(lbdd.low(f));
    const hi = existsSecond(lbdd.high(f));
    if (v >= firstCount) r = lbdd.or(lo, hi);
    else {
      const x = lbdd.variable(lbdd.varName(v));
      r = lbdd.or(lbdd.and(x, hi), lbdd.and(lbdd.not(x), lo));
    }
    existsMemo.set(f, r);
    return r;
  };
  /** The edge indices a BDD over the edge-code bits allows, ascending. */
  const codesOf = (f: BddNode, bits: number): number[] => {
    const out: number[] = [];
    const bitVar = Array.from({ length: bits }, (_, k) => lbdd.varIndex(`${EDGE_BIT}${k}`));
    const go = (n: BddNode, k: number, j: number) => {
      if (n === BDD_FALSE) return;
      if (k === bits) {
        out.push(j);
        return;
      }
      const tested = n > 1 && lbdd.varOf(n) === bitVar[k];
      go(tested ? lbdd.low(n) : n, k + 1, j);
      go(tested ? lbdd.high(n) : n, k + 1, j | (1 << k));
    };
    go(f, 0, 0);
    return out.sort((a, b) => a - b);
  };

  // The game: vertices 0 and 1 are the sinks; first-mover vertices (position, leaf, priority),
  // second-mover vertices (position, leaf, class).
  const firstPlayer = mealy ? 1 : 0;
  const owner: number[] = [0, 1];
  const priority: number[] = [2, 1];
  // Vertices are expanded in the order they are made, each at once, so their successors are
  // one flat list with a start per vertex; and what a vertex is, parallel lists of numbers.
  // (An array and an object per vertex were most of the route's garbage collection.)
  const succList: number[] = [SINK_WIN, SINK_LOSE];
  const succFrom: number[] = [0, 1, 2];
  /** What each vertex is: its position, Zielonka leaf, priority (first mover) or class (second). */
  const whatPosition: number[] = [-1, -1];
  const whatLeaf: number[] = [0, 0];
  const whatX: number[] = [0, 0];
  // One map per position, keyed by a number: string keys for 600,000 vertices were a sixth of
  // full_arbiter_enc's game construction. x (a priority or a move class) stays below VERTEX_X_LIMIT.
  const vertexIds: Array<Map<number, number> | undefined> = [];
  let tooLarge = false;
  const vertex = (position: number, leaf: number, x: number, first: boolean): number => {
    if (position < 0) return -1 - position;
    const ids = (vertexIds[position] ??= new Map());
    const key = (leaf * 2 + (first ? 1 : 0)) * VERTEX_X_LIMIT + x;
    let id = ids.get(key);
    if (id === undefined) {
      id = owner.length;
      if (id >= maxVertices) tooLarge = true;
      ids.set(key, id);
      owner.push(first ? firstPlayer : 1 - firstPlayer);
      priority.push(first ? x : 0);
      whatPosition.push(position);
      whatLeaf.push(leaf);
      whatX.push(x);
    }
    return id;
  };
  /**
   * The edges' mark sets of a position, once per position rather than per second-mover vertex:
   * full_arbiter_enc's 17 Büchi components mark most steps, and mapping the marks edge by edge
   * and vertex by vertex was a fifth of its game construction.
   */
  const markSetsOf = (pos: Position, edges: readonly Edge[], marks: readonly number[]): Int32Array => {
    if (pos.markSets) return pos.markSets;
    const sets = new Int32Array(edges.length);
    edges.forEach((m, j) => {
      for (const k of m.marks) {
        const i = marks.indexOf(k);
        if (i >= 0) sets[j] |= 1 << i;
      }
    });
    return (pos.markSets = sets);
  };
  const initialStates = components.map((c) => c.initial);
  const initialPosition = positionOf(initialStates);
  const start = vertex(initialPosition, 0, 0, true);
  try {
    for (let v = 2; v < owner.length && !tooLarge; v++) {
      tick();
      const position = whatPosition[v];
      const leaf = whatLeaf[v];
      const pos = positions[position];
      if (owner[v] === firstPlayer) {
        const moves = movesOf(position);
        for (let li = 0; li < moves.length; li++) succList.push(vertex(position, leaf, li, false));
        succFrom.push(succList.length);
        continue;
      }
      const entry = treeOf(pos.condition);
      if (!entry) return { verdict: 'unsupported', reason: 'acceptance condition too large' };
      const edges = edgesOf(position);
      for (const j of movesOf(position)[whatX[v]].edges) {
        const m = edges[j];
        if (m.to < 0) {
          succList.push(-1 - m.to);
          continue;
        }
        const target = positions[m.to];
        if (target.condition !== pos.condition) {
          succList.push(vertex(m.to, 0, 0, true));
          continue;
        }
        const step = entry.tree.step(leaf, markSetsOf(pos, edges, entry.marks)[j]);
        const p = PRIORITY_BASE - step.depth - (entry.tree.rootAccepting ? 0 : 1);
        succList.push(vertex(m.to, step.leaf, p, true));
      }
      succFrom.push(succList.length);
    }
  } catch (err) {
    // A position with too many first-mover moves: the bounded engine takes the spec.
    if (err instanceof TooManyMoves) return { verdict: 'unsupported', reason: err.message };
    throw err;
  }
  const stats: ParityRouteStats = { positions: positions.length, vertices: owner.length, components: components.length, bddNodes: lbdd.nodeCount };
  if (tooLarge) return { verdict: 'unsupported', reason: `game larger than ${maxVertices} vertices` };
  progress(`parity route: ${positions.length} positions, ${owner.length} vertices`);

  const n = owner.length;
  const succStart = Int32Array.from(succFrom);
  const flat = Int32Array.from(succList);
  const succ = (v: number): Int32Array => flat.subarray(succStart[v], succStart[v + 1]);
  const solution = solveParityGame(
    { vertexCount: n, owner: Uint8Array.from(owner), priority: Int32Array.from(priority), succStart, succ: flat },
    tick,
  );
  const realizable = solution.winner[start] === 0;
  progress(`parity route: ${realizable ? 'realizable' : 'unrealizable'}`);

  if (realizable) {
    if (!options.controller) return { verdict: 'realizable', stats };
    return { verdict: 'realizable', controller: controllerOf(start, solution.strategy), stats };
  }
  if (!options.counterstrategy) return { verdict: 'unrealizable', stats };
  return { verdict: 'unrealizable', counterstrategy: counterstrategyOf(start, solution.strategy), stats };

  /**
   * A controller's outputs: what the move fixed; a boolean it left open stays open (the
   * controller may pick either, which lets exact minimization merge more states), a TSL signal
   * it left open takes its preferred update (both values of its variables would break one-hot).
   */
  function outputCube(cube: Cube): Cube {
    return completeCube(cube, outputDims.filter((d) => d.vars.length > 1));
  }

  /** States of a machine read off a strategy: first-mover vertices, numbered as reached. */
  function numbering(startVertex: number): { of: (v: number) => number; list: number[] } {
    const list: number[] = [startVertex];
    const ids = new Map<number, number>([[startVertex, 0]]);
    return {
      list,
      of: (v) => {
        let id = ids.get(v);
        if (id === undefined) {
          id = list.length;
          ids.set(v, id);
          list.push(v);
        }
        return id;
      },
    };
  }

  /** The edge a second-mover vertex's move to `target` takes, and the first mover's class. */
  function edgeTo(w: number, target: number): { edge: Edge; move: FirstMove } {
    const move = movesOf(whatPosition[w])[whatX[w]];
    return { edge: edgesOf(whatPosition[w])[move.edges[succ(w).indexOf(target)]], move };
  }
  /** f with the first mover's letters fixed by a complete valuation of them. */
  function restrictFirst(f: BddNode, values: Cube): BddNode {
    let n = f;
    while (n > 1 && lbdd.varOf(n) < firstCount) n = own(values, lbdd.varName(lbdd.varOf(n))) ? lbdd.high(n) : lbdd.low(n);
    return n;
  }

  /**
   * A winning strategy read off as transitions from `startVertex` (states numbered as reached),
   * in the winner's terms: `own` is the winner's letter, `other` the opponent's. Where the winner
   * moves first (a Moore controller, a Mealy environment) each state commits to one complete
   * letter and the opponent's letters that follow take the edges; where it moves second it
   * answers each class of the opponent's letters with one letter of its own (`answer`). The
   * winner's sink loops on `sink`.
   */
  function strategySteps(
    startVertex: number,
    strategy: Int32Array,
    winner: {
      readonly name: string;
      readonly sinkVertex: number;
      readonly sink: { readonly own: Cube; readonly other: Cube };
      readonly movesFirst: boolean;
      readonly answer: (letters: BddNode) => Cube;
    },
  ): { stateCount: number; steps: Array<{ from: number; own: Cube; other: Cube; to: number }> } {
    const states = numbering(startVertex);
    const steps: Array<{ from: number; own: Cube; other: Cube; to: number }> = [];
    for (let s = 0; s < states.list.length; s++) {
      tick();
      const v = states.list[s];
      if (v === winner.sinkVertex) {
        steps.push({ from: s, ...winner.sink, to: s });
        continue;
      }
      // The opponent's letters per (own letter, successor), joined before they are cut into
      // cubes: the classes of a position's moves follow every component's distinctions, and
      // cubes per class gave 5–20 times more transitions than the machine has behaviours
      // (chain-simple-5: 8,291 transitions for 296 of them), each one a tableau expansion in the
      // independent check and a pair to compare in exact minimization.
      const joined = new Map<string, { own: Cube; to: number; others: BddNode }>();
      const join = (own: Cube, to: number, others: BddNode) => {
        const key = `${cubeKey(own)}>${to}`;
        const same = joined.get(key);
        if (same) same.others = lbdd.or(same.others, others);
        else joined.set(key, { own, to, others });
      };
      if (winner.movesFirst) {
        const w = strategy[v];
        if (w < 0) throw new Error(`parity route: no winning move for the ${winner.name}`);
        const position = whatPosition[w];
        const move = movesOf(position)[whatX[w]];
        const own = completeFirst(move.guard);
        succ(w).forEach((t, i) => join(own, states.of(t), restrictFirst(edgesOf(position)[move.edges[i]].guard, own)));
      } else
        for (const w of succ(v)) {
          const t = strategy[w];
          if (t < 0) throw new Error(`parity route: no winning move for the ${winner.name}`);
          const { edge, move } = edgeTo(w, t);
          const to = states.of(t);
          // The opponent's letters first in the order: below each class of them, the winner's
          // letters that take the edge.
          for (const [ownLetters, others] of firstLetters.of(lbdd.and(edge.guard, move.guard))) {
            if (ownLetters === BDD_FALSE) continue;
            join(winner.answer(ownLetters), to, others);
          }
        }
      // Polled per cube: one state's letters can be hundreds of thousands of them.
      for (const { own, to, others } of joined.values())
        for (const other of pathCubes(lbdd, others, tick)) steps.push({ from: s, own, other, to });
    }
    return { stateCount: states.list.length, steps };
  }

  function controllerOf(startVertex: number, strategy: Int32Array): MealyMachine {
    const { stateCount, steps } = strategySteps(startVertex, strategy, {
      name: 'controller',
      sinkVertex: SINK_WIN,
      sink: { own: outputCube(dict()), other: dict() },
      movesFirst: !mealy,
      answer: (letters) => outputCube(preferredCube(lbdd, letters, preferredOutputs)),
    });
    const transitions: MealyTransition[] = steps.map(({ from, own, other, to }) => ({ from, input: other, output: own, to }));
    return { inputs, outputs, stateCount, initial: 0, transitions };
  }

  function counterstrategyOf(startVertex: number, strategy: Int32Array): Counterstrategy {
    const { stateCount, steps } = strategySteps(startVertex, strategy, {
      name: 'environment',
      sinkVertex: SINK_LOSE,
      sink: { own: completeInputs(dict(), inputs), other: dict() },
      movesFirst: mealy,
      answer: (letters) => completeInputs(preferredCube(lbdd, letters), inputs),
    });
    const transitions: CounterstrategyTransition[] = steps.map(({ from, own, other, to }) => ({ from, input: own, output: other, to }));
    return { inputs, outputs, stateCount, initial: 0, seesCurrentOutputs: !mealy, signalsEnforced: enforced.length > 0, transitions };
  }
}

function completeInputs(cube: Cube, inputs: readonly string[]): Cube {
  const out: Record<string, boolean> = dict();
  for (const i of inputs) out[i] = own(cube, i) ?? false;
  return out;
}

/** f with variable k fixed to values[k] where that is ±1 (0 = left free). */
function restrict(bdd: BddManager, f: BddNode, values: Int8Array): BddNode {
  const memo = new Map<BddNode, BddNode>();
  const go = (n: BddNode): BddNode => {
    if (n <= 1) return n;
    const hit = memo.get(n);
    if (hit !== undefined) return hit;
    const k = Number(bdd.nodeVarName(n));
    const v = values[k];
    let r: BddNode;
    if (v > 0) r = go(bdd.high(n));
    else if (v < 0) r = go(bdd.low(n));
    else {
      const x = bdd.variable(String(k));
      r = bdd.or(bdd.and(x, go(bdd.high(n))), bdd.and(bdd.not(x), go(bdd.low(n))));
    }
    memo.set(n, r);
    return r;
  };
  return go(f);
}

const supportMemo = new WeakMap<BddManager, Map<BddNode, ReadonlySet<number>>>();
/** The atoms (component indices) a condition depends on. */
function supportOf(bdd: BddManager, f: BddNode): ReadonlySet<number> {
  let memo = supportMemo.get(bdd);
  if (!memo) supportMemo.set(bdd, (memo = new Map()));
  const hit = memo.get(f);
  if (hit) return hit;
  const out = new Set<number>();
  const seen = new Set<BddNode>();
  const go = (n: BddNode) => {
    if (n <= 1 || seen.has(n)) return;
    seen.add(n);
    out.add(Number(bdd.nodeVarName(n)));
    go(bdd.low(n));
    go(bdd.high(n));
  };
  go(f);
  memo.set(f, out);
  return out;
}

/** Whether a condition is monotone (positive in every mark): no node's low branch outside its high one. */
function isMonotone(bdd: BddManager, f: BddNode): boolean {
  const seen = new Set<BddNode>();
  const go = (n: BddNode): boolean => {
    if (n <= 1 || seen.has(n)) return true;
    seen.add(n);
    return bdd.and(bdd.low(n), bdd.not(bdd.high(n))) === BDD_FALSE && go(bdd.low(n)) && go(bdd.high(n));
  };
  return go(f);
}
