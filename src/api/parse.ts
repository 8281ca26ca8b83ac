/**
 * `parse`: a TSL spec's syntax tree (what `tslc parse` prints as JSON), or its syntax errors.
 * Syntax only: names, arities and imports are checked by `check`, `synthesize` and `compile`.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import { readUserFile, registerSource } from '../diagnostics/sources.js';
import type { TslAst } from '../tsl/ast.js';
import { catchingUserErrors, type Outcome, pathOf, type SpecSource, textOf } from './inputs.js';

export interface ParseResult extends Outcome {
  readonly ast?: TslAst;
}

export async function parse(source: SpecSource): Promise<ParseResult> {
  return catchingUserErrors(
    async (): Promise<ParseResult> => {
      const path = pathOf(source);
      const text = textOf(source) ?? readUserFile(path);
      registerSource(path, text);
      const { parseTsl } = await import('../tsl/parse.js');
      return { ast: parseTsl(path, text), errors: [], warnings: [], exitCode: ExitCode.ok };
    },
    (errors) => ({ errors, warnings: [], exitCode: ExitCode.inputError }),
  );
}
