/**
 * src/audit — the `tslc audit` side of runtime monitoring: reading rule files and logs, running
 * the progression monitor per run, and reporting. The monitors themselves live in runtime/monitor.
 *
 * logs.ts streams JSONL and CSV logs line by line (constant memory however large the file), giving
 * each record with its 1-based line number, or a description of why the line is malformed.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { EventRecord } from '../../runtime/monitor/label.js';

export type LogFormat = 'jsonl' | 'csv';

export type LogItem =
  | { readonly kind: 'event'; readonly line: number; readonly event: EventRecord }
  | { readonly kind: 'malformed'; readonly line: number; readonly reason: string };

export function formatOf(path: string): LogFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'jsonl';
}

export interface ReadOptions {
  readonly format: LogFormat;
  /** CSV: column names to use instead of the header row (the header row is still skipped). */
  readonly columns?: readonly string[];
}

/** Lines of a file or of a readable stream (`-` = stdin). */
async function* lines(source: string | NodeJS.ReadableStream): AsyncGenerator<string> {
  const input = typeof source === 'string' ? (source === '-' ? process.stdin : createReadStream(source, { encoding: 'utf8' })) : source;
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

export async function* readLog(source: string | NodeJS.ReadableStream, options: ReadOptions): AsyncGenerator<LogItem> {
  let n = 0;
  if (options.format === 'jsonl') {
    for await (const text of lines(source)) {
      n++;
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        yield { kind: 'malformed', line: n, reason: `not valid JSON (${(err as Error).message})` };
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        yield { kind: 'malformed', line: n, reason: 'expected a JSON object per line' };
        continue;
      }
      yield { kind: 'event', line: n, event: value as EventRecord };
    }
    return;
  }
  let header: readonly string[] | undefined;
  for await (const text of lines(source)) {
    n++;
    if (text.trim() === '') continue;
    const cells = splitCsvLine(text);
    if (cells === undefined) {
      yield { kind: 'malformed', line: n, reason: 'unterminated quoted field' };
      continue;
    }
    if (header === undefined) {
      header = options.columns ?? cells.map((c) => c.trim());
      continue;
    }
    if (cells.length !== header.length) {
      yield {
        kind: 'malformed',
        line: n,
        reason: `${cells.length} values but ${header.length} columns${options.columns ? '' : ' in the header (map the columns with --columns or a "columns" entry in the labels file)'}`,
      };
      continue;
    }
    const event: Record<string, string> = {};
    // With duplicate header names the first occurrence wins; later duplicates stay reachable as `#<index>`.
    header.forEach((name, i) => {
      if (!(name in event)) event[name] = cells[i];
      event[`#${i}`] = cells[i];
    });
    yield { kind: 'event', line: n, event };
  }
}

/** RFC 4180 fields on one line; `undefined` if a quote is left open. */
export function splitCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) return undefined;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      // Anything between the closing quote and the next comma is kept verbatim.
      const next = line.indexOf(',', i);
      value += next < 0 ? line.slice(i) : line.slice(i, next);
      out.push(value);
      if (next < 0) return out;
      i = next + 1;
    } else {
      const next = line.indexOf(',', i);
      if (next < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, next));
      i = next + 1;
    }
  }
}
