/**
 * Compiler-side convenience: Spot-syntax text → hash-consed formula, with syntax errors turned
 * into user diagnostics (`file:line:col`, caret) instead of the runtime's `LtlSyntaxError`.
 */
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { error, type SourceSpan, UserError } from '../diagnostics/diagnostic.js';
import type { Formula } from './formula.js';
import { fromSyntax } from './from-syntax.js';

/**
 * Parse `text` (Spot syntax). `origin` shifts positions when the formula sits inside a larger
 * file (1-based line/col of the formula's first character); default: the formula is the file.
 */
export function parseSyntax(text: string, file = '<formula>', origin?: { line: number; col: number }): LtlNode {
  try {
    return parseLtl(text);
  } catch (err) {
    if (err instanceof LtlSyntaxError) throw new UserError(error(err.message, shiftSpan(file, err, origin), 'parse'));
    throw err;
  }
}

export function parseFormula(text: string, file?: string): Formula {
  return fromSyntax(parseSyntax(text, file));
}

function shiftSpan(
  file: string,
  at: { line: number; col: number; length: number },
  origin?: { line: number; col: number },
): SourceSpan {
  if (!origin) return { file, line: at.line, col: at.col, length: at.length };
  const line = origin.line + at.line - 1;
  const col = at.line === 1 ? origin.col + at.col - 1 : at.col;
  return { file, line, col, length: at.length };
}
