/**
 * What the TSL commands (`tslc parse|fmt|symbols|tlsf|ltl`) share: reading the file so that
 * diagnostics can show source lines (imports included), and printing warnings.
 */
import { importRootArg, readUserFile, registerSource, renderDiagnostics } from './io.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export function readTslFile(args: Record<string, unknown>): { file: string; text: string } {
  const file = String(args.file);
  return { file, text: readUserFile(file) };
}

/** How the command reads imports: `--import-root`, and each imported text kept for diagnostics. */
export function importOptions(args: Record<string, unknown>): { importRoot?: string; onImport: (path: string, text: string) => void } {
  return { importRoot: importRootArg(args), onImport: registerSource };
}

export function printWarnings(diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.length > 0) process.stderr.write(renderDiagnostics(diagnostics) + '\n');
}

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
