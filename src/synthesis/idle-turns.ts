/**
 * Idle turns of a played controller: turns in which every output keeps its value (each signal
 * takes its self-update, every free boolean output stays false) while an obligation of the spec
 * is pending. This is what the strategy choice (extract.ts, progress.ts) tries to avoid; the
 * measure is computed on traces, independently of the solver, by LTL progression.
 *
 * An obligation is pending at a turn when the controller's obligations (PRESET and guarantees),
 * progressed through the turns before, would still have an eventuality open (`F`, `U`, `M`, or a
 * negated `G`, `W`, `R`) after the turn's inputs with idle outputs: idling would leave something
 * the spec asks for undone. Only the turns before the environment first broke an assumption (or
 * INITIALLY) are examined, since from there on the spec promises nothing.
 */
import { type Letter, progress } from '../ltl/progress.js';
import type { GameSpec } from '../game/spec.js';
import { and, FALSE, type Formula } from '../ltl/formula.js';

export interface TraceStep {
  /** Every input proposition's value at this turn. */
  readonly inputs: Readonly<Record<string, boolean>>;
  /** Every output proposition's value at this turn (TSL: true exactly for the chosen updates). */
  readonly outputs: Readonly<Record<string, boolean>>;
}

export interface IdleTurnReport {
  /** Turns examined: those before the environment first broke an assumption. */
  readonly turns: number;
  /** Examined turns with an obligation pending. */
  readonly pending: number;
  /** Examined turns (0-based) in which every output kept its value while an obligation was pending. */
  readonly idle: readonly number[];
  /** The turn at which the inputs first broke INITIALLY or an assumption, if they did. */
  readonly assumptionsBrokenAt?: number;
}

export function idleTurns(spec: GameSpec, steps: readonly TraceStep[]): IdleTurnReport {
  const grouped = new Set(spec.signals.flatMap((g) => g.updates));
  const freeOutputs = spec.outputs.map((o) => o.name).filter((o) => !grouped.has(o));
  /** The outputs of an idle turn, except for signals without a self-update (they cannot idle). */
  const idleOutputs = (actual: Readonly<Record<string, boolean>>): Record<string, boolean> => {
    const out: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
    for (const g of spec.signals) for (const u of g.updates) out[u] = g.selfUpdate === undefined ? actual[u] === true : u === g.selfUpdate;
    for (const o of freeOutputs) out[o] = false;
    return out;
  };
  const isIdle = (actual: Readonly<Record<string, boolean>>): boolean =>
    spec.signals.every((g) => g.selfUpdate !== undefined && actual[g.selfUpdate] === true) && freeOutputs.every((o) => actual[o] !== true);
  const letterOf =
    (...parts: Readonly<Record<string, boolean>>[]): Letter =>
    (name) =>
      parts.some((p) => Object.hasOwn(p, name) && p[name] === true);

  let initially: Formula = and(...spec.initially.map((p) => p.formula));
  let assumptions: Formula = and(...spec.assumptions.map((p) => p.formula));
  let obligations: Formula = and(...spec.preset.map((p) => p.formula), ...spec.guarantees.map((p) => p.formula));
  const idle: number[] = [];
  let pending = 0;
  for (let t = 0; t < steps.length; t++) {
    const { inputs, outputs } = steps[t];
    const letter = letterOf(inputs, outputs);
    if (t === 0) initially = progress(initially, letter);
    assumptions = progress(assumptions, letter);
    if (initially === FALSE || assumptions === FALSE) return { turns: t, pending, idle, assumptionsBrokenAt: t };
    if (hasOpenEventuality(progress(obligations, letterOf(inputs, idleOutputs(outputs))))) {
      pending++;
      if (isIdle(outputs)) idle.push(t);
    }
    obligations = progress(obligations, letter);
  }
  return { turns: steps.length, pending, idle };
}

/** Whether the formula has an eventuality that must be met from now on (outside `X`, `G`, …). */
export function hasOpenEventuality(f: Formula, positive = true): boolean {
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
    case 'X':
      return false;
    case 'not':
      return hasOpenEventuality(f.arg, !positive);
    case 'and':
    case 'or':
      return f.args.some((a) => hasOpenEventuality(a, positive));
    case 'implies':
      return hasOpenEventuality(f.left, !positive) || hasOpenEventuality(f.right, positive);
    case 'iff':
    case 'xor':
      return [f.left, f.right].some((a) => hasOpenEventuality(a, true) || hasOpenEventuality(a, false));
    case 'F':
    case 'U':
    case 'M':
      return positive;
    case 'G':
    case 'W':
    case 'R':
      return !positive;
  }
}
