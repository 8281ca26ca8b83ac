import { progress } from '../../src/ltl/progress.js';
import { cubeMatches, type MealyMachine } from '../../src/game/mealy.js';
import type { GameSpec, SignalGroup } from '../../src/game/spec.js';
import { and, FALSE, type Formula } from '../../src/ltl/formula.js';
import { parseFormula } from '../../src/ltl/parse.js';
import type { TraceStep } from '../../src/synthesis/idle-turns.js';
import { mulberry32 } from '../../runtime/random.js';

export interface SmallSpec {
  readonly ins: readonly string[];
  /** Free boolean outputs. */
  readonly outs?: readonly string[];
  /** Signal name → its update propositions (the first is the self-update). */
  readonly signals?: Readonly<Record<string, readonly string[]>>;
  readonly assume?: readonly (string | Formula)[];
  readonly guarantee: readonly (string | Formula)[];
  readonly initially?: readonly (string | Formula)[];
  readonly semantics?: 'mealy' | 'moore';
}

const asFormula = (f: string | Formula) => (typeof f === 'string' ? parseFormula(f) : f);

export function gameOf(s: SmallSpec, name = 'test'): GameSpec {
  const signals: SignalGroup[] = Object.entries(s.signals ?? {}).map(([signal, updates]) => ({
    signal,
    updates,
    selfUpdate: updates[0],
  }));
  const outputs = [...(s.outs ?? []), ...signals.flatMap((g) => g.updates)];
  return {
    name,
    semantics: s.semantics ?? 'mealy',
    inputs: s.ins.map((name) => ({ name })),
    outputs: outputs.map((name) => ({ name })),
    signals,
    initially: (s.initially ?? []).map((f) => ({ formula: asFormula(f) })),
    preset: [],
    assumptions: (s.assume ?? []).map((f) => ({ formula: asFormula(f) })),
    guarantees: s.guarantee.map((f) => ({ formula: asFormula(f) })),
  };
}

/** Deterministic PRNG (mulberry32), so a failing random case can be replayed from its seed. */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

/**
 * Plays a Mealy controller against a random environment that never breaks INITIALLY or an
 * assumption: each turn the input letters are tried in a seeded random order and the first one
 * that, with the controller's answer, leaves the assumptions satisfiable by progression is played.
 * Returns each game's steps (inputs and outputs per turn), for `idleTurns`.
 */
export function playWithinAssumptions(spec: GameSpec, machine: MealyMachine, games: number, turns: number, seed = 1): TraceStep[][] {
  const random = rng(seed);
  const inputs = spec.inputs.map((i) => i.name);
  const letters = Array.from({ length: 1 << inputs.length }, (_, bits) => Object.fromEntries(inputs.map((name, i) => [name, ((bits >> i) & 1) === 1])));
  const played: TraceStep[][] = [];
  for (let game = 0; game < games; game++) {
    let state = machine.initial;
    let initially = and(...spec.initially.map((p) => p.formula));
    let assumptions = and(...spec.assumptions.map((p) => p.formula));
    const steps: TraceStep[] = [];
    for (let turn = 0; turn < turns; turn++) {
      const order = letters.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      let next: { step: TraceStep; to: number; initially: Formula; assumptions: Formula } | undefined;
      for (const i of order) {
        const letter = letters[i];
        const t = machine.transitions.find((tr) => tr.from === state && cubeMatches(tr.input, (name) => letter[name] === true));
        if (!t) throw new Error(`state ${state} has no transition for ${JSON.stringify(letter)}`);
        const outputs = Object.fromEntries(machine.outputs.map((o) => [o, t.output[o] === true]));
        const value = (name: string) => letter[name] === true || outputs[name] === true;
        const i2 = turn === 0 ? progress(initially, value) : initially;
        const a2 = progress(assumptions, value);
        if (i2 === FALSE || a2 === FALSE) continue;
        next = { step: { inputs: letter, outputs }, to: t.to, initially: i2, assumptions: a2 };
        break;
      }
      if (!next) break;
      steps.push(next.step);
      state = next.to;
      initially = next.initially;
      assumptions = next.assumptions;
    }
    played.push(steps);
  }
  return played;
}
