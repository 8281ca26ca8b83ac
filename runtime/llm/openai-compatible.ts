/**
 * Adapter for any OpenAI-compatible `POST {baseURL}/chat/completions` endpoint: OpenAI itself and
 * local servers (Ollama, llama.cpp, vLLM). Plain `fetch`, no SDK, so the runtime has no required
 * provider dependency. One attempt per call; retries and timeouts live in `withReliability`.
 */
import { LlmError, kindForStatus, parseRetryAfter } from './errors.js';
import type { ChatMessage, Completion, GenerateOptions, Model } from './model.js';

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
}

export function openAiCompatible(options: OpenAiCompatibleOptions): Model {
  const url = `${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
  const id = options.id ?? `openai-compatible:${options.baseURL}#${options.model}`;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));

  async function complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
    if (call.signal?.aborted) throw abortedError(id, call.signal);
    const body: Record<string, unknown> = {
      model: options.model,
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (call.temperature !== undefined) body.temperature = call.temperature;
    if (call.seed !== undefined) body.seed = call.seed;
    if (call.maxTokens !== undefined) body.max_tokens = call.maxTokens;
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
      text = await response.text();
    } catch (error) {
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
  const content = field(field(first(field(json, 'choices')), 'message'), 'content');
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
