/**
 * What the TSL commands (`tslc parse|fmt|symbols|tlsf|ltl`) share: reading the file so that
 * diagnostics can show source lines (imports included), and printing warnings.
 */
import { readFileSync } from 'node:fs';
import { readUserFile, registerSource, renderDiagnostics } from '../cli/io.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export function readTslFile(args: Record<string, unknown>): { file: string; text: string } {
  const file = String(args.file);
  return { file, text: readUserFile(file) };
}

/** Reads imported files and remembers their text for diagnostics. */
export function readImport(path: string): string {
  const text = readFileSync(path, 'utf8');
  registerSource(path, text);
  return text;
}

export function printWarnings(diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.length > 0) process.stderr.write(renderDiagnostics(diagnostics) + '\n');
}

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}
