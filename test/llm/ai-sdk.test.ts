import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createLlmSession, fromAiSdk, LlmError } from '../../runtime/llm/index.js';

function result(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  };
}

describe('AI SDK adapter', () => {
  it('runs a predicate through any AI SDK model and passes the call settings', async () => {
    const mock = new MockLanguageModelV3({ provider: 'mock', modelId: 'judge-1', doGenerate: result('1') });
    const session = createLlmSession({ model: fromAiSdk(mock), seed: 5 });
    const inCave = session.predicate({ name: 'inCave', system: 'You judge stories.', prompt: 'In a cave? {{args.0}}' });
    expect(await inCave('The hero enters the cave.')).toBe(true);
    expect(session.model.id).toBe('ai-sdk:mock:judge-1');
    expect(session.usage.total()).toMatchObject({ calls: 1, inputTokens: 12, outputTokens: 1 });
    const call = mock.doGenerateCalls[0];
    expect(call?.seed).toBe(5);
    expect(call?.temperature).toBe(0);
    const system = call?.prompt.find((m) => m.role === 'system');
    expect(system?.content).toContain('<!-- tslc:predicate name=inCave -->');
    expect(system?.content).toContain('You judge stories.');
    expect(JSON.stringify(call?.prompt.filter((m) => m.role === 'user'))).toContain('The hero enters the cave.');
  });

  it('maps stop sequences and max tokens', async () => {
    const mock = new MockLanguageModelV3({ doGenerate: result('A passage.') });
    const model = fromAiSdk(mock);
    await model.complete([{ role: 'user', content: 'write' }], { maxTokens: 64, stop: ['END'], temperature: 0.9 });
    expect(mock.doGenerateCalls[0]).toMatchObject({ maxOutputTokens: 64, stopSequences: ['END'], temperature: 0.9 });
  });

  it('a predicate sends its token limit, and an answer cut at it is marked truncated', async () => {
    const cut = { ...result('Let me'), finishReason: { unified: 'length' as const, raw: 'length' } };
    const mock = new MockLanguageModelV3({ doGenerate: cut });
    const model = fromAiSdk(mock);
    const completion = await model.complete([{ role: 'user', content: 'q' }], { maxTokens: 16 });
    expect(completion.truncated).toBe(true);
    expect((await fromAiSdk(new MockLanguageModelV3({ doGenerate: result('1') })).complete([{ role: 'user', content: 'q' }])).truncated).toBeUndefined();
    await expect(createLlmSession({ model }).predicate({ name: 'inCave', prompt: 'In a cave?' })()).rejects.toThrow(/cut at the 16-token limit/);
    expect(mock.doGenerateCalls.at(-1)?.maxOutputTokens).toBe(16);
  });

  it('maps a 429 APICallError to rate-limit, which the session retries', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        if (calls === 1) {
          throw new APICallError({
            message: 'Too many requests',
            url: 'https://example.invalid',
            requestBodyValues: {},
            statusCode: 429,
            responseHeaders: { 'retry-after': '1' },
            isRetryable: true,
          });
        }
        return result('0');
      },
    });
    const delays: number[] = [];
    const session = createLlmSession({
      model: fromAiSdk(mock),
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    expect(await session.predicate({ name: 'inTown', prompt: 'town?' })()).toBe(false);
    expect(calls).toBe(2);
    expect(delays).toEqual([1000]);
  });

  it('maps other thrown errors to a typed provider error', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('model exploded');
      },
    });
    const model = fromAiSdk(mock);
    await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toSatisfy(
      (error: unknown) => error instanceof LlmError && error.kind === 'provider' && error.message.includes('exploded'),
    );
  });
});

describe('runtime/llm module boundaries', () => {
  async function sources(directory: string): Promise<string[]> {
    const entries = await readdir(directory, { withFileTypes: true });
    const files = await Promise.all(
      entries.map((entry) => {
        const path = join(directory, entry.name);
        return entry.isDirectory() ? sources(path) : Promise.resolve(path.endsWith('.ts') ? [path] : []);
      }),
    );
    return files.flat();
  }

  it("never imports 'ai' statically and never imports from src/", async () => {
    const files = await sources(join(import.meta.dirname, '../../runtime/llm'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      expect(text, file).not.toMatch(/^\s*import\s+(?!type\b)[^;]*from\s+['"]ai(\/[^'"]*)?['"]/m);
      expect(text, file).not.toMatch(/^\s*export\s+[^;]*from\s+['"]ai['"]/m);
      expect(text, file).not.toMatch(/from\s+['"](\.\.\/)+src\//);
    }
  });
});
