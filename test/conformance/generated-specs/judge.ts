/**
 * How the generated-spec conformance tests (TLSF and TSL) solve a spec and judge the answer: the
 * ways of solving it, each strategy checked by the independent checker, an internal error counted
 * as a problem, and the verdict compared with the reference.
 */
import type { GameSpec } from '../../../src/game/spec.js';
import { checkRealizability, synthesize, synthesizeController } from '../../../src/synthesis/index.js';
import { verifyController, verifyCounterstrategy } from '../../../src/verify/index.js';

export type Mode = 'check' | 'controller' | 'synthesize' | 'parity route' | 'bounded engine';
export const MODES: readonly Mode[] = ['check', 'controller', 'synthesize', 'parity route', 'bounded engine'];

/** The route a mode forces, if any. */
export function route(mode: Mode): 'parity' | 'bounded' | undefined {
  return mode === 'parity route' ? 'parity' : mode === 'bounded engine' ? 'bounded' : undefined;
}

/** Runs one mode; returns its verdict, and a problem (a failed check) as a string. */
function solve(mode: Mode, spec: GameSpec, timeoutMs: number): { verdict: string; problem?: string } {
  const options = { timeoutMs };
  if (mode === 'check') return { verdict: checkRealizability(spec, options).verdict };
  if (mode === 'controller') {
    const r = synthesizeController(spec, options);
    if (r.verdict !== 'realizable') return { verdict: r.verdict };
    const checked = verifyController(spec, r.controller);
    return { verdict: r.verdict, ...(checked.ok ? {} : { problem: `controller fails the check: ${checked.message}` }) };
  }
  const forced = route(mode);
  const r = synthesize(spec, { ...options, ...(forced ? { route: forced } : {}) });
  if (r.verdict === 'unknown') return { verdict: r.verdict };
  const checked = r.verdict === 'realizable' ? verifyController(spec, r.controller) : verifyCounterstrategy(spec, r.counterstrategy);
  return { verdict: r.verdict, ...(checked.ok ? {} : { problem: `${r.verdict === 'realizable' ? 'controller' : 'counterstrategy'} fails the check: ${checked.message}` }) };
}

/**
 * Solves `spec` (named `id` in messages) one way and judges it against `expected`: `agree`,
 * `unknown`, or `wrong`/`error`, with every problem (a contradiction, a failed check, an internal
 * error such as a controller the solver's own check refused) pushed onto `problems`.
 */
export function judge(
  mode: Mode,
  id: string,
  spec: GameSpec,
  expected: 'realizable' | 'unrealizable',
  timeoutMs: number,
  problems: string[],
): 'agree' | 'unknown' | 'wrong' | 'error' {
  let outcome: { verdict: string; problem?: string };
  try {
    outcome = solve(mode, spec, timeoutMs);
  } catch (err) {
    problems.push(`${id} (${mode}): internal error: ${(err as Error).message}`);
    return 'error';
  }
  if (outcome.problem) problems.push(`${id} (${mode}): ${outcome.problem}`);
  if (outcome.verdict === 'unknown') return 'unknown';
  if (outcome.verdict === expected) return 'agree';
  problems.push(`${id}: tslc (${mode}) says ${outcome.verdict}, ltlsynt says ${expected}`);
  return 'wrong';
}
