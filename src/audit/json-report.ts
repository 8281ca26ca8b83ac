/**
 * The audit report as JSON, written while the log is read: each run's outcome goes out as its run
 * closes, so a log with millions of runs never holds them all. The layout is what
 * `JSON.stringify(report, null, 2)` gives, except that `runs` comes before the totals (which are
 * only known at the end). Honours back-pressure: a slow reader slows the audit, not memory.
 */
import type { AuditReport, RunOutcome } from './audit.js';

/** Where the text goes: `write` returns false when the caller should wait for `drain`. */
export interface TextSink {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

const FLUSH_AT = 1 << 16;

function indent(text: string, by: number): string {
  return text.replace(/\n/g, '\n' + ' '.repeat(by));
}

function fields(obj: Readonly<Record<string, unknown>>): string {
  return Object.entries(obj)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${indent(JSON.stringify(v, null, 2), 2)}`)
    .join(',\n');
}

export class JsonReportWriter {
  private buffer: string;
  private count = 0;

  constructor(
    private readonly sink: TextSink,
    head: Readonly<Record<string, unknown>>,
  ) {
    this.buffer = `{\n${fields(head)},\n  "runs": [`;
  }

  async run(r: RunOutcome): Promise<void> {
    this.buffer += `${this.count++ === 0 ? '' : ','}\n    ${indent(JSON.stringify(r, null, 2), 4)}`;
    if (this.buffer.length >= FLUSH_AT) await this.flush();
  }

  /** Everything but the runs (already written). */
  async end(report: AuditReport): Promise<void> {
    const { runs: _runs, ...rest } = report;
    this.buffer += `${this.count === 0 ? '' : '\n  '}],\n${fields(rest)}\n}\n`;
    await this.flush();
  }

  private async flush(): Promise<void> {
    const text = this.buffer;
    this.buffer = '';
    if (!this.sink.write(text)) await new Promise<void>((resolve) => this.sink.once('drain', resolve));
  }
}
