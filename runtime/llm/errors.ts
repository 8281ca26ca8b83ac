/**
 * Typed LLM failures. Every way an LLM call can go wrong surfaces as an `LlmError` with a `kind`,
 * so callers (controllers, the evaluation) can tell "the model said no" from "the model failed":
 * a failed predicate must never silently become `false`, a failed generation never an empty string.
 */

export type LlmErrorKind =
  /** The attempt exceeded its time limit. Retryable. */
  | 'timeout'
  /** HTTP 429 or a provider's rate-limit error. Retryable (honours Retry-After). */
  | 'rate-limit'
  /** HTTP 5xx. Retryable. */
  | 'server'
  /** Connection refused/reset, DNS failure. Retryable. */
  | 'network'
  /** HTTP 401/403: a missing or wrong API key. */
  | 'auth'
  /** Any other non-success HTTP status (400, 404, …). */
  | 'http'
  /** The endpoint answered, but not with the expected JSON shape. */
  | 'bad-response'
  /** The model answered, but not in the requested form (e.g. neither `0` nor `1` after a re-ask). */
  | 'garbage-answer'
  /** The model returned no text at all. */
  | 'empty-response'
  /** The response body (or answer) is larger than the configured cap (`maxResponseBytes`). */
  | 'too-large'
  /** The per-run call or token budget is used up; no request was sent. */
  | 'budget-exhausted'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** A malformed model specification (e.g. `TSLC_MODEL`) or missing credentials. */
  | 'config'
  /** A prompt template refers to a value it was not given. */
  | 'template'
  /** The model cannot handle this request (e.g. the simulated world has no such predicate). */
  | 'unsupported'
  /** Any other exception thrown by a provider or adapter. */
  | 'provider';

const RETRYABLE: ReadonlySet<LlmErrorKind> = new Set(['timeout', 'rate-limit', 'server', 'network']);

export interface LlmErrorDetails {
  /** HTTP status, when the failure came from an HTTP response. */
  readonly status?: number;
  /** Server-requested delay before retrying (from `Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Model id the call was made against. */
  readonly model?: string;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
  /** The raw model answer, for `garbage-answer` / `bad-response`. */
  readonly raw?: string;
  readonly cause?: unknown;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly kind: LlmErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly model: string | undefined;
  readonly attempts: number | undefined;
  readonly raw: string | undefined;

  constructor(kind: LlmErrorKind, message: string, details: LlmErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.model = details.model;
    this.attempts = details.attempts;
    this.raw = details.raw;
  }

  /** Whether sending the same request again may succeed. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  /** A copy with more context (attempt count, model) without losing the original kind. */
  withDetails(details: LlmErrorDetails): LlmError {
    return new LlmError(this.kind, this.message, {
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      model: this.model,
      attempts: this.attempts,
      raw: this.raw,
      cause: this.cause,
      ...details,
    });
  }
}

export function isLlmError(value: unknown): value is LlmError {
  return value instanceof LlmError;
}

/** Classifies an HTTP status into an error kind. */
export function kindForStatus(status: number): LlmErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server';
  return 'http';
}

/**
 * Parses a `Retry-After` header (delta-seconds or HTTP date) into milliseconds.
 * Returns undefined when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
