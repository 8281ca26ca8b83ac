/**
 * A `JSON.parse` failure as a diagnostic at file:line:col. V8 reports a character offset
 * ("… in JSON at position 12"); editors want a line and a column.
 */
import { type Diagnostic, error, type SourceSpan } from './diagnostic.js';

/** Line and column (1-based) of a character offset. */
function spanAt(text: string, file: string, offset: number, length?: number): SourceSpan {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { file, line, col, ...(length !== undefined ? { length } : {}) };
}

export function jsonSyntaxError(text: string, file: string, err: Error): Diagnostic {
  const m = /at position (\d+)/.exec(err.message);
  const offset = m ? Math.min(Number(m[1]), text.length) : text.length;
  const message = err.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return error(`not valid JSON: ${message}`, spanAt(text, file, offset), 'parse');
}
