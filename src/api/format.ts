/**
 * Diagnostics as text, as the CLI prints them: `file:line:col: severity: message`, the source line
 * and a caret, notes, and a `hint:` line. Files a diagnostic points into are read if their text is
 * not known yet (a check that ran in a worker thread read them there).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { hasSource, loadSourceFor, renderDiagnostics } from '../diagnostics/sources.js';

export function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const files = new Set(diagnostics.flatMap((d) => [d, ...(d.notes ?? [])]).flatMap((d) => (d.span ? [d.span.file] : [])));
  for (const file of files) if (!hasSource(file)) loadSourceFor(file);
  return renderDiagnostics(diagnostics);
}
