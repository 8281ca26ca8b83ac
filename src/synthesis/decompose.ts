/**
 * Decomposition into independent games. Conjuncts are grouped by the propositions they share
 * (union–find over inputs and signals; a TSL signal's updates stay together): two groups share no
 * input and no output, so the spec is realizable iff every group is, and the controller is the
 * product of the groups' controllers. Smart-home style specs with dozens of unrelated guarantees
 * fall apart into many small games this way.
 *
 * A group's "unrealizable" carries over to the whole spec only when the environment can satisfy
 * every other group's assumptions on its own — here: when those assumptions mention no outputs
 * and each group's are satisfiable together. Otherwise the caller solves the whole spec instead.
 */
import { BddManager } from '../automata/bdd.js';
import { acceptsSomeWord } from '../automata/emptiness.js';
import { TimeoutError } from '../automata/deadline.js';
import { translateLtlSymbolic } from '../automata/translate.js';
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { Cube, MealyMachine, MealyTransition } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import { type GameSpec, inputNames, outputNames, type SignalGroup, type SpecPart } from '../game/spec.js';
import { and, atoms, conjuncts, type Formula } from '../ltl/formula.js';
import { minimizeMealy } from './extract.js';

export interface DecomposedPart {
  readonly spec: GameSpec;
  /** Whether "unrealizable" for this part means "unrealizable" for the whole spec. */
  readonly conclusive: boolean;
  /**
   * Whether the part's counterstrategy also defeats every controller of the whole spec (no
   * assumptions outside the part that the environment would additionally have to satisfy).
   */
  readonly counterstrategyCarries: boolean;
}


class UnionFind {
  private readonly parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p !== x) {
      p = this.find(p);
      this.parent.set(x, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

/** States of the automaton of one class's assumptions before `decompose` stops and says "not keepable". */
const KEEPABLE_MAX_STATES = 2000;

/**
 * `tick`: the solver's clock poll (it throws to end the run), also called inside the translations
 * of environment assumptions (`envKeeps`): a class of ten `G(r ∧ aᵢ → F sᵢ)` assumptions is a
 * product of a thousand states that took 20 to 30 s, unpolled, against a 0.5 s time limit.
 */
export function decompose(spec: GameSpec, tick: () => void = () => {}): { parts: DecomposedPart[] } | undefined {
  const outputs = new Set(outputNames(spec));
  const inputs = new Set(inputNames(spec));
  // INITIALLY conditions apply to everything; keep such specs whole.
  if (spec.initially.length > 0) return undefined;
  const unitOf = new Map<string, string>();
  for (const g of spec.signals) for (const u of g.updates) unitOf.set(u, `signal:${g.signal}`);
  const node = (name: string) => (inputs.has(name) ? `in:${name}` : (unitOf.get(name) ?? `out:${name}`));
  const uf = new UnionFind();
  type Item = { formula: Formula; kind: 'guarantee' | 'preset' | 'assumption'; part: SpecPart };
  const items: Item[] = [];
  for (const [kind, parts] of [
    ['preset', spec.preset],
    ['guarantee', spec.guarantees],
    ['assumption', spec.assumptions],
  ] as const)
    for (const part of parts) for (const formula of conjuncts(part.formula)) items.push({ formula, kind, part });
  const keyOf = (f: Formula): string | undefined => {
    const names = [...atoms(f)].map(node);
    for (let i = 1; i < names.length; i++) uf.union(names[0], names[i]);
    return names[0];
  };
  const anchors = items.map((it) => keyOf(it.formula));
  // Every signal is one unit (its updates are linked even when no formula links them).
  for (const g of spec.signals) for (const u of g.updates) uf.find(node(u));
  const classes = new Map<string, Item[]>();
  const constants: Item[] = [];
  items.forEach((it, i) => {
    const a = anchors[i];
    if (a === undefined) {
      constants.push(it);
      return;
    }
    const root = uf.find(a);
    let list = classes.get(root);
    if (!list) classes.set(root, (list = []));
    list.push(it);
  });
  // Constant conjuncts (true/false without propositions) are rare; keep such specs whole.
  if (constants.length > 0) return undefined;
  const withGoals = [...classes.entries()].filter(([, list]) => list.some((it) => it.kind !== 'assumption'));
  if (withGoals.length <= 1) return undefined;

  // Whether the environment can keep a class's assumptions on its own: they mention only inputs
  // and are satisfiable together (each one satisfiable is not enough: `F G i` and `F G ¬i` are,
  // not both — seed 3003's gen-293 of the generated specs, realizable because of that, was called
  // unrealizable by a part). Classes share no input, so classes can be kept independently, and
  // the environment plays a part's counterstrategy beside them. A translation past its cap
  // answers no: the part's "unrealizable" then sends the solver to the whole spec.
  const keepable = new Map<string, boolean>();
  const envKeeps = (root: string, list: readonly Item[]): boolean => {
    let known = keepable.get(root);
    if (known !== undefined) return known;
    const assumed = list.filter((it) => it.kind === 'assumption').map((it) => it.formula);
    known = assumed.length === 0;
    if (!known && assumed.every((f) => [...atoms(f)].every((a) => inputs.has(a)))) {
      try {
        // A size cap, not a time slice: whether a class is keepable must not depend on the machine.
        // Running out of time throws the solver's own timeout (never a TimeoutError), which ends the run.
        known = acceptsSomeWord(translateLtlSymbolic(and(...assumed), new BddManager(), { maxStates: KEEPABLE_MAX_STATES, tick }));
      } catch (err) {
        if (!(err instanceof TimeoutError)) throw err;
      }
    }
    keepable.set(root, known);
    return known;
  };
  const othersKeepable = (root: string) => [...classes.entries()].every(([r, list]) => r === root || envKeeps(r, list));
  const assumptionsOutside = (root: string) =>
    [...classes.entries()].filter(([r]) => r !== root).flatMap(([, list]) => list.filter((it) => it.kind === 'assumption'));

  const parts: Array<DecomposedPart & { size: number }> = withGoals.map(([root, list], index) => {
    const props = new Set(list.flatMap((it) => [...atoms(it.formula)]));
    const signals: SignalGroup[] = spec.signals.filter((g) => uf.find(node(g.updates[0])) === root);
    const partOutputs = new Set([...signals.flatMap((g) => g.updates), ...[...props].filter((p) => outputs.has(p))]);
    const of = (kind: Item['kind']) => list.filter((it) => it.kind === kind).map((it) => ({ ...it.part, formula: it.formula }));
    const sub: GameSpec = {
      ...spec,
      name: `${spec.name}#${index + 1}`,
      inputs: spec.inputs.filter((p) => props.has(p.name)),
      outputs: spec.outputs.filter((p) => partOutputs.has(p.name)),
      signals,
      preset: of('preset'),
      assumptions: of('assumption'),
      guarantees: of('guarantee'),
    };
    const outside = assumptionsOutside(root);
    return {
      spec: sub,
      conclusive: othersKeepable(root),
      counterstrategyCarries: outside.length === 0,
      size: list.length,
    };
  });
  // Small parts first: a quick "unrealizable" ends the search early.
  parts.sort((x, y) => x.size - y.size);
  return { parts };
}

/**
 * A part's counterstrategy as one for the whole spec (where it carries: `counterstrategyCarries`).
 * The part plays only its own inputs; the others are played false in every step (any fixed value
 * does: the part's conjuncts do not read them and no other part's assumption has to be kept), so
 * that the strategy answers for every input of the spec, as a counterstrategy must. Its
 * transitions already leave the other parts' outputs open (either value).
 */
export function widenCounterstrategy(cs: Counterstrategy, inputs: readonly string[], outputs: readonly string[]): Counterstrategy {
  const missing = inputs.filter((name) => !cs.inputs.includes(name));
  if (missing.length === 0 && outputs.length === cs.outputs.length) return cs;
  const fixed = dict(missing.map((name) => [name, false] as const));
  return {
    ...cs,
    inputs: [...inputs],
    outputs: [...outputs],
    transitions: cs.transitions.map((t) => ({ ...t, input: mergeDicts(t.input, fixed) })),
  };
}

/**
 * The synchronous product of controllers over disjoint outputs (and any inputs): every part
 * reacts to the same input, outputs are combined; outputs no part controls take `idle`.
 * Minimized after each factor so intermediate products stay small.
 */
export function productOfControllers(
  inputs: readonly string[],
  outputs: readonly string[],
  parts: readonly MealyMachine[],
  idle: Cube,
  tick: () => void,
  maxTransitions = 400_000,
): MealyMachine {
  let acc: MealyMachine = {
    inputs,
    outputs,
    stateCount: 1,
    initial: 0,
    transitions: [{ from: 0, input: dict(), output: mergeDicts(idle), to: 0 }],
  };
  const sorted = [...parts].sort((a, b) => a.transitions.length - b.transitions.length);
  for (const m of sorted) {
    acc = minimizeMealy(product2(acc, m, tick, maxTransitions));
  }
  return acc;
}

function product2(a: MealyMachine, b: MealyMachine, tick: () => void, maxTransitions: number): MealyMachine {
  const fromA: MealyTransition[][] = Array.from({ length: a.stateCount }, () => []);
  const fromB: MealyTransition[][] = Array.from({ length: b.stateCount }, () => []);
  for (const t of a.transitions) fromA[t.from].push(t);
  for (const t of b.transitions) fromB[t.from].push(t);
  const index = new Map<number, number>();
  const pairs: Array<[number, number]> = [];
  const idOf = (x: number, y: number) => {
    const key = x * b.stateCount + y;
    let id = index.get(key);
    if (id === undefined) {
      id = pairs.length;
      index.set(key, id);
      pairs.push([x, y]);
    }
    return id;
  };
  idOf(a.initial, b.initial);
  const transitions: MealyTransition[] = [];
  for (let h = 0; h < pairs.length; h++) {
    const [x, y] = pairs[h];
    for (const ta of fromA[x])
      for (const tb of fromB[y]) {
        tick();
        const input = meet(ta.input, tb.input);
        if (!input) continue;
        transitions.push({ from: h, input, output: mergeDicts(ta.output, tb.output), to: idOf(ta.to, tb.to) });
        if (transitions.length > maxTransitions) throw new ControllerTooLarge();
      }
  }
  return { inputs: a.inputs, outputs: a.outputs, stateCount: pairs.length, initial: 0, transitions };
}

export class ControllerTooLarge extends Error {
  constructor() {
    super('controller too large');
  }
}

function meet(x: Cube, y: Cube): Cube | undefined {
  const out = mergeDicts(x);
  for (const k in y) {
    if (Object.hasOwn(out, k) && out[k] !== y[k]) return undefined;
    out[k] = y[k];
  }
  return out;
}
