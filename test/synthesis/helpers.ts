import type { GameSpec, SignalGroup } from '../../src/game/spec.js';
import { parseFormula } from '../../src/ltl/parse.js';
import type { Formula } from '../../src/ltl/formula.js';

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
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
