/**
 * runtime/trace — what one controller step records, and JSON Lines reading/writing of traces.
 *
 * A record holds enough to replay the decision against the table (state, predicate answers,
 * chosen updates) and to see where the time went. Signal values are only recorded on request:
 * they may be long LLM outputs or not JSON at all.
 */

export interface PredicateAnswer {
  readonly index: number;
  readonly proposition: string;
  /** The predicate term as written in the spec (`inCave storyPassage`). */
  readonly text: string;
  readonly value: boolean;
  /** Wall time of the user's call(s), in milliseconds (for a batched answer: the whole batch call). */
  readonly ms: number;
  /** True when the answer came from the step's batched call (controller option `batch`). */
  readonly batched?: true;
}

/** What a step's batched predicate call did (controller option `batch`). */
export interface BatchUsage {
  /** Predicate calls sent in the one batched request. */
  readonly asked: number;
  /** Of those, answers the batch gave. */
  readonly answered: number;
  /** Predicates the walk needed whose batch answer was missing, asked singly instead. */
  readonly fallbacks: number;
}

export interface ChosenUpdate {
  readonly index: number;
  readonly proposition: string;
  readonly signal: string;
  readonly text: string;
  readonly isSelfUpdate: boolean;
  /** Wall time of the function call(s) computing the new value (0 for self-updates). */
  readonly ms: number;
}

export interface StepRecord {
  /** Number of steps committed before this one (the first step is 0). */
  readonly step: number;
  readonly stateBefore: number;
  readonly stateAfter: number;
  /** The predicates the decision asked, in the order it asked them. */
  readonly asked: readonly PredicateAnswer[];
  /** Predicates evaluated ahead of time (parallel mode, or answered by a batch) that the decision turned out not to need. */
  readonly speculative?: readonly PredicateAnswer[];
  /** Set when the step's predicates were asked in one batched call. */
  readonly batch?: BatchUsage;
  /** Indices of predicates nobody evaluated this step. */
  readonly notNeeded: readonly number[];
  /** One update per updated signal, including self-updates. */
  readonly updates: readonly ChosenUpdate[];
  /** Spec lines served by the chosen transition. */
  readonly specLines?: readonly number[];
  /** Start of the step, milliseconds since the Unix epoch. */
  readonly startedAt: number;
  /** Wall time of the whole step, in milliseconds. */
  readonly durationMs: number;
  /** Input signal values supplied to this step, when signal recording is on. */
  readonly inputs?: Readonly<Record<string, unknown>>;
  /** Signal values after the step, when signal recording is on. */
  readonly signalsAfter?: Readonly<Record<string, unknown>>;
}

/** Anything with `write(string)`: a Node file stream, `process.stdout`, an array-backed test sink. */
export interface TextSink {
  write(chunk: string): unknown;
}

/** An `onStep` hook that appends each record to `sink` as one JSON line. */
export function jsonlTraceWriter(sink: TextSink): (record: StepRecord) => void {
  return (record) => {
    sink.write(JSON.stringify(record) + '\n');
  };
}

export function toJsonl(records: readonly StepRecord[]): string {
  return records.map((r) => JSON.stringify(r) + '\n').join('');
}

/** Parse a JSONL trace; blank lines are skipped, a malformed line is reported with its number. */
export function parseJsonlTrace(text: string): StepRecord[] {
  const records: StepRecord[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new SyntaxError(`trace line ${i + 1}: ${(err as Error).message}`);
    }
    if (!isStepRecord(value)) throw new SyntaxError(`trace line ${i + 1}: not a step record`);
    records.push(value);
  });
  return records;
}

function isStepRecord(value: unknown): value is StepRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.step === 'number' &&
    typeof r.stateBefore === 'number' &&
    typeof r.stateAfter === 'number' &&
    Array.isArray(r.asked) &&
    Array.isArray(r.updates)
  );
}
