/**
 * The fuzzer's oracle and bookkeeping. Every input ends in one of five outcomes: it was accepted
 * (`ok`), refused with a user error (`error`: diagnostics with a message, located when they are
 * about the input text), given up on at a deadline (`timeout`, the `unknown` verdict), or it
 * found a bug: anything else thrown, or a diagnostic that is not a proper one (`internal`), or
 * work that ran past the hard limit (`hang`). Synchronous work runs under a `vm` timeout, which
 * interrupts even a loop that never looks at the clock, so one hang does not stop the campaign.
 */
import { Script } from 'node:vm';
import { type Diagnostic, UserError } from '../../src/diagnostics/diagnostic.js';

export type Outcome = 'ok' | 'error' | 'timeout' | 'internal' | 'hang';
export const OUTCOMES: readonly Outcome[] = ['ok', 'error', 'timeout', 'internal', 'hang'];
export type Language = 'tsl' | 'tlsf' | 'ltl' | 'audit' | 'snapshot' | 'cli';

export interface Result {
  readonly outcome: Outcome;
  /** What went wrong (internal, hang) or which error it was. */
  readonly detail?: string;
}

export const OK: Result = { outcome: 'ok' };
export const TIMEOUT: Result = { outcome: 'timeout' };

/** One input: its text (for the record), where it came from, and how to replay it. */
export interface Sample {
  readonly language: Language;
  readonly generator: string;
  readonly text: string;
  /** The campaign seed and the input's index in its language's stream. */
  readonly seed: number;
  readonly index: number;
}

export interface Finding {
  readonly sample: Sample;
  readonly result: Result;
}

const HOOK = Symbol.for('tslc.fuzz.bounded');
const script = new Script('globalThis[Symbol.for("tslc.fuzz.bounded")]()');

/**
 * Runs `work` synchronously, interrupted after `ms`; `undefined` when it was interrupted. Module
 * caches touched by interrupted work stay usable (see src/synthesis/isolated.ts, which relies on
 * the same property of the solver).
 */
export function interruptible<T>(work: () => T, ms: number): { value: T } | undefined {
  const host = globalThis as { [HOOK]?: () => void };
  let value: T | undefined;
  host[HOOK] = () => {
    value = work();
  };
  try {
    script.runInThisContext({ timeout: Math.max(1, Math.round(ms)) });
    return { value: value as T };
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw err;
  } finally {
    delete host[HOOK];
  }
}

/** An async `work` raced against `ms`: a hang that still yields to the event loop is caught. */
export async function withinTime<T>(work: () => Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work().then((value) => ({ value })), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What an unexpected exception looks like in a report: its class, message and top frames. */
export function describeThrown(err: unknown): string {
  if (!(err instanceof Error)) return `non-Error thrown: ${String(err).slice(0, 200)}`;
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l)).slice(0, 4).map((l) => l.trim());
  return `${err.name}: ${err.message.slice(0, 300)}${frames.length ? `\n    ${frames.join('\n    ')}` : ''}`;
}

/**
 * Why a diagnostic list is not a proper user error, or undefined. `source`, when the error is
 * about one text, requires the first error to be located in that file, inside the text.
 */
export function diagnosticProblem(diagnostics: readonly Diagnostic[], source?: { file: string; text: string }): string | undefined {
  if (diagnostics.length === 0) return 'UserError without diagnostics';
  const all = diagnostics.flatMap((d) => [d, ...(d.notes ?? [])]);
  for (const d of all) {
    if (d.message.trim() === '') return 'diagnostic with an empty message';
    if (/\n\s+at |\[object Object\]/.test(d.message)) return `diagnostic with a stack trace or an unprinted object: ${d.message.slice(0, 200)}`;
    if (/\bundefined\b|\bNaN\b/.test(d.message) && !(source && /undefined|NaN/.test(source.text)))
      return `diagnostic mentions undefined/NaN the input never did: ${d.message.slice(0, 200)}`;
    if (d.span && (!Number.isInteger(d.span.line) || !Number.isInteger(d.span.col) || d.span.line < 1 || d.span.col < 1))
      return `diagnostic with a bad location ${d.span.line}:${d.span.col}: ${d.message.slice(0, 120)}`;
  }
  if (source) {
    const first = diagnostics.find((d) => d.severity === 'error') ?? diagnostics[0];
    if (!first.span) return `error not located: ${first.message.slice(0, 200)}`;
    if (first.span.file === source.file) {
      const lines = source.text.split(/\r\n|\n|\r/).length;
      if (first.span.line > lines) return `error located past the end (line ${first.span.line} of ${lines}): ${first.message.slice(0, 120)}`;
    }
  }
  return undefined;
}

/** The outcome of a thrown `UserError` (checked), or undefined when `err` is none. */
export function userErrorResult(err: unknown, source?: { file: string; text: string }): Result | undefined {
  if (!(err instanceof UserError)) return undefined;
  const problem = diagnosticProblem(err.diagnostics, source);
  return problem ? { outcome: 'internal', detail: problem } : { outcome: 'error', detail: err.diagnostics[0]?.code };
}

export const internal = (err: unknown): Result => ({ outcome: 'internal', detail: describeThrown(err) });
export const hang = (what: string, ms: number): Result => ({ outcome: 'hang', detail: `${what} still running after ${ms} ms` });

/** Counts per language and generator, and every finding (internal errors and hangs). */
export class Tally {
  readonly byLanguage = new Map<Language, Record<Outcome, number>>();
  readonly byGenerator = new Map<string, Record<Outcome, number>>();
  readonly findings: Finding[] = [];
  /** Milliseconds spent per generator, and the slowest input of each. */
  readonly time = new Map<string, { total: number; max: number; maxIndex: number }>();
  /** The campaign's time budget ran out before every input was run. */
  stoppedEarly = false;

  add(sample: Sample, result: Result, ms = 0): void {
    const key = `${sample.language}.${sample.generator}`;
    const t = this.time.get(key) ?? { total: 0, max: 0, maxIndex: -1 };
    t.total += ms;
    if (ms > t.max) Object.assign(t, { max: ms, maxIndex: sample.index });
    this.time.set(key, t);
    const bump = <K>(map: Map<K, Record<Outcome, number>>, key: K) => {
      const row = map.get(key) ?? { ok: 0, error: 0, timeout: 0, internal: 0, hang: 0 };
      row[result.outcome]++;
      map.set(key, row);
    };
    bump(this.byLanguage, sample.language);
    bump(this.byGenerator, key);
    if (result.outcome === 'internal' || result.outcome === 'hang') this.findings.push({ sample, result });
  }

  count(language: Language, outcome?: Outcome): number {
    const row = this.byLanguage.get(language);
    if (!row) return 0;
    return outcome ? row[outcome] : OUTCOMES.reduce((s, o) => s + row[o], 0);
  }

  /** A table of the counts, for the test log and for reports. */
  table(): string {
    const rows: string[] = [`${'inputs'.padEnd(28)} ${OUTCOMES.map((o) => o.padStart(8)).join(' ')}   total  seconds  slowest (ms @ index)`];
    const line = (name: string, row: Record<Outcome, number>, t?: { total: number; max: number; maxIndex: number }) =>
      `${name.padEnd(28)} ${OUTCOMES.map((o) => String(row[o]).padStart(8)).join(' ')} ${String(OUTCOMES.reduce((s, o) => s + row[o], 0)).padStart(7)}` +
      (t ? ` ${(t.total / 1000).toFixed(1).padStart(8)}  ${Math.round(t.max)} @ ${t.maxIndex}` : '');
    for (const [lang, row] of this.byLanguage) {
      rows.push(line(lang, row));
      for (const [gen, grow] of this.byGenerator) if (gen.startsWith(`${lang}.`)) rows.push(line(`  ${gen}`, grow, this.time.get(gen)));
    }
    return rows.join('\n');
  }
}

/** The first `n` characters of an input, with its length when cut. */
export function excerpt(text: string, n = 300): string {
  return text.length <= n ? text : `${text.slice(0, n)}… (${text.length} chars)`;
}
