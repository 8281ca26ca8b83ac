/**
 * Numbered text lines from a byte stream (a file, a pipe, stdin), read incrementally so a log of
 * any size streams through in constant memory. Owns the byte-level details: `\n` and `\r\n` line
 * ends, a UTF-8 byte-order mark at the start (dropped), and a cap on the length of one line — a
 * line longer than the cap is reported by number and length, never held in memory, so even
 * `/dev/zero` cannot exhaust memory.
 *
 * Lines are handed out in batches (one per chunk read), which keeps the per-line cost of the
 * async machinery low on million-line logs.
 */

/** Default cap on one line (or one CSV record): far above any sane log event. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface RawLine {
  /** 1-based line number. */
  readonly line: number;
  /** The line without its terminator; `undefined` when it was longer than the cap. */
  readonly text: string | undefined;
  /** Length in bytes (set for every line; what `text === undefined` is reported with). */
  readonly bytes: number;
}

const NL = 10;
const CR = 13;

export async function* readLines(input: AsyncIterable<Buffer | string>, maxLineBytes = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<RawLine[]> {
  // The current line's bytes so far, from earlier chunks (views, not copies: chunks are not reused).
  let parts: Buffer[] = [];
  let partBytes = 0;
  let tooLong = false;
  let lineNo = 0;
  const make = (last: Buffer, start: number, end: number): RawLine => {
    lineNo++;
    const bytes = partBytes + (end - start);
    if (tooLong || bytes > maxLineBytes) return { line: lineNo, text: undefined, bytes };
    let text = parts.length === 0 ? last.toString('utf8', start, end) : Buffer.concat([...parts, last.subarray(start, end)]).toString('utf8');
    if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
    // A byte-order mark belongs to the file, not to its first line.
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { line: lineNo, text, bytes };
  };
  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    const out: RawLine[] = [];
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, pos);
      if (nl < 0) break;
      out.push(make(chunk, pos, nl));
      parts = [];
      partBytes = 0;
      tooLong = false;
      pos = nl + 1;
    }
    if (pos < chunk.length) {
      const rest = chunk.length - pos;
      partBytes += rest;
      if (!tooLong && partBytes > maxLineBytes) {
        // Past the cap: forget the bytes, keep counting until the line ends.
        tooLong = true;
        parts = [];
      }
      if (!tooLong) parts.push(chunk.subarray(pos));
    }
    if (out.length > 0) yield out;
  }
  // A last line without a terminator.
  if (partBytes > 0) yield [make(Buffer.alloc(0), 0, 0)];
}
