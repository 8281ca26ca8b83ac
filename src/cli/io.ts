/**
 * Small I/O helpers shared by commands: reading spec files with clear errors, printing
 * diagnostics (with source and caret) or JSON, and whether stdout/stderr may use colour. The
 * source registry itself is src/diagnostics/sources.ts, shared with the library.
 */
import { UserError } from '../diagnostics/diagnostic.js';
import { isStdinPath, STDIN_PATH } from '../diagnostics/read-input.js';

export { diagnosticsToJson, loadSourceFor, readUserFile, registerSource, renderDiagnostics } from '../diagnostics/sources.js';

/**
 * The command line with each lone `-` (before a `--`) replaced by `STDIN_PATH`: yargs drops a `-`
 * from array positionals and turns it into '' elsewhere (yargs/yargs-parser#381), so every command
 * sees standard input under one name. Words after `--` belong to another program.
 */
export function markStdinArguments(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((a, i) => (a === '-' && (end < 0 || i < end) ? STDIN_PATH : a));
}

/** Refuse standard input for an argument of a command that needs a file (or stdin itself). */
export function refuseStdin(path: string, why: string): void {
  if (isStdinPath(path)) throw new UserError({ severity: 'error', message: `standard input (-) cannot be used here: ${why}`, code: 'usage' });
}

/** `--import-root DIR` (every command that reads TSL imports), or undefined when not given. */
export function importRootArg(args: Record<string, unknown>): string | undefined {
  const root = args['import-root'];
  if (root === undefined) return undefined;
  if (typeof root !== 'string' || root === '')
    throw new UserError({ severity: 'error', message: '--import-root expects one directory', code: 'usage' });
  return root;
}

/** Colour for a stream that `isTerminal`, unless NO_COLOR or CI is set. */
export function useColor(isTerminal: boolean): boolean {
  return isTerminal && !process.env.NO_COLOR && process.env.CI === undefined;
}
