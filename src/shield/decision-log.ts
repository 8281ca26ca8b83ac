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
import { closeSync, openSync, writeSync } from 'node:fs';

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

/**
 * The line as written: its fields, then one boolean field per proposition of its event (true),
 * then `false` for every other proposition in `known` (the rules' propositions). Stating the
 * false ones makes the log self-describing: `tslc audit` refuses, by default, a rule over a field
 * that a run never mentions, because it cannot tell "false" from "not logged".
 */
export function serializeLine(line: LogLine, known: readonly string[] = []): string {
  // Null prototype: a proposition may be called anything, `__proto__` included.
  const out = Object.assign(Object.create(null) as Record<string, unknown>, line);
  for (const p of line.event) if (!(p in out)) out[p] = true;
  for (const p of known) if (!(p in out)) out[p] = false;
  return JSON.stringify(out);
}

export interface DecisionLog {
  /** `known`: the propositions to state as `false` when the line's event does not hold them. */
  write(line: LogLine, known?: readonly string[]): void;
  /** Flush and close; resolves when everything is on disk. */
  close(): Promise<void>;
}

/**
 * Open `path` for appending now (so a bad path fails before the MCP server is started). Lines are
 * gathered for the rest of the tick and written with one synchronous `write`: measured cheaper per
 * call than a write stream, whose every write is a round trip through libuv's thread pool.
 */
export function openDecisionLog(path: string, onError: (message: string) => void = () => undefined): DecisionLog {
  let fd: number | undefined = openSync(path, 'a');
  let pending: string[] = [];
  let failed = false;
  const flush = (): void => {
    if (fd === undefined || pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    try {
      writeSync(fd, text);
    } catch (err) {
      // Say so once (disk full, file gone); the proxy keeps deciding, as it does without --log.
      if (!failed) onError(`cannot write the decision log ${path}: ${(err as Error).message}; decisions are no longer logged`);
      failed = true;
    }
  };
  return {
    write(line, known) {
      if (fd === undefined || failed) return;
      if (pending.length === 0) setImmediate(flush);
      pending.push(serializeLine(line, known) + '\n');
    },
    close() {
      flush();
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      return Promise.resolve();
    },
  };
}
