/**
 * The `Model` contract: chat messages in, text out. Every backend (AI SDK, OpenAI-compatible HTTP,
 * the simulated model) implements this one small interface, so prompts, reliability (retry, cache,
 * budget) and the CYOA agent are written once and run against any of them.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
}

export interface GenerateOptions {
  readonly temperature?: number;
  /** Sampling seed. The papers fix it so each LLM term is a pure function of its prompt. */
  readonly seed?: number;
  /** Tokens the answer may have (`max_tokens`); session helpers set it per kind of call (max-tokens.ts). */
  readonly maxTokens?: number;
  readonly stop?: readonly string[];
  readonly signal?: AbortSignal;
}

export interface TokenUsage {
  /** Prompt tokens, when the backend reports them. */
  readonly inputTokens?: number;
  /** Completion tokens, when the backend reports them. */
  readonly outputTokens?: number;
}

export interface Completion {
  readonly text: string;
  readonly usage: TokenUsage;
  /** The `Model.id` that produced the text. */
  readonly model: string;
  /** True when the text came from the simulated model: it must never be mistaken for a real LLM's. */
  readonly simulated: boolean;
  /** True when served from the response cache (no request was sent). */
  readonly cached?: boolean;
  /** Requests sent to produce this answer, when a reliability layer counted them (0 when cached). */
  readonly attempts?: number;
  /** True when the backend stopped at the token limit (`finish_reason: "length"`): the text may be cut. */
  readonly truncated?: boolean;
}

export interface Model {
  /** Stable identifier, part of cache keys: `openai:gpt-4o-mini`, `sim:cyoa#42`, … */
  readonly id: string;
  /** True for the simulated model; shown wherever its output appears. */
  readonly simulated: boolean;
  /**
   * One attempt. Failures throw `LlmError`; retries, timeouts, caching and budgets are layered on
   * top by `withReliability`, so adapters stay small.
   */
  complete(messages: readonly ChatMessage[], options?: GenerateOptions): Promise<Completion>;
}

export function system(content: string): ChatMessage {
  return { role: 'system', content };
}

export function user(content: string): ChatMessage {
  return { role: 'user', content };
}

export function assistant(content: string): ChatMessage {
  return { role: 'assistant', content };
}

/** Model text longer than this is cut before it is sent back in a prompt (a re-ask). */
export const ECHO_LIMIT_CHARS = 2000;

/**
 * A model answer as it may be quoted back to the model (e.g. "your previous reply could not be
 * read"): at most `limit` characters, with a note saying how much was cut, so an over-long or
 * hostile answer is never multiplied into the next request.
 */
export function clipForPrompt(text: string, limit: number = ECHO_LIMIT_CHARS): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, Math.max(0, limit))}\n[… ${text.length - limit} more characters of this reply were cut]`;
}

/** UTF-8 length of `text` without encoding it (cheap on a large answer). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** A cheap, backend-independent token estimate (≈4 characters per token) for backends that report none. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
