/**
 * Adapter for any Vercel AI SDK language model (`openai('gpt-4o')`, `anthropic(…)`, a mock from
 * `ai/test`, …). `ai` is an optional peer dependency: it is imported lazily on the first call, and
 * the public signature is structural so this module type-checks for users who never install it.
 */
import { LlmError, kindForStatus, parseRetryAfter } from './errors.js';
import { type ChatMessage, type Completion, type GenerateOptions, type Model, utf8Length } from './model.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './openai-compatible.js';

/** The parts of an AI SDK `LanguageModel` object we rely on (v2 and v3 models both have them). */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
}

export interface AiSdkModelOptions {
  /** Id used in cache keys and reports; defaults to `ai-sdk:<provider>:<modelId>`. */
  readonly id?: string;
  /**
   * Largest answer accepted, in UTF-8 bytes (default 4 MiB, as for HTTP bodies). The SDK reads the
   * response itself, so this caps what is passed on; a larger answer fails with `too-large`.
   */
  readonly maxResponseBytes?: number;
}

type AiModule = typeof import('ai');
type GenerateTextArgs = Parameters<AiModule['generateText']>[0];

let aiModule: Promise<AiModule> | undefined;

function loadAi(): Promise<AiModule> {
  aiModule ??= import('ai').catch((error: unknown) => {
    aiModule = undefined;
    throw new LlmError('config', "the AI SDK adapter needs the optional peer dependency 'ai' (npm install ai)", {
      cause: error,
    });
  });
  return aiModule;
}

export function fromAiSdk(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): Model {
  const id = options.id ?? `ai-sdk:${model.provider}:${model.modelId}`;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  async function complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
    if (call.signal?.aborted) throw new LlmError('aborted', 'the LLM call was aborted', { model: id });
    const ai = await loadAi();
    const systemText = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const chat = messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
    const args = {
      model: model as GenerateTextArgs['model'],
      ...(systemText ? { system: systemText } : {}),
      messages: chat,
      // Retries are ours (withReliability) so every backend backs off the same way.
      maxRetries: 0,
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.seed !== undefined ? { seed: call.seed } : {}),
      ...(call.maxTokens !== undefined ? { maxOutputTokens: call.maxTokens } : {}),
      ...(call.stop !== undefined && call.stop.length > 0 ? { stopSequences: [...call.stop] } : {}),
      ...(call.signal ? { abortSignal: call.signal } : {}),
    } as GenerateTextArgs;
    try {
      const result = await ai.generateText(args);
      if (utf8Length(result.text) > maxBytes)
        throw new LlmError('too-large', `the model's answer is larger than ${maxBytes} bytes (maxResponseBytes)`, { model: id });
      const usage = result.usage;
      return {
        text: result.text,
        model: id,
        simulated: false,
        ...(result.finishReason === 'length' ? { truncated: true } : {}),
        usage: {
          ...(typeof usage.inputTokens === 'number' ? { inputTokens: usage.inputTokens } : {}),
          ...(typeof usage.outputTokens === 'number' ? { outputTokens: usage.outputTokens } : {}),
        },
      };
    } catch (error) {
      throw toLlmError(error, id, call.signal);
    }
  }

  return { id, simulated: false, complete };
}

/** Maps AI SDK errors (APICallError carries `statusCode` and headers) onto our kinds, structurally. */
function toLlmError(error: unknown, model: string, signal: AbortSignal | undefined): LlmError {
  if (error instanceof LlmError) return error;
  if (signal?.aborted) return new LlmError('aborted', 'the LLM call was aborted', { model, cause: error });
  const message = error instanceof Error ? error.message : String(error);
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const status = record.statusCode;
  if (typeof status === 'number') {
    const headers = record.responseHeaders as Record<string, string> | undefined;
    const retryAfterMs = parseRetryAfter(headers?.['retry-after']);
    return new LlmError(kindForStatus(status), `AI SDK call failed with HTTP ${status}: ${message}`, {
      model,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      cause: error,
    });
  }
  return new LlmError('provider', `AI SDK call failed: ${message}`, { model, cause: error });
}
