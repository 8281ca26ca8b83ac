/**
 * Positions in JSON files, for diagnostics at file:line:col: a `JSON.parse` failure (V8 reports
 * a character offset, "… in JSON at position 12"; editors want a line and a column), and where a
 * key or string value stands in the text (JSON.parse keeps no positions).
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

/**
 * Where the key `key` stands (its opening quote), searching from `from`; with `value`, where that
 * string value after the key stands, plus `inside` characters of the decoded string (mapped back
 * through JSON's escapes). Undefined when the text spells them differently (e.g. `\u` escapes).
 */
export function jsonStringSpan(text: string, file: string, key: string, value?: string, inside = 0, length?: number): SourceSpan | undefined {
  const keyAt = text.indexOf(JSON.stringify(key));
  if (keyAt < 0) return undefined;
  if (value === undefined) return spanAt(text, file, keyAt, JSON.stringify(key).length);
  const valueAt = text.indexOf(JSON.stringify(value), keyAt + JSON.stringify(key).length);
  if (valueAt < 0) return undefined;
  const raw = JSON.stringify(value.slice(0, inside)).length - 1;
  return spanAt(text, file, valueAt + raw, length);
}
