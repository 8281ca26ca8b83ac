/**
 * src/diagnostics — user-facing error reporting shared by every front end and command.
 *
 * A diagnostic is data (so `--json` can print it) and renders as
 * `file:line:col: error|warning: message`, the source line, and a caret under the offending span.
 * Lines and columns are 1-based, as editors show them.
 */

export type Severity = 'error' | 'warning' | 'note';

export interface SourceSpan {
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column (in UTF-16 code units, as editors count them). */
  readonly col: number;
  /** Characters to underline on that line; at least 1. */
  readonly length?: number;
}

export interface Diagnostic {
  readonly severity: Severity;
  readonly message: string;
  readonly span?: SourceSpan;
  /** Short machine-readable code, e.g. `parse`, `arity`, `unknown-import`. */
  readonly code?: string;
  /** Further notes printed under the caret (e.g. "first used here"). */
  readonly notes?: readonly Diagnostic[];
  /** What to do about it, printed last as `hint: …` (e.g. the command that shows why). */
  readonly hint?: string;
}

/** Thrown for user mistakes; the CLI prints its diagnostics and exits 2, never a stack trace. */
export class UserError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: Diagnostic | readonly Diagnostic[]) {
    const list = Array.isArray(diagnostics) ? (diagnostics as readonly Diagnostic[]) : [diagnostics as Diagnostic];
    super(list.map((d) => d.message).join('\n'));
    this.name = 'UserError';
    this.diagnostics = list;
  }
}

export function error(message: string, span?: SourceSpan, code?: string): Diagnostic {
  return { severity: 'error', message, span, code };
}
export function warning(message: string, span?: SourceSpan, code?: string): Diagnostic {
  return { severity: 'warning', message, span, code };
}

/** Render one diagnostic with its source line and caret; `source` is the file's text if known. */
export function formatDiagnostic(d: Diagnostic, source?: string): string {
  const out: string[] = [];
  const where = d.span ? `${d.span.file}:${d.span.line}:${d.span.col}: ` : '';
  out.push(`${where}${d.severity}: ${d.message}`);
  if (d.span && source !== undefined) {
    const lineText = source.split(/\r\n|\n|\r/)[d.span.line - 1];
    if (lineText !== undefined) {
      const shown = lineText.replace(/\t/g, ' ');
      const width = Math.max(1, Math.min(d.span.length ?? 1, shown.length - d.span.col + 1));
      out.push(`  ${shown}`);
      out.push(`  ${' '.repeat(Math.max(0, d.span.col - 1))}${'^'.repeat(width)}`);
    }
  }
  for (const note of d.notes ?? []) out.push(formatDiagnostic(note, source));
  if (d.hint !== undefined) out.push(`  hint: ${d.hint}`);
  return out.join('\n');
}

export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some((d) => d.severity === 'error');
}
