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
  readonly progress?: (msg: string) => void;
}

export interface ParityRouteStats {
  readonly positions: number;
  readonly vertices: number;
  readonly components: number;
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
  const comps = componentsOf(spec, enforced, tick);
  if (!comps) return { verdict: 'unsupported', reason: 'a conjunct outside the fragment' };
  const { components, acceptanceBdd: acc } = comps;
  progress(`parity route: ${components.length} components (${components.map((c) => c.label).join(', ')})`);

  // Letters: the first mover's first (componentsOf orders them so), obligations below.
  const lbdd = comps.bdd;
  // A single conjunction of letter guards can take seconds: the BDD package polls the clock too.
  lbdd.poll = tick;
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
  const stepsOf = (k: number, state: number) => {
    const key = `${k}:${state}`;
    const hit = stepMemo.get(key);
    if (hit) return hit;
    const groups = components[k].groups(state).map((factors) => {
      // The letters by what the factors leave (conjoined so far): a class per distinct conjunction.
      let classes = new Map<BddNode, BddNode>([[BDD_TRUE, BDD_TRUE]]);
      for (const f of factors) {
        const next = new Map<BddNode, BddNode>();
        for (const [acc, guard] of classes)
          for (const [r, g] of letters.of(f)) {
            const both = lbdd.and(guard, g);
            if (both === BDD_FALSE) continue;
            const rest = lbdd.and(acc, r);
            const prev = next.get(rest);
            next.set(rest, prev === undefined ? both : lbdd.or(prev, both));
          }
        classes = next;
        tick();
      }
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
  /** The position of a tuple of states (after settling and forgetting), or a sink. */
  const positionOf = (states: number[]): number => {
    const values = new Int8Array(components.length);
    for (let k = 0; k < components.length; k++) {
      if (states[k] < 0) continue;
      const v = components[k].permanent(states[k]);
      if (v !== undefined) values[k] = v ? 1 : -1;
    }
    const settled = restricted(comps.acceptance, values, values.join(''));
    if (settled === BDD_TRUE) return -1 - SINK_WIN;
    if (settled === BDD_FALSE) return -1 - SINK_LOSE;
    const support = supportOf(acc, settled);
    const current = new Int8Array(components.length);
    for (let k = 0; k < components.length; k++) {
      if (!support.has(k)) {
        // A component the condition no longer mentions is forgotten, unless its atom is settled:
        // that value must survive into later positions' conditions, so its sink state stays.
        if (values[k] === 0) states[k] = -1;
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

  /** A position's edges: every letter (within the one-hot signals) by successor and marks. */
  const edgesOf = (p: number): readonly Edge[] => {
    const pos = positions[p];
    if (pos.edges) return pos.edges;
    let classes: Array<{ guard: BddNode; key: string; next: number[]; marks: number[] }> = [{ guard: oneHot, key: '', next: [], marks: [] }];
    for (let k = 0; k < components.length; k++) {
      const state = pos.states[k];
      if (state < 0) {
        for (const c of classes) c.next.push(-1);
        continue;
      }
      const merged = new Map<string, (typeof classes)[number]>();
      for (const c of classes)
        for (const step of stepsOf(k, state)) {
          // Polled per class: a product of many components has thousands of classes per step.
          tick();
          const guard = lbdd.and(c.guard, step.guard);
          if (guard === BDD_FALSE) continue;
          const key = `${c.key}${step.to}${step.mark ? '*' : ''},`;
          const same = merged.get(key);
          if (same) same.guard = lbdd.or(same.guard, guard);
          else merged.set(key, { guard, key, next: [...c.next, step.to], marks: step.mark ? [...c.marks, k] : c.marks });
        }
      classes = [...merged.values()];
      tick();
    }
    const byTarget = new Map<string, { to: number; marks: number[]; guard: BddNode }>();
    for (const c of classes) {
      tick();
      const to = positionOf(c.next);
      const key = `${to}:${c.marks.join(',')}`;
      const same = byTarget.get(key);
      if (same) same.guard = lbdd.or(same.guard, c.guard);
      else byTarget.set(key, { to, marks: c.marks, guard: c.guard });
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
    // Joined pairwise (a balanced tree of ∨): one growing disjunction would be rebuilt per edge.
    let tagged = edges.map((e, j) => lbdd.and(e.guard, edgeCode(j, bits)));
    while (tagged.length > 1) tagged = Array.from({ length: Math.ceil(tagged.length / 2) }, (_, i) => (2 * i + 1 < tagged.length ? lbdd.or(tagged[2 * i], tagged[2 * i + 1]) : tagged[2 * i]));
    const byOpen = new Map<string, { guard: BddNode; edges: number[] }>();
    for (const [residual, guard] of firstLetters.of(tagged[0] ?? BDD_FALSE)) {
      tick();
      const open = codesOf(existsLetters(residual), bits);
      if (open.length === 0) continue;
      const key = open.join(',');
      const same = byOpen.get(key);
      if (same) same.guard = lbdd.or(same.guard, guard);
      else byOpen.set(key, { guard, edges: open });
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
  /** A residual with the letters quantified away: the edge codes it allows. */
  const existsMemo = new Map<BddNode, BddNode>();
  const existsLetters = (f: BddNode): BddNode => {
    if (f <= 1 || lbdd.varOf(f) >= letterCount) return f;
    let r = existsMemo.get(f);
    if (r === undefined) existsMemo.set(f, (r = lbdd.or(existsLetters(lbdd.low(f)), existsLetters(lbdd.high(f)))));
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
  const succ: number[][] = [[SINK_WIN], [SINK_LOSE]];
  /** What each vertex is: [position, leaf, priority or class], kind. */
  const what: Array<{ readonly position: number; readonly leaf: number; readonly x: number; readonly first: boolean } | undefined> = [undefined, undefined];
  const vertexIds = new Map<string, number>();
  let tooLarge = false;
  const vertex = (position: number, leaf: number, x: number, first: boolean): number => {
    if (position < 0) return -1 - position;
    const key = `${first ? 'f' : 's'}${position},${leaf},${x}`;
    let id = vertexIds.get(key);
    if (id === undefined) {
      id = owner.length;
      if (id >= maxVertices) tooLarge = true;
      vertexIds.set(key, id);
      owner.push(first ? firstPlayer : 1 - firstPlayer);
      priority.push(first ? x : 0);
      succ.push([]);
      what.push({ position, leaf, x, first });
    }
    return id;
  };
  const initialStates = components.map((c) => c.initial);
  const initialPosition = positionOf(initialStates);
  const start = vertex(initialPosition, 0, 0, true);
  for (let v = 2; v < owner.length && !tooLarge; v++) {
    tick();
    const w = what[v]!;
    const pos = positions[w.position];
    if (w.first) {
      const moves = movesOf(w.position);
      for (let li = 0; li < moves.length; li++) succ[v].push(vertex(w.position, w.leaf, li, false));
      continue;
    }
    const entry = treeOf(pos.condition);
    if (!entry) return { verdict: 'unsupported', reason: 'acceptance condition too large' };
    const edges = edgesOf(w.position);
    for (const j of movesOf(w.position)[w.x].edges) {
      const m = edges[j];
      if (m.to < 0) {
        succ[v].push(-1 - m.to);
        continue;
      }
      const target = positions[m.to];
      if (target.condition !== pos.condition) {
        succ[v].push(vertex(m.to, 0, 0, true));
        continue;
      }
      let set = 0;
      for (const k of m.marks) {
        const i = entry.marks.indexOf(k);
        if (i >= 0) set |= 1 << i;
      }
      const step = entry.tree.step(w.leaf, set);
      const p = PRIORITY_BASE - step.depth - (entry.tree.rootAccepting ? 0 : 1);
      succ[v].push(vertex(m.to, step.leaf, p, true));
    }
  }
  const stats: ParityRouteStats = { positions: positions.length, vertices: owner.length, components: components.length };
  if (tooLarge) return { verdict: 'unsupported', reason: `game larger than ${maxVertices} vertices` };
  progress(`parity route: ${positions.length} positions, ${owner.length} vertices`);

  const n = owner.length;
  const succStart = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) succStart[v + 1] = succStart[v] + succ[v].length;
  const flat = new Int32Array(succStart[n]);
  for (let v = 0; v < n; v++) flat.set(succ[v], succStart[v]);
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
    const { position, x } = what[w]!;
    const move = movesOf(position)[x];
    return { edge: edgesOf(position)[move.edges[succ[w].indexOf(target)]], move };
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
        const { position, x } = what[w]!;
        const move = movesOf(position)[x];
        const own = completeFirst(move.guard);
        succ[w].forEach((t, i) => join(own, states.of(t), restrictFirst(edgesOf(position)[move.edges[i]].guard, own)));
      } else
        for (const w of succ[v]) {
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
      for (const { own, to, others } of joined.values())
        for (const other of pathCubes(lbdd, others)) steps.push({ from: s, own, other, to });
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
