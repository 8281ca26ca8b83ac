/**
 * A `JSON.parse` failure as a diagnostic at file:line:col. V8 reports a character offset
 * ("… in JSON at position 12"); editors want a line and a column.
 */
import { type Diagnostic, error } from '../diagnostics/diagnostic.js';

export function jsonSyntaxError(text: string, file: string, err: Error): Diagnostic {
  const m = /at position (\d+)/.exec(err.message);
  const offset = m ? Math.min(Number(m[1]), text.length) : text.length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - (before.lastIndexOf('\n') + 1) + 1;
  const message = err.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return error(`not valid JSON: ${message}`, { file, line, col }, 'parse');
}
