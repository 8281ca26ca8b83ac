/**
 * Small I/O helpers shared by commands: reading spec files with clear errors, printing
 * diagnostics (with source and caret) or JSON, and whether stdout/stderr may use colour.
 */
import { readFileSync } from 'node:fs';
import { type Diagnostic, formatDiagnostic, UserError } from '../diagnostics/diagnostic.js';

const sources = new Map<string, string>();

/** Read a user file; a missing or unreadable file is a user error, not a crash. */
export function readUserFile(path: string): string {
  try {
    const text = readFileSync(path, 'utf8');
    sources.set(path, text);
    return text;
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new UserError({ severity: 'error', message: `cannot read ${path}: ${reason}`, code: 'io' });
  }
}

/** Remember a file's text so diagnostics pointing into it can show the line. */
export function registerSource(path: string, text: string): void {
  sources.set(path, text);
}

export function renderDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => formatDiagnostic(d, d.span ? sources.get(d.span.file) : undefined)).join('\n');
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
