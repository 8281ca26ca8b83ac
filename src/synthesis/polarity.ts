/**
 * Propositions of one polarity, fixed before solving (realizability is unchanged; Spot's ltlsynt
 * does the same by default, its `--polarity` option).
 *
 * In negation normal form every operator of LTL is monotone in its operands, so a spec φ in which
 * an input `i` occurs only positively can only get harder for the controller when `i` is false:
 * φ[i := false] implies φ on every trace. The environment loses nothing by always playing `i`
 * false, and a controller for φ[i := false] (which never reads `i`) is one for φ. Dually an
 * output that occurs only positively may as well always be true, one that occurs only
 * negatively always false. Fixing one proposition can leave another with one polarity (its
 * other occurrences were under the first), so this repeats until nothing changes.
 *
 * Polarity is read off the whole formula as `specFormula` combines it (`I → (P ∧ sig ∧ (A →
 * G))`): assumptions and INITIALLY count negated, and the signal rule puts every update of a
 * signal with two or more updates under both polarities, so TSL updates are never fixed (a
 * signal with a single update is that update always, which is what fixing it says).
 *
 * The witnesses of the simplified spec are lifted back (`liftController`,
 * `liftCounterstrategy`): a controller gets the fixed outputs in every transition and leaves the
 * fixed inputs unread; a counterstrategy plays the fixed inputs and ignores the fixed outputs
 * (any other value of an output is only worse for the controller). Both are then checked
 * against the original spec like every other witness.
 */
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { MealyMachine } from '../game/mealy.js';
import { type GameSpec, type SpecPart, specFormula } from '../game/spec.js';
import { children, FALSE, type Formula, mapFormula, TRUE } from '../ltl/formula.js';

/** The propositions fixed, with their values (inputs worst for the controller, outputs best). */
export interface FixedPropositions {
  readonly inputs: ReadonlyMap<string, boolean>;
  readonly outputs: ReadonlyMap<string, boolean>;
}

/** Rounds of fixing before giving up on a fixpoint (each round fixes at least one proposition). */
const MAX_ROUNDS = 64;

/** Occurrence polarity of a subformula's propositions: under an even or odd number of negations, or both. */
const POSITIVE = 1;
const NEGATIVE = 2;
const BOTH = POSITIVE | NEGATIVE;

/**
 * The polarities each proposition occurs with in `f` (bits POSITIVE/NEGATIVE). Iterative, with one
 * visit per (node, polarity): formulas are DAGs, and TLSF's `X[n]` nests them deep.
 */
export function polarities(f: Formula): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new Set<number>();
  const stack: Array<[Formula, number]> = [[f, POSITIVE]];
  while (stack.length > 0) {
    const [g, p] = stack.pop()!;
    const key = g.id * 4 + p;
    if (seen.has(key)) continue;
    seen.add(key);
    switch (g.kind) {
      case 'true':
      case 'false':
        break;
      case 'ap':
        out.set(g.name, (out.get(g.name) ?? 0) | p);
        break;
      case 'not':
        stack.push([g.arg, flip(p)]);
        break;
      case 'implies':
        stack.push([g.left, flip(p)], [g.right, p]);
        break;
      case 'iff':
        stack.push([g.left, BOTH], [g.right, BOTH]);
        break;
      default:
        // ∧, ∨ and every temporal operator (X, F, G, U, W, R, M) are monotone in each operand.
        for (const c of children(g)) stack.push([c, p]);
    }
  }
  return out;
}

function flip(p: number): number {
  return p === BOTH ? BOTH : p ^ BOTH;
}

/**
 * The spec with its single-polarity propositions fixed and removed, or undefined when it has
 * none. Parts that become `true` are dropped (INITIALLY's stay); fixed inputs and outputs leave
 * the spec's lists.
 */
export function fixSinglePolarity(spec: GameSpec): { spec: GameSpec; fixed: FixedPropositions } | undefined {
  const inputs = new Set(spec.inputs.map((p) => p.name));
  const fixedInputs = new Map<string, boolean>();
  const fixedOutputs = new Map<string, boolean>();
  let current = spec;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const now = new Map<string, boolean>();
    for (const [name, p] of polarities(specFormula(current))) {
      if (p === BOTH) continue;
      // Inputs: the value that makes their literals false; outputs: the one that makes them true.
      const value = inputs.has(name) ? p === NEGATIVE : p === POSITIVE;
      now.set(name, value);
      (inputs.has(name) ? fixedInputs : fixedOutputs).set(name, value);
    }
    if (now.size === 0) break;
    current = substitute(current, now);
  }
  if (fixedInputs.size === 0 && fixedOutputs.size === 0) return undefined;
  return { spec: current, fixed: { inputs: fixedInputs, outputs: fixedOutputs } };
}

function substitute(spec: GameSpec, values: ReadonlyMap<string, boolean>): GameSpec {
  const memo = new Map<number, Formula>();
  const rewrite = (f: Formula): Formula => {
    let r = memo.get(f.id);
    if (r === undefined) {
      r = mapFormula(f, (node, rebuilt) => {
        if (node.kind !== 'ap') return rebuilt;
        const v = values.get(node.name);
        return v === undefined ? rebuilt : v ? TRUE : FALSE;
      });
      memo.set(f.id, r);
    }
    return r;
  };
  const rewritten = (list: readonly SpecPart[]) => list.map((p) => ({ ...p, formula: rewrite(p.formula) }));
  const parts = (list: readonly SpecPart[]) => rewritten(list).filter((p) => p.formula !== TRUE);
  return {
    ...spec,
    inputs: spec.inputs.filter((p) => !values.has(p.name)),
    outputs: spec.outputs.filter((p) => !values.has(p.name)),
    // Only a signal with a single update can have it fixed (see the header): that signal goes.
    signals: spec.signals.filter((g) => !g.updates.some((u) => values.has(u))),
    // INITIALLY parts stay, even as `true`: whether a spec has one decides whether its
    // counterstrategies may leave out outputs that break a signal (an INITIALLY part could excuse
    // them), and the lifted counterstrategy is checked against the original spec.
    initially: rewritten(spec.initially),
    preset: parts(spec.preset),
    assumptions: parts(spec.assumptions),
    guarantees: parts(spec.guarantees),
  };
}

/** A controller of the simplified spec as one of `original`: fixed outputs set in every transition. */
export function liftController(m: MealyMachine, original: GameSpec, fixed: FixedPropositions): MealyMachine {
  const constant = Object.fromEntries(fixed.outputs);
  return {
    ...m,
    inputs: original.inputs.map((p) => p.name),
    outputs: original.outputs.map((p) => p.name),
    transitions: m.transitions.map((t) => ({ ...t, output: { ...t.output, ...constant } })),
  };
}

/** A counterstrategy of the simplified spec as one of `original`: fixed inputs played in every step. */
export function liftCounterstrategy(cs: Counterstrategy, original: GameSpec, fixed: FixedPropositions): Counterstrategy {
  const constant = Object.fromEntries(fixed.inputs);
  return {
    ...cs,
    inputs: original.inputs.map((p) => p.name),
    outputs: original.outputs.map((p) => p.name),
    transitions: cs.transitions.map((t) => ({ ...t, input: { ...t.input, ...constant } })),
  };
}
