/**
 * The one error type of the runtime LTL reader (lexer and parser): a message with the position of
 * the offending text, so every front end can show `file:line:col` and a caret.
 */

/** A syntax error with a 0-based offset and the 1-based line/column editors show. */
export class LtlSyntaxError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly col: number;
  /** Characters of the offending token (at least 1), for carets. */
  readonly length: number;
  constructor(message: string, text: string, offset: number, length = 1) {
    super(message);
    this.name = 'LtlSyntaxError';
    this.offset = offset;
    const { line, col } = lineCol(text, offset);
    this.line = line;
    this.col = col;
    this.length = Math.max(1, length);
  }
}

export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}
