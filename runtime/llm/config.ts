/**
 * Model selection by string, for `TSLC_MODEL` and command-line flags:
 *   sim | sim:<seed> | sim:<seed>?hallucination=0.1&evaluatorError=0.05&garbage=0&noise=0.1
 *   openai:<model>                        key from OPENAI_API_KEY, base URL from OPENAI_BASE_URL
 *   openai-compatible:<baseURL>#<model>   key from TSLC_API_KEY (optional; Ollama needs none)
 * AI SDK models are configured in code with `fromAiSdk(model)` instead.
 */
import { own } from '../dict.js';
import { LlmError } from './errors.js';
import type { Model } from './model.js';
import { openAiCompatible } from './openai-compatible.js';
import { simulatedModel } from './sim/model.js';

export type ModelSpec =
  | {
      readonly kind: 'sim';
      readonly seed: number;
      readonly hallucinationRate?: number;
      readonly evaluatorErrorRate?: number;
      readonly garbageRate?: number;
      readonly answerNoiseRate?: number;
    }
  | { readonly kind: 'openai'; readonly model: string }
  | { readonly kind: 'openai-compatible'; readonly baseURL: string; readonly model: string };

export const MODEL_SPEC_HELP =
  "expected 'sim', 'sim:<seed>', 'openai:<model>' or 'openai-compatible:<baseURL>#<model>' " +
  "(e.g. 'openai-compatible:http://localhost:11434/v1#llama3')";

const SIM_PARAMETERS: Readonly<Record<string, 'hallucinationRate' | 'evaluatorErrorRate' | 'garbageRate' | 'answerNoiseRate'>> = {
  hallucination: 'hallucinationRate',
  evaluatorError: 'evaluatorErrorRate',
  garbage: 'garbageRate',
  noise: 'answerNoiseRate',
};

function configError(text: string, problem: string): LlmError {
  return new LlmError('config', `invalid model ${JSON.stringify(text)}: ${problem}; ${MODEL_SPEC_HELP}`);
}

export function parseModelSpec(text: string): ModelSpec {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const scheme = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const rest = colon < 0 ? '' : trimmed.slice(colon + 1);
  switch (scheme) {
    case 'sim':
      return parseSim(text, colon < 0 ? undefined : rest);
    case 'openai':
      if (!/^[\w.:/-]+$/.test(rest)) throw configError(text, "'openai:' needs a model name such as gpt-4o-mini");
      return { kind: 'openai', model: rest };
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash < 0) throw configError(text, "'openai-compatible:' needs '#<model>' after the base URL");
      const baseURL = rest.slice(0, hash);
      const model = rest.slice(hash + 1);
      let url: URL;
      try {
        url = new URL(baseURL);
      } catch {
        throw configError(text, `${JSON.stringify(baseURL)} is not a URL`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw configError(text, 'the base URL must start with http:// or https://');
      }
      if (model.trim() === '') throw configError(text, 'the model name after # is empty');
      return { kind: 'openai-compatible', baseURL, model };
    }
    case '':
      throw configError(text, 'it is empty');
    default:
      throw configError(text, `unknown provider '${scheme}'`);
  }
}

function parseSim(text: string, rest: string | undefined): ModelSpec {
  if (rest === undefined) return { kind: 'sim', seed: 0 };
  const question = rest.indexOf('?');
  const seedText = question < 0 ? rest : rest.slice(0, question);
  const seed = seedText === '' ? 0 : Number(seedText);
  if (!Number.isSafeInteger(seed) || seed < 0) throw configError(text, `the sim seed ${JSON.stringify(seedText)} is not a non-negative integer`);
  const spec: { kind: 'sim'; seed: number } & Record<string, number | string> = { kind: 'sim', seed };
  if (question >= 0) {
    for (const [key, value] of new URLSearchParams(rest.slice(question + 1))) {
      const field = own(SIM_PARAMETERS, key);
      if (!field) throw configError(text, `unknown sim parameter '${key}' (known: ${Object.keys(SIM_PARAMETERS).join(', ')})`);
      const number = Number(value);
      if (value.trim() === '' || !(number >= 0 && number <= 1)) {
        throw configError(text, `sim parameter '${key}' must be a probability between 0 and 1`);
      }
      spec[field] = number;
    }
  }
  return spec as ModelSpec;
}

export type Environment = Readonly<Record<string, string | undefined>>;

export function createModel(spec: ModelSpec | string, env: Environment = process.env): Model {
  const parsed = typeof spec === 'string' ? parseModelSpec(spec) : spec;
  switch (parsed.kind) {
    case 'sim': {
      const { kind: _kind, ...options } = parsed;
      return simulatedModel(options);
    }
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY;
      if (!apiKey) throw new LlmError('config', `model 'openai:${parsed.model}' needs the OPENAI_API_KEY environment variable`);
      return openAiCompatible({
        baseURL: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
        model: parsed.model,
        apiKey,
        id: `openai:${parsed.model}`,
        maxTokensField: 'max_completion_tokens',
      });
    }
    case 'openai-compatible': {
      const apiKey = env.TSLC_API_KEY;
      return openAiCompatible({ baseURL: parsed.baseURL, model: parsed.model, ...(apiKey ? { apiKey } : {}) });
    }
  }
}

/** The model named by `TSLC_MODEL`, else `fallback`; a config error when neither is set. */
export function modelFromEnv(env: Environment = process.env, fallback?: string): Model {
  const text = env.TSLC_MODEL?.trim() || fallback;
  if (!text) throw new LlmError('config', `no model configured: set TSLC_MODEL (${MODEL_SPEC_HELP})`);
  return createModel(text, env);
}
