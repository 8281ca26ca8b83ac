/**
 * Adapter for any OpenAI-compatible `POST {baseURL}/chat/completions` endpoint: OpenAI itself and
 * local servers (Ollama, llama.cpp, vLLM). Plain `fetch`, no SDK, so the runtime has no required
 * provider dependency. One attempt per call; retries and timeouts live in `withReliability`.
 */
import { LlmError, kindForStatus, parseRetryAfter } from './errors.js';
import { type ChatMessage, type Completion, type GenerateOptions, type Model, utf8Length } from './model.js';

/** Default cap on a response body: far above any chat completion, far below a runaway stream. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Error bodies are only quoted in messages, so a short prefix is all that is read of them. */
const ERROR_BODY_BYTES = 64 * 1024;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface OpenAiCompatibleOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (no trailing `/chat/completions`). */
  readonly baseURL: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer …` when present; local servers usually need none. */
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Id used in cache keys and reports; defaults to `openai-compatible:<baseURL>#<model>`. */
  readonly id?: string;
  /** For tests and custom transports; defaults to the global `fetch`. */
  readonly fetch?: FetchLike;
  /**
   * Largest response body accepted, in bytes (default 4 MiB). A larger one is not read further
   * and the call fails with `LlmError('too-large')`, which is not retried.
   */
  readonly maxResponseBytes?: number;
  /**
   * The request field for `GenerateOptions.maxTokens`: `max_tokens` (default: what llama.cpp,
   * Ollama and vLLM document) or `max_completion_tokens` (OpenAI's current name; its reasoning
   * models refuse `max_tokens`).
   */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

export function openAiCompatible(options: OpenAiCompatibleOptions): Model {
  const url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const id = options.id ?? `openai-compatible:${options.baseURL}#${options.model}`;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(maxBytes > 0)) throw new LlmError('config', `maxResponseBytes must be a positive number of bytes, not ${String(maxBytes)}`);

  async function complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
    if (call.signal?.aborted) throw abortedError(id, call.signal);
    const body: Record<string, unknown> = {
      model: options.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (call.temperature !== undefined) body.temperature = call.temperature;
    if (call.seed !== undefined) body.seed = call.seed;
    if (call.maxTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = call.maxTokens;
    if (call.stop !== undefined && call.stop.length > 0) body.stop = [...call.stop];

    const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        ...(call.signal ? { signal: call.signal } : {}),
      });
      const read = await readBody(response, response.ok ? maxBytes : ERROR_BODY_BYTES);
      if (read.truncated && response.ok)
        throw new LlmError('too-large', `${url} sent a response larger than ${formatBytes(maxBytes)} (maxResponseBytes); it was not read further`, {
          model: id,
          status: response.status,
        });
      text = read.text;
    } catch (error) {
      if (error instanceof LlmError) throw error;
      if (call.signal?.aborted) throw abortedError(id, call.signal);
      throw new LlmError('network', `request to ${url} failed: ${describe(error)}`, { model: id, cause: error });
    }

    if (!response.ok) {
      const kind = kindForStatus(response.status);
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      throw new LlmError(kind, `${url} answered HTTP ${response.status}: ${errorMessageOf(text)}`, {
        model: id,
        status: response.status,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        raw: text.slice(0, 2000),
      });
    }
    return parseChatCompletion(text, id);
  }

  return { id, simulated: false, complete };
}

/**
 * The body as text, reading at most `limit` bytes: a declared `content-length` above it is refused
 * before reading, and a stream is cancelled as soon as it passes the limit (so a 50 MB or endless
 * body costs at most `limit` bytes of memory).
 */
async function readBody(response: Response, limit: number): Promise<{ text: string; truncated: boolean }> {
  const declared = Number(response.headers.get('content-length'));
  const body = response.body;
  if (Number.isFinite(declared) && declared > limit) {
    await body?.cancel().catch(() => undefined);
    return { text: '', truncated: true };
  }
  if (!body) {
    // A transport without streams (some test doubles): the text is already in memory.
    const text = await response.text();
    return utf8Length(text) > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false };
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.byteLength > limit) {
      text += decoder.decode(value.subarray(0, limit - bytes), { stream: true });
      await reader.cancel().catch(() => undefined);
      return { text: text + decoder.decode(), truncated: true };
    }
    bytes += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode(), truncated: false };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;
}

/** Reads `choices[0].message.content` and `usage` from a chat-completions body; anything else is `bad-response`. */
export function parseChatCompletion(bodyText: string, modelId: string): Completion {
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch (error) {
    throw new LlmError('bad-response', `response is not JSON: ${JSON.stringify(bodyText.slice(0, 120))}`, {
      model: modelId,
      raw: bodyText.slice(0, 2000),
      cause: error,
    });
  }
  const choice = first(field(json, 'choices'));
  const content = field(field(choice, 'message'), 'content');
  if (typeof content !== 'string') {
    throw new LlmError('bad-response', 'response has no choices[0].message.content string', {
      model: modelId,
      raw: bodyText.slice(0, 2000),
    });
  }
  const usage = field(json, 'usage');
  const input = field(usage, 'prompt_tokens');
  const output = field(usage, 'completion_tokens');
  return {
    text: content,
    model: modelId,
    simulated: false,
    ...(field(choice, 'finish_reason') === 'length' ? { truncated: true } : {}),
    usage: {
      ...(typeof input === 'number' ? { inputTokens: input } : {}),
      ...(typeof output === 'number' ? { outputTokens: output } : {}),
    },
  };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

/** Pulls `error.message` out of an OpenAI-style error body, else a short prefix of the body. */
function errorMessageOf(text: string): string {
  try {
    const message = field(field(JSON.parse(text), 'error'), 'message');
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: fall through to the raw prefix.
  }
  return text.slice(0, 200) || '(empty body)';
}

function abortedError(model: string, signal: AbortSignal): LlmError {
  return new LlmError('aborted', 'the LLM call was aborted', { model, cause: signal.reason });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
