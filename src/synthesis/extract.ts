/**
 * Strategies out of solved games: Mealy controllers from the primal game, counterstrategies from
 * the dual game (or from a lost primal game whose automaton is terminal), and minimization.
 *
 * Extraction walks the winning region from the start position. Because the winning region is a
 * downset, a strategy state may stand for any position it dominates: when a successor is below an
 * existing state, we reuse that state instead of creating a new one. Among the safe choices a
 * Mealy controller prefers progress toward pending obligations, then self-updates, then fewer
 * states (see `extractMealyController`); counterstrategies prefer fewer states, then the earliest
 * choice (preferred options come first in the enumeration).
 */
import { BDD_TRUE, BddManager, type BddNode } from '../automata/bdd.js';
import type { Counterstrategy, CounterstrategyTransition } from '../game/counterstrategy.js';
import { type Cube, cubeKey, type MealyMachine, type MealyTransition } from '../game/mealy.js';
import { dict, own } from '../../runtime/dict.js';
import { type SolvedGame, activeOf } from './game.js';
import type { ProgressOracle } from './progress.js';
import { completeCube, type Dimension, expandPart } from './split.js';

interface Built {
  states: number[];
  find(node: number): number | undefined;
  add(node: number): number;
}

/** Strategy states with reuse of dominating positions (`upward`: a state may stand for smaller ones). */
function stateSet(game: SolvedGame, upward: boolean, widenStates = true): Built {
  const states: number[] = [];
  const byNode = new Map<number, number>();
  let pool: number[] | undefined;
  const weight = (v: Int8Array) => v.reduce((a, c) => a + c + 1, 0);
  let poolWeights: Int32Array | undefined;
  // The active states of each strategy state's position, for `find` going downward.
  const activeOfState: number[][] = [];
  /**
   * A new strategy state stands for the *largest* explored winning position above the one
   * reached (a larger position covers more of the positions reached later, so fewer states).
   */
  const widen = (node: number): number => {
    if (!upward || !widenStates) return node;
    pool ??= game.vectors.map((_, i) => i).filter((i) => winning(game, i));
    poolWeights ??= Int32Array.from(pool, (w) => weight(game.vectors[w]));
    const v = game.vectors[node];
    const active = activeOf(v);
    let best = node;
    let bestWeight = weight(v);
    for (let i = 0; i < pool.length; i++) {
      if (!dominatedOn(active, v, game.vectors[pool[i]])) continue;
      if (poolWeights[i] > bestWeight) {
        best = pool[i];
        bestWeight = poolWeights[i];
      }
    }
    return best;
  };
  return {
    states,
    find(node) {
      const exact = byNode.get(node);
      if (exact !== undefined) return exact;
      const v = game.vectors[node];
      const active = upward ? activeOf(v) : undefined;
      for (let s = 0; s < states.length; s++) {
        const w = game.vectors[states[s]];
        if (active ? dominatedOn(active, v, w) : dominatedOn(activeOfState[s], w, v)) return s;
      }
      return undefined;
    },
    add(reached) {
      const node = widen(reached);
      states.push(node);
      activeOfState.push(activeOf(game.vectors[node]));
      byNode.set(node, states.length - 1);
      byNode.set(reached, states.length - 1);
      return states.length - 1;
    },
  };
}

/**
 * `dominatedBy(v, w)` read on v's active states only (`active` = activeOf(v)): an inactive entry
 * is −1, the least a counter can be, so it is below w's whatever w holds there. Positions have a
 * handful of active states out of hundreds (Sensor: 281 automaton states), and widening compares
 * each new strategy state with every winning position of the game (15,520).
 */
function dominatedOn(active: readonly number[], v: Int8Array, w: Int8Array): boolean {
  for (let i = 0; i < active.length; i++) if (v[active[i]] > w[active[i]]) return false;
  return true;
}

const winning = (game: SolvedGame, t: number) => t >= 0 && game.losingRank[t] === 0 && game.targets[t] !== undefined;

/**
 * The targets of a node's leaf. The second mover's leaves are all there once a node is expanded;
 * an on-the-fly game leaves first-mover leaves it never looked at without targets (and unbuilt).
 */
function leafTargets(game: SolvedGame, u: number, li: number): Int32Array {
  const ts = game.targets[u]?.[li];
  if (!ts) throw new Error('internal: a leaf of an expanded position has no targets');
  return ts;
}

/** How a Mealy controller was chosen, for comparing extractions (see `extractMealyController`). */
export interface ChoiceStats {
  /** Transitions that keep every output while an obligation is pending although acting was possible. */
  readonly idleWhilePending: number;
  /** Transitions that change an output although nothing is pending. */
  readonly busyWhileQuiet: number;
}

/** One winning way to answer an input class: a kept choice, or an equivalent option merged into it. */
interface Candidate {
  readonly target: number;
  readonly output: Cube;
  /** The assignment of the dimensions the move enumeration split on (the others do not matter here). */
  readonly split: Cube;
  /** Per output dimension: the option chosen (index into the dimension's options). */
  readonly options: readonly number[];
  /** Enumeration order: kept choices in order, each followed by its merged alternatives. */
  readonly order: number;
}

/**
 * Controller from a won primal game where the controller moves second (Mealy semantics).
 *
 * Per input class, among the winning choices (the kept ones, and the options merged into them as
 * equivalent), in this order of preference (`ProgressOracle` says what is pending; docs/synthesis.md):
 *  1. no step back: a move after which the open obligations are further from being met than
 *     after idling (`ProgressOracle.distance`) ranks last;
 *  2. when an obligation is pending (idling would leave one open): acting on more of the signals
 *     the pending obligations concern; when nothing is pending: no preference here;
 *  3. self-updates everywhere else: the fewest other non-self updates (no LLM call for signals
 *     no pending obligation concerns, nor for any signal when nothing is pending);
 *  4. fewer states: a successor that an existing state dominates;
 *  5. the fewest steps until the open obligations can be met (`ProgressOracle.distance`);
 *  6. enumeration order (self-updates first).
 * Ranking 5 above 4 made the seed controllers 8 / 8 / 15 / 15 states instead of 5 / 4 / 7 / 6: it
 * asks for everything pending at once, and each combination of open requests is a state.
 * Without an oracle only 4 and 6 apply: the first winning choice, idling wherever the spec allows.
 *
 * Idle moves that the game cannot tell from acting ones (same successor) are listed in
 * `equivalents`, for `actWhileWaiting` (waiting.ts).
 */
export function extractMealyController(
  game: SolvedGame,
  inputs: readonly string[],
  outputs: readonly string[],
  outputDims: readonly Dimension[],
  widen = true,
  oracle?: ProgressOracle,
  /** Rank the moves by progress (1–3 and 5 below); false: only 4 and 6, the first winning move. */
  eager = true,
): MealyMachine & { readonly choiceStats: ChoiceStats; readonly equivalents: ReadonlyMap<number, readonly Cube[]> } {
  const built = stateSet(game, true, widen);
  const equivalents = new Map<number, readonly Cube[]>();
  const transitions: MealyTransition[] = [];
  const optionOf = optionIndexer(outputDims);
  let idleWhilePending = 0;
  let busyWhileQuiet = 0;
  built.add(0);
  for (let s = 0; s < built.states.length; s++) {
    const u = built.states[s];
    const leaves = game.table.movesFor(activeOf(game.vectors[u]), () => {});
    leaves.forEach((leaf, li) => {
      const targets = leafTargets(game, u, li);
      const candidates: Candidate[] = [];
      for (let k = 0; k < leaf.kept.length; k++) {
        const t = targets[k];
        if (!winning(game, t)) continue;
        const part = leaf.choices[leaf.kept[k]].part;
        const add = (cube: Cube) => {
          const output = completeCube(cube, outputDims);
          candidates.push({ target: t, output, split: part.cube, options: optionOf(output), order: candidates.length });
        };
        add(part.cube);
        // Equivalent options merged into this choice: the same successor, other updates.
        if (oracle) for (const same of part.merged) for (const option of same.slice(1)) add({ ...part.cube, ...option });
      }
      if (candidates.length === 0) throw new Error('internal: no safe choice in a winning position');
      const preferredOption = (c: Candidate, d: number) => c.options[d] === outputDims[d].preferred;
      const idle = candidates.find((c) => c.options.every((_, d) => preferredOption(c, d)));
      const pending = oracle ? (idle ? oracle.pending(idle.target) : candidates.some((c) => oracle.pending(c.target))) : false;
      const concerned = new Set<number>();
      if (oracle && pending) {
        for (const d of oracle.concerned(u)) concerned.add(d);
        for (const c of idle ? [idle] : candidates) for (const d of oracle.concerned(c.target)) concerned.add(d);
      }
      const idleDistance = oracle && idle ? oracle.distance(idle.target) : Infinity;
      const key = (c: Candidate): number[] => {
        let acting = 0;
        let other = 0;
        c.options.forEach((_, d) => {
          if (preferredOption(c, d)) return;
          if (pending && concerned.has(d)) acting++;
          else other++;
        });
        const reuse = built.find(c.target) === undefined ? 1 : 0;
        // Not eager: the first winning choice, one landing on an existing state first.
        if (!oracle || !eager) return [reuse, c.order];
        const dist = oracle.distance(c.target);
        return [dist > idleDistance ? 1 : 0, -acting, other, reuse, dist, c.order];
      };
      const keys = candidates.map(key);
      let best = 0;
      for (let i = 1; i < candidates.length; i++) if (lexLess(keys[i], keys[best])) best = i;
      const pick = candidates[best];
      if (pending && idle !== undefined && pick === idle && candidates.some((c) => c.target !== idle.target)) idleWhilePending++;
      if (!pending && pick.options.some((_, d) => !preferredOption(pick, d))) busyWhileQuiet++;
      if (oracle && pick === idle && !oracle.empty(pick.target)) {
        // Acting moves the game cannot tell from this idle one (the same successor): for
        // `actWhileWaiting` (waiting.ts). Those of the other choices with the same target, of the
        // options merged into this one, and of every option of a signal no guard mentions here.
        const same = candidates.filter((c) => c !== pick && c.target === pick.target).map((c) => c.output);
        const unsplit = outputDims.flatMap((d) =>
          d.vars.some((v) => v in pick.split) ? [] : d.options.filter((_, o) => o !== d.preferred).map((option) => ({ ...pick.output, ...option })),
        );
        if (same.length + unsplit.length > 0) equivalents.set(transitions.length, [...same, ...unsplit]);
      }
      const to = built.find(pick.target) ?? built.add(pick.target);
      transitions.push({ from: s, input: leaf.part.cube, output: pick.output, to });
    });
    // Inputs that break an invariant assumption: the spec holds vacuously from here on.
    const idle = completeCube(dict(), outputDims);
    for (const part of game.table.excludedFor(activeOf(game.vectors[u]), () => {}))
      transitions.push({ from: s, input: part.cube, output: idle, to: s });
  }
  return { inputs, outputs, stateCount: built.states.length, initial: 0, transitions, choiceStats: { idleWhilePending, busyWhileQuiet }, equivalents };
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** The option each dimension takes in a complete output cube. */
function optionIndexer(dims: readonly Dimension[]): (output: Cube) => number[] {
  return (output) =>
    dims.map((d) => {
      const i = d.options.findIndex((o) => d.vars.every((v) => o[v] === output[v]));
      if (i < 0) throw new Error('internal: an output cube matches no option of a dimension');
      return i;
    });
}

/**
 * Controller from a won primal game where the controller moves first (Moore semantics): each
 * state picks one output part; transitions follow every input part.
 */
export function extractMooreController(
  game: SolvedGame,
  inputs: readonly string[],
  outputs: readonly string[],
  outputDims: readonly Dimension[],
): MealyMachine {
  const transitions: MealyTransition[] = [];
  const built = firstMoverStrategy(game, true, (s, leafCube, choiceCube, to) => {
    transitions.push({ from: s, input: choiceCube, output: completeCube(leafCube, outputDims), to });
  });
  return { inputs, outputs, stateCount: built, initial: 0, transitions };
}

/** Safety player moves first: pick a leaf whose every choice is safe; follow all choices. */
function firstMoverStrategy(
  game: SolvedGame,
  upward: boolean,
  emit: (state: number, leafCube: Cube, choiceCube: Cube, to: number) => void,
): number {
  const built = stateSet(game, upward);
  built.add(0);
  for (let s = 0; s < built.states.length; s++) {
    const u = built.states[s];
    // Only the leaves with targets: an on-the-fly game builds few of a position's leaves.
    const list = game.table.leavesFor(activeOf(game.vectors[u]), () => {});
    const targets = game.targets[u]!;
    let best = -1;
    let bestNew = Infinity;
    for (let li = 0; li < list.count; li++) {
      const ts = targets[li];
      if (!ts || !ts.every((t) => winning(game, t))) continue;
      const fresh = ts.filter((t) => built.find(t) === undefined).length;
      if (fresh < bestNew) {
        best = li;
        bestNew = fresh;
      }
    }
    if (best < 0) throw new Error('internal: no safe move in a winning position');
    const leaf = list.at(best, () => {});
    const bestTargets = leafTargets(game, u, best);
    const stateOfKept = leaf.kept.map((_, k) => {
      const t = bestTargets[k];
      return built.find(t) ?? built.add(t);
    });
    leaf.choices.forEach((choice, ci) => {
      const to = stateOfKept[leaf.kept.indexOf(choice.rep)];
      for (const cube of expandPart(choice.part)) emit(s, leaf.part.cube, cube, to);
    });
  }
  return built.states.length;
}

function completeInputs(cube: Cube, inputs: readonly string[]): Cube {
  const out = dict<boolean>();
  for (const i of inputs) out[i] = own(cube, i) ?? false;
  return out;
}

/** Counterstrategy from a won dual game of a Mealy spec (environment = first mover, safety player). */
export function extractDualCounterstrategy(
  game: SolvedGame,
  inputs: readonly string[],
  outputs: readonly string[],
  signalsEnforced: boolean,
): Counterstrategy {
  const transitions: CounterstrategyTransition[] = [];
  const count = firstMoverStrategy(game, true, (s, leafCube, choiceCube, to) => {
    transitions.push({ from: s, input: completeInputs(leafCube, inputs), output: choiceCube, to });
  });
  return { inputs, outputs, stateCount: count, initial: 0, seesCurrentOutputs: false, signalsEnforced, transitions };
}

/** Counterstrategy from a won dual game of a Moore spec (environment moves second). */
export function extractDualMooreCounterstrategy(
  game: SolvedGame,
  inputs: readonly string[],
  outputs: readonly string[],
  signalsEnforced: boolean,
): Counterstrategy {
  const built = stateSet(game, true);
  const transitions: CounterstrategyTransition[] = [];
  built.add(0);
  for (let s = 0; s < built.states.length; s++) {
    const u = built.states[s];
    const leaves = game.table.movesFor(activeOf(game.vectors[u]), () => {});
    leaves.forEach((leaf, li) => {
      const targets = leafTargets(game, u, li);
      const k = leaf.kept.findIndex((_, j) => winning(game, targets[j]));
      if (k < 0) throw new Error('internal: no safe environment answer');
      const t = targets[k];
      const to = built.find(t) ?? built.add(t);
      const input = completeInputs(leaf.choices[leaf.kept[k]].part.cube, inputs);
      for (const output of expandPart(leaf.part)) transitions.push({ from: s, output, input, to });
    });
  }
  return {
    inputs,
    outputs,
    stateCount: built.states.length,
    initial: 0,
    seesCurrentOutputs: true,
    signalsEnforced,
    transitions,
  };
}

/**
 * Counterstrategy from a lost primal game (Mealy spec, terminal automaton): the environment
 * follows the attractor — in each losing position it plays an input class whose every answer
 * reaches an earlier-lost position or exceeds the bound; exceeding the bound on a terminal
 * automaton means the specification is already violated, so a sink state plays on, with
 * `sinkInput`: the game may have restricted the environment to the input invariants among the
 * assumptions, and a counterstrategy that broke one in the sink would lose (seed 1001's gen-124:
 * assumption `G i1`, and the sink played ¬i1).
 */
export function extractAttractorCounterstrategy(
  game: SolvedGame,
  inputs: readonly string[],
  outputs: readonly string[],
  sinkInput: Cube = completeInputs({}, inputs),
): Counterstrategy {
  const states: number[] = [0];
  const stateOf = new Map<number, number>([[0, 0]]);
  const SINK = -1;
  const transitions: CounterstrategyTransition[] = [];
  let sink = -1;
  const target = (node: number): number => {
    if (node === SINK) {
      if (sink < 0) {
        sink = states.length;
        states.push(SINK);
      }
      return sink;
    }
    let s = stateOf.get(node);
    if (s === undefined) {
      s = states.length;
      states.push(node);
      stateOf.set(node, s);
    }
    return s;
  };
  const idle = completeInputs(sinkInput, inputs);
  for (let s = 0; s < states.length; s++) {
    const u = states[s];
    if (u === SINK) {
      transitions.push({ from: s, input: idle, output: {}, to: s });
      continue;
    }
    const rank = game.losingRank[u];
    const leaves = game.table.movesFor(activeOf(game.vectors[u]), () => {});
    const li = leaves.findIndex((_, i) =>
      leafTargets(game, u, i).every((t) => t < 0 || (game.losingRank[t] > 0 && game.losingRank[t] < rank)),
    );
    if (li < 0) throw new Error('internal: no attractor move in a losing position');
    const leaf = leaves[li];
    const targets = leafTargets(game, u, li);
    const input = completeInputs(leaf.part.cube, inputs);
    for (const choice of leaf.choices) {
      const t = targets[leaf.kept.indexOf(choice.rep)];
      const to = target(t < 0 ? SINK : t);
      for (const output of expandPart(choice.part)) transitions.push({ from: s, input, output, to });
    }
    for (const part of leaf.fatal)
      for (const output of expandPart(part)) transitions.push({ from: s, input, output, to: target(SINK) });
  }
  return {
    inputs,
    outputs,
    stateCount: states.length,
    initial: 0,
    seesCurrentOutputs: false,
    // The primal game only offers the controller signal-respecting outputs.
    signalsEnforced: true,
    transitions,
  };
}

/**
 * Partition refinement: states with the same behaviour (for each output cube and target block,
 * the same set of inputs) merge. Exact for the machine as built; don't-care freedom is used
 * during extraction instead. The inputs leading to each (output, block) are compared as BDDs,
 * not as lists of cubes: the same behaviour is often cut into cubes differently in different
 * states (the parity route cuts per successor state, and successors that turn out bisimilar
 * then split one region into several), which kept such states apart (infinite-race-unequal-1:
 * 22 states where the behaviours give 15).
 */
export function minimizeMealy(m: MealyMachine): MealyMachine {
  const byState: MealyTransition[][] = Array.from({ length: m.stateCount }, () => []);
  for (const t of m.transitions) byState[t.from].push(t);
  // What a state does does not change between rounds, only how its targets are grouped: per state,
  // the inputs leading to each (output cube, target state), as one BDD, built once. Extracted
  // controllers cut their inputs finely (Coffee_06e9cad4: 1,440 transitions on 17 states, a
  // handful of such pairs per state), so the rounds below combine pairs, not transitions.
  const bdd = new BddManager();
  // Each distinct output cube as a small number, for the keys below. Extraction shares one cube
  // object among many transitions, so each object is keyed once.
  const outputIds = new Map<string, number>();
  const keyOfCube = new Map<Cube, string>();
  const outputIndex = new Map(m.outputs.map((o, i) => [o, i]));
  // One character per output (1, 0, or - for free); a name outside the outputs falls back to the
  // general key (its JSON form cannot collide with these).
  const compactKey = (c: Cube): string => {
    const chars: string[] = [];
    for (let i = 0; i < m.outputs.length; i++) chars.push('-');
    for (const name in c) {
      const i = outputIndex.get(name);
      if (i === undefined) return cubeKey(c);
      chars[i] = c[name] ? '1' : '0';
    }
    return chars.join('');
  };
  const moves: Array<Array<{ readonly output: number; readonly to: number; inputs: BddNode }>> = [];
  for (let s = 0; s < m.stateCount; s++) {
    const byPair = new Map<string, { readonly output: number; readonly to: number; inputs: BddNode }>();
    for (const t of byState[s]) {
      let cube = keyOfCube.get(t.output);
      if (cube === undefined) keyOfCube.set(t.output, (cube = compactKey(t.output)));
      let output = outputIds.get(cube);
      if (output === undefined) outputIds.set(cube, (output = outputIds.size));
      const inputs = bdd.cube(t.input);
      const pair = `${output},${t.to}`;
      const prev = byPair.get(pair);
      if (prev) prev.inputs = bdd.or(prev.inputs, inputs);
      else byPair.set(pair, { output, to: t.to, inputs });
    }
    moves.push([...byPair.values()]);
  }
  let block = new Int32Array(m.stateCount);
  let blocks = 1;
  for (;;) {
    const sigs = new Map<string, number>();
    const next = new Int32Array(m.stateCount);
    for (let s = 0; s < m.stateCount; s++) {
      const regions = new Map<string, BddNode>();
      for (const move of moves[s]) {
        const key = `${move.output},${block[move.to]}`;
        const prev = regions.get(key);
        regions.set(key, prev === undefined ? move.inputs : bdd.or(prev, move.inputs));
      }
      const sig =
        `${block[s]}|` +
        [...regions]
          .map(([key, inputs]) => `${key}:${inputs}`)
          .sort()
          .join(';');
      let b = sigs.get(sig);
      if (b === undefined) sigs.set(sig, (b = sigs.size));
      next[s] = b;
    }
    const stable = sigs.size === blocks;
    block = next;
    blocks = sigs.size;
    if (stable) break;
  }
  // Renumber so that the initial state is 0 and blocks appear in BFS order.
  const order = new Map<number, number>();
  const queue = [block[m.initial]];
  order.set(block[m.initial], 0);
  const repOf = new Map<number, number>();
  for (let s = 0; s < m.stateCount; s++) if (!repOf.has(block[s])) repOf.set(block[s], s);
  const transitions: MealyTransition[] = [];
  for (let h = 0; h < queue.length; h++) {
    const b = queue[h];
    for (const t of byState[repOf.get(b)!]) {
      const tb = block[t.to];
      if (!order.has(tb)) {
        order.set(tb, order.size);
        queue.push(tb);
      }
      transitions.push({ from: order.get(b)!, input: t.input, output: t.output, to: order.get(tb)! });
    }
  }
  return { ...m, stateCount: order.size, initial: 0, transitions };
}
