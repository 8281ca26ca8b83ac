/**
 * Mealy machines: the controllers we synthesize, read from external tools, verify and compile.
 *
 * One transition is: in state `from`, when the inputs match the `input` cube, emit any output
 * valuation matching the `output` cube and go to `to`. Cubes are partial assignments; a missing
 * input means "either value", a missing output means "the controller may pick either". The
 * verifier treats output freedom universally (every completion must satisfy the spec), so code
 * generation may choose any completion — it prefers self-updates to save LLM calls.
 *
 * Per state the input cubes must cover every input valuation (input-complete). Overlapping input
 * cubes are allowed (HOA strategies from external tools have them); the verifier checks every
 * matching transition.
 */

/** Partial assignment: proposition name → value; absent = unconstrained. */
export type Cube = Readonly<Record<string, boolean>>;

export interface MealyTransition {
  readonly from: number;
  readonly input: Cube;
  readonly output: Cube;
  readonly to: number;
}

export interface MealyMachine {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly stateCount: number;
  readonly initial: number;
  readonly transitions: readonly MealyTransition[];
}

export function transitionsFrom(m: MealyMachine): MealyTransition[][] {
  const out: MealyTransition[][] = Array.from({ length: m.stateCount }, () => []);
  for (const t of m.transitions) out[t.from].push(t);
  return out;
}

/** A cube's identity: its literals in name order (JSON: names may contain any character, `&` too). */
export function cubeKey(cube: Cube): string {
  return JSON.stringify(Object.keys(cube).sort().map((n) => [n, cube[n]]));
}

export function cubeMatches(cube: Cube, value: (name: string) => boolean): boolean {
  for (const name in cube) if (value(name) !== cube[name]) return false;
  return true;
}
