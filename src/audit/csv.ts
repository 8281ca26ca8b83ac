/**
 * CSV records (RFC 4180) assembled line by line: a quoted field may hold commas, doubled quotes
 * and line breaks, so one record can span several lines. Streaming: only the record being read is
 * held, and a record larger than the cap (a quote that is never closed) is given up, reported with
 * its line range, and reading resumes after it.
 *
 * Lenient where RFC 4180 is strict, as spreadsheet exports need: text between a closing quote and
 * the next comma is kept verbatim, and a quote inside an unquoted field is an ordinary character.
 * A line break inside a quoted field is read as `\n` whatever the file used.
 */

export type CsvStep =
  /** The line completed a record; `line` is where the record started. */
  | { readonly kind: 'record'; readonly line: number; readonly cells: string[] }
  /** A quoted field continues on the next line. */
  | { readonly kind: 'more' }
  /** The record grew past the cap: lines `line`..`last` are dropped. */
  | { readonly kind: 'overflow'; readonly line: number; readonly last: number };

const QUOTE = 34;

export class CsvRecordReader {
  private cells: string[] = [];
  private field = '';
  /** Inside a quoted field that continues on the next line. */
  private inQuote = false;
  private startLine = 0;
  private chars = 0;

  constructor(private readonly maxRecordChars: number) {}

  /** The line where an unfinished record started, if a quoted field is still open. */
  get pendingSince(): number | undefined {
    return this.inQuote ? this.startLine : undefined;
  }

  push(text: string, line: number): CsvStep {
    let i = 0;
    if (this.inQuote) {
      this.field += '\n';
      this.chars += text.length + 1;
      if (this.chars > this.maxRecordChars) {
        const start = this.startLine;
        this.reset();
        return { kind: 'overflow', line: start, last: line };
      }
    } else {
      this.startLine = line;
      this.chars = text.length;
    }
    for (;;) {
      if (this.inQuote) {
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) {
            this.field += text.slice(i);
            return { kind: 'more' };
          }
          this.field += text.slice(i, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            this.field += '"';
            i = q + 2;
            continue;
          }
          i = q + 1;
          this.inQuote = false;
          break;
        }
        // Anything between the closing quote and the next comma is kept verbatim.
        const next = text.indexOf(',', i);
        this.field += next < 0 ? text.slice(i) : text.slice(i, next);
        this.cells.push(this.field);
        this.field = '';
        if (next < 0) return this.done();
        i = next + 1;
      }
      // At the start of a field.
      if (text.charCodeAt(i) === QUOTE) {
        this.inQuote = true;
        i++;
        continue;
      }
      const next = text.indexOf(',', i);
      if (next < 0) {
        this.cells.push(text.slice(i));
        return this.done();
      }
      this.cells.push(text.slice(i, next));
      i = next + 1;
    }
  }

  private done(): CsvStep {
    const step: CsvStep = { kind: 'record', line: this.startLine, cells: this.cells };
    this.reset();
    return step;
  }

  private reset(): void {
    this.cells = [];
    this.field = '';
    this.inQuote = false;
    this.chars = 0;
  }
}

/** RFC 4180 fields of a single line; `undefined` if a quote is left open. */
export function splitCsvLine(line: string): string[] | undefined {
  const r = new CsvRecordReader(Number.POSITIVE_INFINITY).push(line, 1);
  return r.kind === 'record' ? r.cells : undefined;
}
