/**
 * The `tslc check` fast path: a plain check with the builtin engine, without the command registry,
 * yargs or src/external. `npm run build` also bundles this module and what it imports into one
 * script with a V8 code cache (scripts/bundle-check.mjs, run by src/cli/bundle-runner.ts), because
 * `tslc check` runs once per spec in CI and most of a small spec's time is start-up.
 *
 * `fastCheck` returns undefined, having done nothing, for anything else (help, another command,
 * arguments the fast parser cannot read exactly, an external back end); the caller then runs the
 * full CLI, which gives the same answers and messages.
 */
import { CHECK_OPTIONS, usesExternalSynthesizer } from './commands/check-options.js';
import { runBuiltinCheck } from './commands/check-builtin.js';
import { reportError } from './errors.js';
import { parseFast } from './fast-args.js';
import { useDirectOutput } from './out.js';

export { allOutputWritten } from './out.js';

/** The exit code of `tslc <argv…>` when it is a plain builtin check, else undefined. */
export async function fastCheck(argv: readonly string[]): Promise<number | undefined> {
  if (argv[0] !== 'check' || argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return undefined;
  const args = parseFast('check', argv.slice(1), CHECK_OPTIONS);
  if (args === undefined || usesExternalSynthesizer(args)) return undefined;
  useDirectOutput();
  try {
    return await runBuiltinCheck(args);
  } catch (err) {
    return reportError(err, Boolean(args.json));
  }
}
