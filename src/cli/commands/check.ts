/**
 * `tslc check <files…>` / `tslc check --ltl '<formula>' --ins … --outs …`: realizability per spec,
 * one stable line (or JSON object) each. `--synthesizer`/`--cross-check` hand over to
 * src/external (imported only then, with execa); everything else is the builtin engine in
 * check-builtin.ts, which the check fast path (src/cli/fast-check.ts) runs without this module.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import { list, runBuiltinCheck, timeoutSecondsOf } from './check-builtin.js';
import { usesExternalSynthesizer } from './check-options.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = list(args.files);
  const timeoutSeconds = timeoutSecondsOf(args);
  if (usesExternalSynthesizer(args)) {
    if (args.ltl !== undefined || args.compose)
      throw new UserError({ severity: 'error', message: '--synthesizer and --cross-check work on spec files only (not with --ltl or --compose)', code: 'usage' });
    if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
    const external = await import('./check-external.js');
    return external.runExternalCheck(files, args);
  }
  return runBuiltinCheck(args, timeoutSeconds);
}
