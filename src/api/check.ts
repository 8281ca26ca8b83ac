/**
 * `check`: realizability of specs — files, in-memory sources or LTL formulas — one verdict each,
 * with the front end's warnings, an explanation of each unrealizable spec, and the exit code
 * `tslc check` gives. `checkEach` yields the verdicts one by one, as the CLI prints them.
 * The builtin engine is check-builtin.ts; an external back end (`synthesizer`) is
 * check-external.ts, imported only when asked for.
 */
import { UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { checkEachBuiltin } from './check-builtin.js';
import { isFormula, type SpecSource } from './inputs.js';
import { type CheckInput, type CheckOptions, type CheckResult, combinedExitCode, inputList, type SpecVerdict } from './verdict.js';

export type { CheckInput, CheckOptions, CheckResult, SpecVerdict, Verdict } from './verdict.js';

/** Checks every input; never throws for bad input (see `errors` and each spec's verdict). */
export async function check(inputs: CheckInput | readonly CheckInput[], options: CheckOptions = {}): Promise<CheckResult> {
  const specs: SpecVerdict[] = [];
  try {
    for await (const v of checkEach(inputs, options)) specs.push(v);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return { specs, errors: err.diagnostics, warnings: specs.flatMap((s) => s.warnings), exitCode: ExitCode.inputError };
  }
  return {
    specs,
    errors: specs.flatMap((s) => s.errors),
    warnings: specs.flatMap((s) => s.warnings),
    exitCode: combinedExitCode(specs.map((s) => s.exitCode)),
  };
}

/**
 * The verdicts one by one, in input order (then the composition). Throws `UserError` for unusable
 * options (no inputs, a bad timeout, an external back end with a formula) before checking anything.
 */
export async function* checkEach(inputs: CheckInput | readonly CheckInput[], options: CheckOptions = {}): AsyncGenerator<SpecVerdict> {
  if (options.synthesizer === undefined || options.synthesizer === 'builtin') {
    yield* checkEachBuiltin(inputs, options);
    return;
  }
  const list = inputList(inputs);
  if (options.compose || list.some(isFormula))
    throw new UserError({ severity: 'error', message: '--synthesizer works on spec files only (not with --ltl or --compose)', code: 'usage' });
  const { checkEachExternally } = await import('./check-external.js');
  yield* checkEachExternally(list as readonly SpecSource[], options);
}
