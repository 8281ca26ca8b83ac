/**
 * Newline-delimited messages from a byte stream (MCP's stdio framing), in linear time and bounded
 * memory. The SDK's own reader re-concatenates its whole buffer on every chunk (quadratic in a
 * large message), caps messages at 10 MB and skips lines it cannot parse; the proxy needs large
 * results to pass quickly, a configurable cap, and to *notice* garbage — so it frames lines here
 * and decides itself what an unparsable line means.
 */

export interface LineReaderOptions {
  /** Called with each complete line (without its `\n` or `\r\n`). */
  readonly onLine: (line: string) => void;
  /** Called once when a line grows past `maxBytes`; the reader then drops everything. */
  readonly onOverflow: (bytes: number) => void;
  readonly maxBytes: number;
}

const NL = 10;

export class LineReader {
  /** Bytes of the current, unfinished line (views into earlier chunks). */
  private parts: Buffer[] = [];
  private size = 0;
  private overflowed = false;

  constructor(private readonly options: LineReaderOptions) {}

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      let line: Buffer;
      if (this.parts.length === 0) line = piece;
      else {
        this.parts.push(piece);
        line = Buffer.concat(this.parts, this.size + piece.length);
        this.parts = [];
        this.size = 0;
      }
      start = nl + 1;
      if (line.length > this.options.maxBytes) return this.overflow(line.length);
      const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      this.options.onLine(line.toString('utf8', 0, end));
      if (this.overflowed) return;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.size += rest.length;
      if (this.size > this.options.maxBytes) return this.overflow(this.size);
      this.parts.push(rest);
    }
  }

  /** Bytes of an unfinished last line (e.g. a message cut off by the writer's exit). */
  get pending(): number {
    return this.size;
  }

  private overflow(bytes: number): void {
    this.overflowed = true;
    this.parts = [];
    this.size = 0;
    this.options.onOverflow(bytes);
  }
}
