/**
 * The texts diagnostics point into, so they can be printed with their source line and caret:
 * every spec and import a front end reads is registered here, and `renderDiagnostics` looks the
 * line up. Also reading a user's file with a clear error, and diagnostics as JSON objects (the
 * shape `--json` prints). Shared by the CLI, the library (src/api) and the bundler plugin.
 */
import { readFileSync, statSync } from 'node:fs';
import { type Diagnostic, error, formatDiagnostic, UserError } from './diagnostic.js';
import { InputReadError, readInputFile } from './read-input.js';

const sources = new Map<string, string>();

/**
 * Read a file named by a user (`-` on the command line is standard input), at most
 * `MAX_INPUT_BYTES`; a missing, unreadable, oversized or unsuitable file (directory, device) is a
 * user error, not a crash or a hang.
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

/** Remember a file's text so diagnostics pointing into it can show the line. */
export function registerSource(path: string, text: string): void {
  sources.set(path, text);
}

/** Whether a file's text is known (read by a front end, or registered). */
export function hasSource(path: string): boolean {
  return sources.has(path);
}

/** Each diagnostic, and each of its notes, with the source line of the file it points into. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const render = (d: Diagnostic): string =>
    [
      formatDiagnostic({ ...d, notes: undefined, hint: undefined }, d.span ? sources.get(d.span.file) : undefined),
      ...(d.notes ?? []).map(render),
      ...(d.hint !== undefined ? [`  hint: ${d.hint}`] : []),
    ].join('\n');
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

/** Diagnostics as the flat JSON objects `--json` prints (location spelled out, no notes). */
export function diagnosticsToJson(diagnostics: readonly Diagnostic[]): unknown {
  return diagnostics.map((d) => ({
    severity: d.severity,
    message: d.message,
    code: d.code,
    file: d.span?.file,
    line: d.span?.line,
    col: d.span?.col,
    length: d.span?.length,
    hint: d.hint,
  }));
}

/**
 * A line to show under a diagnostic, cut to at most 200 characters around `col` (a log line can be megabytes),
 * with the column moved to match; undefined when there is no text to show.
 */
export function showableLine(text: string | undefined, col = 1): { text: string; col: number } | undefined {
  if (text === undefined) return undefined;
  const width = 200;
  if (text.length <= width) return { text, col };
  const start = Math.max(0, Math.min(col - 1 - width / 2, text.length - width));
  return { text: (start > 0 ? '…' : '') + text.slice(start, start + width), col: col - start + (start > 0 ? 1 : 0) };
}

/**
 * An error at one line of a text that is not kept whole (a log read as a stream): that line, cut
 * by `showableLine`, is shown under the message with a caret at `col` (column 1 without the text).
 */
export function errorAtLine(message: string, at: { readonly file: string; readonly line: number; readonly text?: string; readonly col?: number }, code: string): Diagnostic {
  const shown = showableLine(at.text, at.col);
  if (shown) registerSource(at.file, '\n'.repeat(at.line - 1) + shown.text);
  return error(message, { file: at.file, line: at.line, col: shown?.col ?? 1 }, code);
}
