/**
 * `withReliability` wraps any `Model` with the run-time policies every backend needs: a per-attempt
 * timeout, retries with exponential backoff on retryable failures (429, 5xx, timeouts, network;
 * `Retry-After` honoured), the shared call budget, the response cache and per-step usage accounting.
 * Adapters therefore make exactly one attempt and stay simple.
 */
import { cacheKey, type ResponseCache } from './cache.js';
import { LlmError } from './errors.js';
import type { ChatMessage, Completion, GenerateOptions, Model } from './model.js';
import { type CallBudget, UsageMeter } from './usage.js';

export interface RetryPolicy {
  /** Total attempts including the first (default 4). */
  readonly maxAttempts?: number;
  /** Delay before the first retry (default 500 ms); doubles per retry. */
  readonly baseDelayMs?: number;
  /** Upper bound on any single wait, including a server's Retry-After (default 30 s). */
  readonly maxDelayMs?: number;
  /** Randomise each delay within [50%, 100%] so parallel runs do not retry in lockstep (default true). */
  readonly jitter?: boolean;
}

export interface ReliabilityOptions {
  /** Per-attempt time limit in ms (default 60 s; 0 disables). */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly budget?: CallBudget;
  readonly cache?: ResponseCache;
  /** Where usage is recorded; a fresh meter when omitted (see `ReliableModel.usage`). */
  readonly usage?: UsageMeter;
  /** The step (turn) to account usage to; 0 when omitted. */
  readonly step?: () => number;
  /** Injectable for tests: waits `ms`, rejecting if `signal` aborts. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable jitter source in [0, 1). */
  readonly random?: () => number;
}

export interface ReliableModel extends Model {
  readonly usage: UsageMeter;
  /** The wrapped model. */
  readonly inner: Model;
}

export function withReliability(model: Model, options: ReliabilityOptions = {}): ReliableModel {
  const usage = options.usage ?? new UsageMeter();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxAttempts = Math.max(1, options.retry?.maxAttempts ?? 4);
  const baseDelayMs = options.retry?.baseDelayMs ?? 500;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;
  const jitter = options.retry?.jitter ?? true;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const stepOf = options.step ?? (() => 0);

  function delayFor(retry: number, error: LlmError): number {
    const exponential = baseDelayMs * 2 ** (retry - 1);
    const ours = jitter ? exponential * (0.5 + 0.5 * random()) : exponential;
    return Math.min(maxDelayMs, Math.max(ours, error.retryAfterMs ?? 0));
  }

  async function complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
    const step = stepOf();
    const started = Date.now();
    const key = options.cache ? cacheKey(model.id, messages, call) : undefined;
    if (options.cache && key) {
      const hit = await options.cache.get(key);
      if (hit) {
        usage.record(step, { cachedCalls: 1, ms: Date.now() - started });
        return { text: hit.text, usage: hit.usage, model: model.id, simulated: model.simulated, cached: true, attempts: 0 };
      }
    }

    // Requests sent so far: an inner layer (another reliable model) may report several per attempt.
    let spent = 0;
    for (let attempt = 1; ; attempt += 1) {
      try {
        options.budget?.take(model.id);
        usage.record(step, { calls: 1 });
        const result = await attemptWithTimeout(model, messages, call, timeoutMs);
        const tokens = (result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0);
        options.budget?.addTokens(tokens);
        usage.record(step, {
          inputTokens: result.usage.inputTokens ?? 0,
          outputTokens: result.usage.outputTokens ?? 0,
          ms: Date.now() - started,
        });
        if (options.cache && key) await options.cache.set(key, { text: result.text, usage: result.usage });
        return { ...result, attempts: spent + (result.attempts ?? 1) };
      } catch (caught) {
        const error = toLlmError(caught, model.id);
        // A refused budget sent no request.
        if (error.kind !== 'budget-exhausted') spent += error.attempts ?? 1;
        const canRetry = error.retryable && attempt < maxAttempts && !call.signal?.aborted;
        if (!canRetry) {
          usage.record(step, { failures: 1, ms: Date.now() - started });
          throw error.withDetails({ attempts: spent });
        }
        usage.record(step, { retries: 1 });
        try {
          await sleep(delayFor(attempt, error), call.signal);
        } catch (sleepError) {
          usage.record(step, { failures: 1, ms: Date.now() - started });
          throw new LlmError('aborted', 'the LLM call was aborted while waiting to retry', {
            model: model.id,
            attempts: spent,
            cause: sleepError,
          });
        }
      }
    }
  }

  return { id: model.id, simulated: model.simulated, complete, usage, inner: model };
}

/**
 * One attempt under a time limit. The attempt gets its own AbortSignal (so fetch is cancelled).
 */
async function attemptWithTimeout(
  model: Model,
  messages: readonly ChatMessage[],
  call: GenerateOptions,
  timeoutMs: number,
): Promise<Completion> {
  if (call.signal?.aborted) throw new LlmError('aborted', 'the LLM call was aborted', { model: model.id });
  const hasTimeout = timeoutMs > 0 && Number.isFinite(timeoutMs);
  const timer = new AbortController();
  const signal = call.signal ? AbortSignal.any([call.signal, timer.signal]) : timer.signal;
  const timedOut = (): LlmError =>
    new LlmError('timeout', `the LLM call timed out after ${timeoutMs} ms`, { model: model.id });
  let handle: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  // Both the deadline and the caller's abort are raced against the call, in case a backend
  // ignores its signal: the caller gets control back either way.
  const interrupt = new Promise<never>((_, reject) => {
    if (hasTimeout) {
      handle = setTimeout(() => {
        timer.abort(new DOMException('LLM call timed out', 'TimeoutError'));
        reject(timedOut());
      }, timeoutMs);
    }
    if (call.signal) {
      onAbort = () => reject(new LlmError('aborted', 'the LLM call was aborted', { model: model.id }));
      call.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([model.complete(messages, { ...call, signal }), interrupt]);
  } catch (error) {
    if (call.signal?.aborted) {
      throw error instanceof LlmError && error.kind === 'aborted'
        ? error
        : new LlmError('aborted', 'the LLM call was aborted', { model: model.id, cause: error });
    }
    // The backend reports our timer's abort as 'aborted'; it is a timeout, which is retryable.
    if (timer.signal.aborted) throw timedOut();
    throw error;
  } finally {
    clearTimeout(handle);
    if (onAbort) call.signal?.removeEventListener('abort', onAbort);
  }
}

function toLlmError(error: unknown, model: string): LlmError {
  if (error instanceof LlmError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LlmError('provider', `the model threw: ${message}`, { model, cause: error });
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
