/**
 * Small I/O helpers shared by commands: reading spec files with clear errors, printing
 * diagnostics (with source and caret) or JSON, and whether stdout/stderr may use colour.
 */
import { readFileSync, statSync } from 'node:fs';
import { type Diagnostic, formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';
import { InputReadError, isStdinPath, readInputFile, STDIN_PATH } from '../frontend/read-input.js';

const sources = new Map<string, string>();

/**
 * Read a file named on the command line (`-` is standard input), at most `MAX_INPUT_BYTES`; a
 * missing, unreadable, oversized or unsuitable file (directory, device) is a user error, not a
 * crash or a hang.
 */
export function readUserFile(path: string): string {
  try {
    const text = readInputFile(path);
    sources.set(path, text);
    return text;
  } catch (err) {
    if (err instanceof InputReadError) throw new UserError({ severity: 'error', message: err.message, code: 'io' });
    throw err;
  }
}

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

/** Remember a file's text so diagnostics pointing into it can show the line. */
export function registerSource(path: string, text: string): void {
  sources.set(path, text);
}

/** Each diagnostic, and each of its notes, with the source line of the file it points into. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const render = (d: Diagnostic): string =>
    [formatDiagnostic({ ...d, notes: undefined }, d.span ? sources.get(d.span.file) : undefined), ...(d.notes ?? []).map(render)].join('\n');
  return diagnostics.map(render).join('\n');
}

/** Source files larger than this are not read again just to show a line under a diagnostic. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/**
 * Reads a file a diagnostic points into (e.g. one a worker thread checked), so its line can be
 * shown — only a regular file of sensible size: never a pipe or a device.
 */
export function loadSourceFor(path: string): void {
  try {
    const stats = statSync(path);
    if (stats.isFile() && stats.size <= MAX_SOURCE_BYTES) sources.set(path, readFileSync(path, 'utf8'));
  } catch {
    // Vanished or unreadable: the diagnostic prints without its source line.
  }
}

export function diagnosticsToJson(diagnostics: readonly Diagnostic[]): unknown {
  return diagnostics.map((d) => ({
    severity: d.severity,
    message: d.message,
    code: d.code,
    file: d.span?.file,
    line: d.span?.line,
    col: d.span?.col,
    length: d.span?.length,
  }));
}

/** Colour for a stream that `isTerminal`, unless NO_COLOR or CI is set. */
export function useColor(isTerminal: boolean): boolean {
  return isTerminal && !process.env.NO_COLOR && process.env.CI === undefined;
}
