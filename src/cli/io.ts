/**
 * Small I/O helpers shared by commands: reading spec files with clear errors, printing
 * diagnostics (with source and caret) or JSON, and whether stdout/stderr may use colour. The
 * source registry itself is src/diagnostics/sources.ts, shared with the library.
 */
import { UserError } from '../diagnostics/diagnostic.js';

export { diagnosticsToJson, loadSourceFor, readUserFile, registerSource, renderDiagnostics } from '../diagnostics/sources.js';

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
