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

/** A cheap, backend-independent token estimate (≈4 characters per token) for backends that report none. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
