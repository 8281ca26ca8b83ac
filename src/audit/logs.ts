/**
 * src/audit — the `tslc audit` side of runtime monitoring: reading rule files and logs, running
 * the progression monitor per run, and reporting. The monitors themselves live in runtime/monitor.
 *
 * logs.ts streams JSONL and CSV logs (a file, a FIFO, `-` for stdin, or any readable stream)
 * record by record in constant memory however large the input, giving each record with its
 * 1-based line number, or a description of why it is malformed. CSV logs also give their header
 * (or the `--columns` replacing it) before the first record, so the auditor can check the
 * columns its rules read before auditing anything.
 */
import { createReadStream } from 'node:fs';
import type { EventRecord } from '../../runtime/monitor/label.js';
import { CsvRecordReader } from './csv.js';
import { DEFAULT_MAX_LINE_BYTES, readLines } from './lines.js';

export { splitCsvLine } from './csv.js';

export type LogFormat = 'jsonl' | 'csv';

export type LogItem =
  | { readonly kind: 'event'; readonly line: number; readonly event: EventRecord }
  /**
   * `text` is the line as written (JSONL, when it was read), so an error can show it with a caret
   * at `col` (1-based; where JSON.parse stopped, else 1).
   */
  | { readonly kind: 'malformed'; readonly line: number; readonly reason: string; readonly text?: string; readonly col?: number }
  /**
   * CSV: the column names events will have. `text` is the header line as written (absent when
   * `columns` came from the caller or the header spans lines).
   */
  | { readonly kind: 'header'; readonly line: number; readonly columns: readonly string[]; readonly given: boolean; readonly text?: string };

export function formatOf(path: string): LogFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'jsonl';
}

export interface ReadOptions {
  readonly format: LogFormat;
  /** CSV: column names to use instead of the header row (the header row is still skipped). */
  readonly columns?: readonly string[];
  /** Longest line (JSONL) or record (CSV) read, in bytes; longer ones are malformed. Default 16 MiB. */
  readonly maxLineBytes?: number;
}

export type LogSource = string | AsyncIterable<Buffer | string>;

/** `-` is stdin; a path is opened as a stream (regular file, FIFO, /dev/stdin alike). */
function open(source: LogSource): AsyncIterable<Buffer | string> {
  if (typeof source !== 'string') return source;
  return source === '-' ? process.stdin : createReadStream(source);
}

export async function* readLog(source: LogSource, options: ReadOptions): AsyncGenerator<LogItem> {
  const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const tooLong = (bytes: number) => `longer than ${max} bytes (${bytes}); not read`;
  if (options.format === 'jsonl') {
    for await (const batch of readLines(open(source), max)) {
      for (const { line, text, bytes } of batch) {
        if (text === undefined) {
          yield { kind: 'malformed', line, reason: `line ${tooLong(bytes)}` };
          continue;
        }
        // A byte-order mark at the start of any line: concatenated files keep theirs.
        const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
        if (body.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch (err) {
          // V8 says where it stopped ("… in JSON at position 12"); the caret goes there.
          const at = /at position (\d+)/.exec((err as Error).message);
          const col = at ? Number(at[1]) + 1 + (body === text ? 0 : 1) : 1;
          yield { kind: 'malformed', line, reason: `not valid JSON (${(err as Error).message})`, text, col };
          continue;
        }
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          yield { kind: 'malformed', line, reason: 'expected a JSON object per line', text, col: 1 + text.length - text.trimStart().length };
          continue;
        }
        yield { kind: 'event', line, event: value as EventRecord };
      }
    }
    return;
  }
  let header: readonly string[] | undefined;
  const csv = new CsvRecordReader(max);
  let lastLine = 0;
  for await (const batch of readLines(open(source), max)) {
    for (const { line, text, bytes } of batch) {
      lastLine = line;
      if (text === undefined) {
        yield { kind: 'malformed', line, reason: `line ${tooLong(bytes)}` };
        continue;
      }
      if (csv.pendingSince === undefined && text.trim() === '') continue;
      const step = csv.push(text, line);
      if (step.kind === 'more') continue;
      if (step.kind === 'overflow') {
        yield { kind: 'malformed', line: step.line, reason: `record ${tooLong(max)}: a quoted field opened here is not closed by line ${step.last}` };
        continue;
      }
      const cells = step.cells;
      if (header === undefined) {
        header = options.columns ?? cells.map((c) => c.trim());
        const oneLine = step.line === line;
        yield { kind: 'header', line: step.line, columns: header, given: options.columns !== undefined, ...(oneLine && !options.columns ? { text } : {}) };
        continue;
      }
      if (cells.length !== header.length) {
        yield {
          kind: 'malformed',
          line: step.line,
          reason: `${cells.length} values but ${header.length} columns${options.columns ? '' : ' in the header (map the columns with --columns or a "columns" entry in the labels file)'}`,
        };
        continue;
      }
      // Null prototype: a column may be called `constructor` or `__proto__`. With duplicate
      // names the first occurrence wins; every cell is also reachable as `#<index>`.
      const event: Record<string, string> = Object.create(null) as Record<string, string>;
      for (let i = 0; i < header.length; i++) {
        const name = header[i];
        if (!Object.hasOwn(event, name)) event[name] = cells[i];
        event[`#${i}`] = cells[i];
      }
      yield { kind: 'event', line: step.line, event };
    }
  }
  const open_ = csv.pendingSince;
  if (open_ !== undefined) {
    yield { kind: 'malformed', line: open_, reason: `unterminated quoted field: the quote opened here is not closed by the end of the log (line ${lastLine})` };
  }
}
