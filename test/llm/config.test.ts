import { describe, expect, it } from 'vitest';
import { createModel, LlmError, modelFromEnv, parseModelSpec, type SimulatedModel } from '../../runtime/llm/index.js';

function configFailure(run: () => unknown): LlmError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('config');
    return error as LlmError;
  }
  throw new Error('expected a config error');
}

describe('TSLC_MODEL parsing', () => {
  it.each([
    ['sim', { kind: 'sim', seed: 0 }],
    ['sim:42', { kind: 'sim', seed: 42 }],
    [' sim:7?hallucination=0.2&evaluatorError=0.05 ', { kind: 'sim', seed: 7, hallucinationRate: 0.2, evaluatorErrorRate: 0.05 }],
    ['sim:1?garbage=0.1&noise=0', { kind: 'sim', seed: 1, garbageRate: 0.1, answerNoiseRate: 0 }],
    ['openai:gpt-4o-mini', { kind: 'openai', model: 'gpt-4o-mini' }],
    [
      'openai-compatible:http://localhost:11434/v1#llama3',
      { kind: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'llama3' },
    ],
    [
      'openai-compatible:https://host.example/v1#org/model:q4#x',
      { kind: 'openai-compatible', baseURL: 'https://host.example/v1#org/model:q4', model: 'x' },
    ],
  ])('parses %j', (text, expected) => {
    expect(parseModelSpec(text)).toEqual(expected);
  });

  it.each([
    ['', 'empty'],
    ['gpt4', "unknown provider 'gpt4'"],
    ['anthropic:claude', "unknown provider 'anthropic'"],
    ['sim:abc', 'not a non-negative integer'],
    ['sim:-1', 'not a non-negative integer'],
    ['sim:1?hallucination=2', 'between 0 and 1'],
    ['sim:1?halucination=0.1', "unknown sim parameter 'halucination'"],
    ['openai:', 'needs a model name'],
    ['openai-compatible:http://localhost:11434/v1', "needs '#<model>'"],
    ['openai-compatible:localhost:11434#llama3', 'http:// or https://'],
    ['openai-compatible:not a url#m', 'is not a URL'],
    ['openai-compatible:http://localhost/v1#', 'model name after # is empty'],
  ])('rejects %j with a clear message', (text, fragment) => {
    const error = configFailure(() => parseModelSpec(text));
    expect(error.message).toContain(fragment);
    expect(error.message).toContain('openai-compatible:<baseURL>#<model>');
  });
});

describe('createModel / modelFromEnv', () => {
  it('builds the simulated model with its parameters', () => {
    const model = createModel('sim:3?hallucination=0.25');
    expect(model.id).toBe('sim:cyoa#3');
    expect(model.simulated).toBe(true);
    expect((model as SimulatedModel).options.hallucinationRate).toBe(0.25);
  });

  it('needs OPENAI_API_KEY for openai:', () => {
    const error = configFailure(() => createModel('openai:gpt-4o-mini', {}));
    expect(error.message).toContain('OPENAI_API_KEY');
    const model = createModel('openai:gpt-4o-mini', { OPENAI_API_KEY: 'sk-test' });
    expect(model.id).toBe('openai:gpt-4o-mini');
    expect(model.simulated).toBe(false);
  });

  it('sends OPENAI_BASE_URL and the key for openai:, TSLC_API_KEY for openai-compatible:', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ choices: [{ message: { content: 'ok' } }] }), { status: 200 });
    }) as typeof fetch;
    try {
      await createModel('openai:m', { OPENAI_API_KEY: 'sk-1', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).complete([
        { role: 'user', content: 'q' },
      ]);
      await createModel('openai-compatible:http://127.0.0.1:9/api#m', { TSLC_API_KEY: 'local-key' }).complete([
        { role: 'user', content: 'q' },
      ]);
      await createModel('openai-compatible:http://127.0.0.1:9/api#m', {}).complete([{ role: 'user', content: 'q' }]);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(seen).toEqual([
      { url: 'http://127.0.0.1:9/v1/chat/completions', auth: 'Bearer sk-1' },
      { url: 'http://127.0.0.1:9/api/chat/completions', auth: 'Bearer local-key' },
      { url: 'http://127.0.0.1:9/api/chat/completions', auth: null },
    ]);
  });

  it('reads TSLC_MODEL, falls back, and explains when nothing is configured', () => {
    expect(modelFromEnv({ TSLC_MODEL: 'sim:5' }).id).toBe('sim:cyoa#5');
    expect(modelFromEnv({}, 'sim').id).toBe('sim:cyoa#0');
    expect(configFailure(() => modelFromEnv({})).message).toContain('set TSLC_MODEL');
    expect(configFailure(() => modelFromEnv({ TSLC_MODEL: 'nonsense' })).message).toContain("unknown provider 'nonsense'");
  });
});
