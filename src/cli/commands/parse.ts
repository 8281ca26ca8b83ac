/**
 * `tslc parse <file>`: parse a `.tsl` file (syntax only) and print its AST as JSON; with
 * `--locations` each node keeps its line/column. Exit 2 on a syntax error.
 */
import type { Loc } from '../../tsl/ast.js';
import { readTslFile, writeOut } from '../../tsl/cli-support.js';
import { parseTsl } from '../../tsl/parse.js';
import { ExitCode } from '../exit-codes.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const { file, text } = readTslFile(args);
  const ast = parseTsl(file, text);
  const keepLocations = Boolean(args.locations);
  const replacer = (key: string, value: unknown) => {
    if (key === 'paren') return undefined;
    if (!keepLocations && (key === 'loc' || key === 'fnLoc' || key === 'targetLoc' || key === 'pathLoc')) return undefined;
    if (keepLocations && value && typeof value === 'object' && 'endOffset' in value) {
      const loc = value as Loc;
      return { line: loc.line, col: loc.col };
    }
    return value;
  };
  writeOut(JSON.stringify(ast, replacer, 2));
  return ExitCode.ok;
}
