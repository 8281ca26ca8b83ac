/**
 * The hook to the independent checker (src/verify). Kept behind a function type so the external
 * runner can be tested with a stand-in checker, and imported lazily so `tslc check` in
 * realizability mode does not load the checker unless a controller needs checking.
 */
import type { GameSpec } from '../game/spec.js';
import type { MealyMachine } from '../game/mealy.js';

export type VerifyOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly kind: string; readonly message: string; readonly counterexample?: unknown };

export type ControllerVerifier = (spec: GameSpec, machine: MealyMachine) => VerifyOutcome | Promise<VerifyOutcome>;

/** The project's independent checker, imported on first use. */
export async function loadDefaultVerifier(): Promise<ControllerVerifier> {
  const mod = await import('../verify/index.js');
  return (spec, machine) => mod.verifyController(spec, machine);
}

/** Render a counterexample for a message: the checker's lasso format when it has that shape. */
export async function describeCounterexample(cex: unknown): Promise<string> {
  if (cex === undefined) return '';
  if (typeof cex === 'string') return cex;
  if (typeof cex === 'object' && cex !== null && Array.isArray((cex as { cycle?: unknown }).cycle)) {
    const mod = await import('../verify/index.js');
    return mod.formatCounterexample(cex as Parameters<typeof mod.formatCounterexample>[0]);
  }
  try {
    return JSON.stringify(cex);
  } catch {
    return String(cex);
  }
}
