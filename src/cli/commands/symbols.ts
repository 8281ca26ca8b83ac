/**
 * `tslc symbols <file>`: the symbol table, like tsltools' `tslsym` — which names are inputs,
 * cells and outputs, and which are predicates and functions with their arities.
 */
import { printWarnings, importOptions, readTslFile, writeOut } from '../tsl-support.js';
import type { SymbolInfo } from '../../tsl/check.js';
import { tslSymbols } from '../../tsl/index.js';
import { diagnosticsToJson } from '../io.js';
import { ExitCode } from '../exit-codes.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const { file, text } = readTslFile(args);
  const { symbols, diagnostics } = tslSymbols(file, text, importOptions(args));
  if (args.json) {
    writeOut(JSON.stringify({ ...symbols, warnings: diagnosticsToJson(diagnostics) }, null, 2));
    return ExitCode.ok;
  }
  printWarnings(diagnostics);
  const fn = (s: SymbolInfo) => `${s.name}/${s.arity}${s.builtin ? ' (built in)' : ''}`;
  const rows: [string, readonly string[]][] = [
    ['inputs', symbols.inputs],
    ['cells', symbols.cells],
    ['outputs', symbols.outputs],
    ['predicates', symbols.predicates.map(fn)],
    ['functions', symbols.functions.map(fn)],
  ];
  writeOut(rows.map(([label, names]) => `${`${label}:`.padEnd(12)}${names.length === 0 ? '-' : names.join(', ')}`).join('\n'));
  return ExitCode.ok;
}
