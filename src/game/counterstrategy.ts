/**
 * Counterstrategies: the environment's side of an unrealizable specification.
 *
 * A counterstrategy is a finite-state environment that defeats every controller. For Mealy
 * specifications (the controller sees the current input) the environment must commit to its
 * input before seeing the step's outputs, so each state plays one input valuation (`moves`) and
 * then moves on according to the outputs the controller answered with. For Moore specifications
 * the environment sees the step's outputs first, so the input is chosen per transition.
 *
 * Outputs that break a TSL signal's exactly-one-update rule violate the specification by
 * themselves; when `signalsEnforced` is set the transitions do not cover them (a replay must
 * respect the signal groups).
 */
import type { Cube } from './mealy.js';

export interface CounterstrategyTransition {
  readonly from: number;
  /** Outputs of this step the transition applies to (partial: missing = either value). */
  readonly output: Cube;
  /** The environment's input in this step (complete over the inputs). */
  readonly input: Cube;
  readonly to: number;
}

export interface Counterstrategy {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly stateCount: number;
  readonly initial: number;
  /** True when the environment picks its input after seeing the outputs (Moore specs). */
  readonly seesCurrentOutputs: boolean;
  /** Whether output valuations that break a signal's exactly-one rule are left uncovered. */
  readonly signalsEnforced: boolean;
  readonly transitions: readonly CounterstrategyTransition[];
}

/** The environment's move and successor in `state` when the controller answers with `output`. */
export function counterstrategyStep(
  cs: Counterstrategy,
  state: number,
  output: (name: string) => boolean,
): { input: Cube; next: number } | undefined {
  for (const t of cs.transitions) {
    if (t.from !== state) continue;
    let ok = true;
    for (const name in t.output) if (output(name) !== t.output[name]) ok = false;
    if (ok) return { input: t.input, next: t.to };
  }
  return undefined;
}

/** For Mealy specs: the input the environment commits to in `state` (before seeing outputs). */
export function committedInput(cs: Counterstrategy, state: number): Cube | undefined {
  if (cs.seesCurrentOutputs) return undefined;
  return cs.transitions.find((t) => t.from === state)?.input;
}
