/**
 * Acting while the spec waits: a pass over an extracted Mealy controller (before minimization)
 * that replaces idle moves by equivalent acting ones where an obligation of the guarantees is
 * open although the game sees nothing to do.
 *
 * The game judges pending obligations by its automaton of `A → g`, in which an eventuality of `g`
 * that the assumptions already promise is no longer open: after `[o <- go x]` under the assumption
 * `[o <- go x] → F done x`, the obligation `F done x` is the environment's to meet, and the game
 * waits. The spec still waits for it, though, and an agent that writes every turn (the papers'
 * CYOA agent) should not fall silent meanwhile. So the controller is played against each
 * guarantee alone (a universal automaton of `I → g`, without assumptions): where an idle move can
 * be reached while, after it, an eventuality of some guarantee would still be open (a token in an
 * SCC with rejecting edges other than a violation sink), the move is swapped for an acting one
 * that the extraction found equivalent in the game (the same successor position, so the
 * controller stays winning and its states do not change) and that makes an update the guarantee
 * or an assumption linked to it mentions (`[o <- go x]` above; other signals keep their
 * self-updates). The independent check still runs on the result.
 *
 * The exploration (controller state × automaton token set, input letters over the propositions
 * the active guards mention) has a deterministic budget; beyond it the controller is left as it is.
 */
import { BDD_TRUE, type BddManager } from '../automata/bdd.js';
import type { Cube, MealyMachine, MealyTransition } from '../game/mealy.js';
import type { Formula } from '../ltl/formula.js';
import { type Ucw, sccs } from './ucw.js';

/** Product positions explored, and input propositions enumerated per transition, at most. */
const MAX_PRODUCT = 20_000;
const MAX_FREE_INPUTS = 10;

export interface GuaranteeAutomaton {
  /** Universal co-Büchi automaton of the guarantee (with INITIALLY), without assumptions. */
  readonly ucw: Ucw;
  /** Propositions of the guarantee and of the assumptions linked to it (updates that serve it). */
  readonly props: ReadonlySet<string>;
}

/**
 * `equivalents`: per transition index of `machine` whose move is idle, the outputs the game
 * cannot tell from it (see above), in the extraction's order of preference.
 */
export function actWhileWaiting(
  machine: MealyMachine,
  equivalents: ReadonlyMap<number, readonly Cube[]>,
  guarantees: readonly GuaranteeAutomaton[],
  tick: () => void,
): MealyMachine {
  if (equivalents.size === 0 || guarantees.length === 0) return machine;
  const product = unionOf(guarantees);
  if (!product.open.some((p) => p >= 0)) return machine;
  const outputs = machine.transitions.map((t) => t.output);
  const byState: number[][] = Array.from({ length: machine.stateCount }, () => []);
  machine.transitions.forEach((t, i) => byState[t.from].push(i));
  // A swapped output can change what the guarantees' tokens do: explore until nothing changes.
  for (let round = 0; round <= equivalents.size; round++) {
    const openAfter = idleWhileOpen(machine, byState, outputs, equivalents, product, tick);
    if (openAfter === undefined) return machine;
    let changed = false;
    for (const [i, parts] of openAfter) {
      if (outputs[i] !== machine.transitions[i].output) continue;
      const idle = outputs[i];
      const serves = (alt: Cube) => {
        const updates = Object.keys(alt).filter((p) => alt[p] && !idle[p]);
        return [...parts].filter((g) => updates.some((p) => guarantees[g].props.has(p))).length;
      };
      let best: Cube | undefined;
      let bestServes = 0;
      for (const alt of equivalents.get(i) ?? []) {
        const n = serves(alt);
        if (n > bestServes) {
          best = alt;
          bestServes = n;
        }
      }
      if (best) {
        outputs[i] = best;
        changed = true;
      }
    }
    if (!changed) break;
  }
  if (outputs.every((o, i) => o === machine.transitions[i].output)) return machine;
  const transitions: MealyTransition[] = machine.transitions.map((t, i) => (outputs[i] === t.output ? t : { ...t, output: outputs[i] }));
  return { ...machine, transitions };
}

interface Product {
  readonly ucw: Ucw;
  /** Per state: the guarantee whose eventuality a token there keeps open, or −1. */
  readonly open: Int32Array;
}

/** The guarantees' automata side by side; open states: in a counting SCC, not a violation sink. */
function unionOf(guarantees: readonly GuaranteeAutomaton[]): Product {
  const edges: Ucw['edges'][number][] = [];
  const out: number[][] = [];
  const initial: number[] = [];
  const owner: number[] = [];
  let offset = 0;
  guarantees.forEach(({ ucw }, g) => {
    for (const q of ucw.initial) initial.push(q + offset);
    for (let q = 0; q < ucw.stateCount; q++) {
      out.push(ucw.out[q].map((i) => i + edges.length));
      owner.push(g);
    }
    for (const e of ucw.edges) edges.push({ ...e, from: e.from + offset, to: e.to + offset });
    offset += ucw.stateCount;
  });
  const ucw: Ucw = { stateCount: offset, initial, edges, out, terminal: false };
  const component = sccs(
    offset,
    out.map((es) => es.map((e) => edges[e].to)),
  );
  const counting = new Set<number>();
  for (const e of edges) if (e.rejecting && component[e.from] === component[e.to]) counting.add(component[e.from]);
  const sink = (q: number) => out[q].some((e) => edges[e].to === q && edges[e].guard === BDD_TRUE);
  return { ucw, open: Int32Array.from({ length: offset }, (_, q) => (counting.has(component[q]) && !sink(q) ? owner[q] : -1)) };
}

/**
 * Per idle transition with equivalents that is reachable, in the product with the automata, with
 * an eventuality open after its move: the guarantees open then (over every way to reach it).
 * Undefined when the budget ran out.
 */
function idleWhileOpen(
  machine: MealyMachine,
  byState: readonly (readonly number[])[],
  outputs: readonly Cube[],
  equivalents: ReadonlyMap<number, readonly Cube[]>,
  { ucw, open }: Product,
  tick: () => void,
): Map<number, Set<number>> | undefined {
  const found = new Map<number, Set<number>>();
  const seen = new Set<string>();
  const queue: [number, number[]][] = [];
  const visit = (state: number, tokens: number[]) => {
    const key = `${state}|${tokens.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([state, tokens]);
  };
  visit(machine.initial, [...new Set(ucw.initial)].sort((a, b) => a - b));
  const inputs = new Set(machine.inputs);
  // Per transition and BDD manager: its input cube and output as an assignment, built once (a
  // transition is followed from every product position of its state: building the letter anew
  // each time was most of this pass's time on Lights2_2c5b09da's 1,000-transition machines).
  const letters = new Map<number, Map<BddManager, Int8Array>>();
  const letterOf = (ti: number, bdd: BddManager): Int8Array => {
    let perManager = letters.get(ti);
    if (!perManager) letters.set(ti, (perManager = new Map()));
    let a = perManager.get(bdd);
    if (!a) perManager.set(bdd, (a = bdd.assignmentArray({ ...machine.transitions[ti].input, ...outputs[ti] })));
    return a;
  };
  for (let h = 0; h < queue.length; h++) {
    if (seen.size > MAX_PRODUCT) return undefined;
    tick();
    const [state, tokens] = queue[h];
    const edges = tokens.flatMap((q) => ucw.out[q]);
    // The inputs the active guards test: the letters that can make a difference.
    const tested = new Set<string>();
    for (const ei of edges) for (const name of support(ucw.edges[ei])) if (inputs.has(name)) tested.add(name);
    for (const ti of byState[state]) {
      const t = machine.transitions[ti];
      const free = [...tested].filter((name) => !(name in t.input));
      if (free.length > MAX_FREE_INPUTS) return undefined;
      for (let bits = 0; bits < 1 << free.length; bits++) {
        const next = new Set<number>();
        // One assignment per BDD manager (each guarantee's automaton has its own): the
        // transition's, with the free inputs set.
        const assignments = new Map<BddManager, Int8Array>();
        for (const ei of edges) {
          const e = ucw.edges[ei];
          let assignment = assignments.get(e.bdd);
          if (!assignment) {
            const base = letterOf(ti, e.bdd);
            assignment = free.length === 0 ? base : base.slice();
            for (let i = 0; i < free.length; i++) {
              const v = e.bdd.levels.get(free[i]);
              if (v !== undefined && v < assignment.length) assignment[v] = ((bits >> i) & 1) === 1 ? 1 : -1;
            }
            assignments.set(e.bdd, assignment);
          }
          if (e.bdd.compatibleWith(e.guard, assignment)) next.add(e.to);
        }
        const after = [...next].sort((a, b) => a - b);
        if (equivalents.has(ti))
          for (const q of after)
            if (open[q] >= 0) {
              let parts = found.get(ti);
              if (!parts) found.set(ti, (parts = new Set()));
              parts.add(open[q]);
            }
        visit(t.to, after);
      }
    }
  }
  return found;
}

const supportCache = new WeakMap<object, Map<number, readonly string[]>>();
/** The propositions an edge's guard depends on. */
function support(e: Ucw['edges'][number]): readonly string[] {
  let perManager = supportCache.get(e.bdd);
  if (!perManager) supportCache.set(e.bdd, (perManager = new Map()));
  let names = perManager.get(e.guard);
  if (!names) {
    const found = new Set<string>();
    const seen = new Set<number>();
    const stack = [e.guard];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n <= 1 || seen.has(n)) continue;
      seen.add(n);
      found.add(e.bdd.nodeVarName(n));
      stack.push(e.bdd.low(n), e.bdd.high(n));
    }
    perManager.set(e.guard, (names = [...found]));
  }
  return names;
}

/** Whether a formula asks for something eventually anywhere (`F`, `U`, `M`, or a negated `G`, `W`, `R`). */
export function hasEventuality(f: Formula): boolean {
  return eventualityUnder(f, true);
}

function eventualityUnder(f: Formula, positive: boolean): boolean {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
      return false;
    case 'not':
      return eventualityUnder(f.arg, !positive);
    case 'and':
    case 'or':
      return f.args.some((a) => eventualityUnder(a, positive));
    case 'implies':
      return eventualityUnder(f.left, !positive) || eventualityUnder(f.right, positive);
    case 'iff':
    case 'xor':
      return [f.left, f.right].some((a) => eventualityUnder(a, true) || eventualityUnder(a, false));
    case 'X':
      return eventualityUnder(f.arg, positive);
    case 'F':
      return positive || eventualityUnder(f.arg, positive);
    case 'G':
      return !positive || eventualityUnder(f.arg, positive);
    case 'U':
    case 'M':
      return positive || eventualityUnder(f.left, positive) || eventualityUnder(f.right, positive);
    case 'W':
    case 'R':
      return !positive || eventualityUnder(f.left, positive) || eventualityUnder(f.right, positive);
  }
}
