/**
 * The MCP shield's audit trail (`--log FILE`): one JSON object per line, appended, in the shape
 * `tslc audit` reads. Every line carries the propositions of the event it stands for as boolean
 * fields (`"call:refund": true`), so the rules file the shield enforced is also the audit's
 * `--spec`, grouped by the `session` field:
 *
 *   {"time":"…","session":"s1","kind":"call","tool":"refund","args":"sha256:…","decision":"denied",
 *    "rule":"refund-after-lookup","rules":["refund-after-lookup"],"reason":"…","event":["denied:refund"],"denied:refund":true}
 *
 * `kind: "call"` lines are decisions; `kind: "result"` lines are the outcome events the shield
 * recorded (`ok:<tool>`, `error:<tool>`, `unknown:<tool>` plus labels). A denied call is a line
 * of its own whose only proposition is `denied:<tool>`; a forwarded call the server refused with a
 * protocol error carries none (the shield recorded nothing for it). Arguments are logged as a
 * digest (SHA-256 of their canonical JSON), never in clear.
 */
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, openSync, type WriteStream } from 'node:fs';

export type CallOutcome = 'ok' | 'error' | 'unknown';

export interface CallLine {
  readonly time: string;
  readonly session: string;
  readonly kind: 'call';
  readonly tool: string;
  readonly args: string;
  readonly decision: 'allowed' | 'denied';
  /** For allowed calls: what became of them ('failed': the server refused the request). */
  readonly outcome?: CallOutcome | 'failed';
  /** The first rule a denial names, and all of them. */
  readonly rule?: string;
  readonly rules?: readonly string[];
  readonly reason: string;
  /** The propositions of this line's event (also present as `"<prop>": true` fields). */
  readonly event: readonly string[];
}

export interface ResultLine {
  readonly time: string;
  readonly session: string;
  readonly kind: 'result';
  readonly tool: string;
  readonly outcome: CallOutcome;
  readonly event: readonly string[];
}

export type LogLine = CallLine | ResultLine;

/** Canonical JSON (object keys sorted) so equal arguments always have the same digest. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(',')}}`;
}

export function argsDigest(args: unknown): string {
  return `sha256:${createHash('sha256').update(canonical(args)).digest('hex')}`;
}

/** The line as written: its fields, then one boolean field per proposition of its event. */
export function serializeLine(line: LogLine): string {
  // Null prototype: a proposition may be called anything, `__proto__` included.
  const out = Object.assign(Object.create(null) as Record<string, unknown>, line);
  for (const p of line.event) if (!(p in out)) out[p] = true;
  return JSON.stringify(out);
}

export interface DecisionLog {
  write(line: LogLine): void;
  /** Flush and close; resolves when everything is on disk. */
  close(): Promise<void>;
}

/**
 * Open `path` for appending now (so a bad path fails before the MCP server is started) and write
 * lines through a buffered stream (a synchronous write per call would cost more than the proxy).
 */
export function openDecisionLog(path: string): DecisionLog {
  const fd = openSync(path, 'a');
  let stream: WriteStream | undefined = createWriteStream('', { fd, autoClose: true });
  let failure: Error | undefined;
  stream.on('error', (err) => {
    failure = err;
  });
  return {
    write(line) {
      if (failure) throw new Error(`cannot write the decision log ${path}: ${failure.message}`);
      stream?.write(serializeLine(line) + '\n');
    },
    close() {
      const s = stream;
      stream = undefined;
      if (!s) return Promise.resolve();
      return new Promise((resolve) => {
        s.end(() => resolve());
        s.once('error', () => {
          try {
            closeSync(fd);
          } catch {
            // Already closed by the stream.
          }
          resolve();
        });
      });
    },
  };
}
