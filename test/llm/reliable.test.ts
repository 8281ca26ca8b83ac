import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CallBudget,
  type ChatMessage,
  type Completion,
  FileCache,
  type GenerateOptions,
  LlmError,
  MemoryCache,
  type Model,
  cacheKey,
  createLlmSession,
  withReliability,
} from '../../runtime/llm/index.js';

/** A scripted model: each call takes the next behaviour; records what it was asked. */
function scripted(behaviours: ((messages: readonly ChatMessage[], options: GenerateOptions) => Promise<string>)[]) {
  const calls: { messages: readonly ChatMessage[]; options: GenerateOptions }[] = [];
  const model: Model = {
    id: 'fake:scripted',
    simulated: false,
    async complete(messages, options = {}): Promise<Completion> {
      calls.push({ messages, options });
      const behaviour = behaviours[Math.min(calls.length - 1, behaviours.length - 1)];
      if (!behaviour) throw new Error('no behaviour');
      const text = await behaviour(messages, options);
      return { text, model: 'fake:scripted', simulated: false, usage: { inputTokens: 10, outputTokens: 2 } };
    },
  };
  return { model, calls };
}

const echo = async (messages: readonly ChatMessage[]): Promise<string> => `echo:${messages.at(-1)?.content ?? ''}`;
const ask = (content: string): ChatMessage[] => [{ role: 'user', content }];

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected the call to fail');
}

describe('withReliability', () => {
  it('serves repeated (model, prompt, seed) from the cache and counts cache hits', async () => {
    const { model, calls } = scripted([echo]);
    const reliable = withReliability(model, { cache: new MemoryCache() });
    const first = await reliable.complete(ask('a'), { seed: 1 });
    const second = await reliable.complete(ask('a'), { seed: 1 });
    await reliable.complete(ask('a'), { seed: 2 });
    await reliable.complete(ask('b'), { seed: 1 });
    expect(first.cached).toBeUndefined();
    expect(second).toMatchObject({ text: 'echo:a', cached: true });
    expect(calls).toHaveLength(3);
    expect(reliable.usage.total()).toMatchObject({ calls: 3, cachedCalls: 1 });
  });

  it('keys the cache on model id, messages, seed and sampling options', () => {
    const base = cacheKey('m', ask('x'), { seed: 1 });
    expect(cacheKey('m', ask('x'), { seed: 1, signal: new AbortController().signal })).toBe(base);
    expect(cacheKey('n', ask('x'), { seed: 1 })).not.toBe(base);
    expect(cacheKey('m', ask('y'), { seed: 1 })).not.toBe(base);
    expect(cacheKey('m', ask('x'), { seed: 2 })).not.toBe(base);
    expect(cacheKey('m', ask('x'), { seed: 1, temperature: 0.5 })).not.toBe(base);
    expect(cacheKey('m', [{ role: 'system', content: 'x' }], { seed: 1 })).not.toBe(base);
  });

  it('persists the file cache across runs and ignores corrupt entries', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'tslc-llm-cache-'));
    try {
      const run1 = scripted([echo]);
      await withReliability(run1.model, { cache: new FileCache(directory) }).complete(ask('q'), { seed: 3 });
      const run2 = scripted([async () => 'should not be called']);
      const again = await withReliability(run2.model, { cache: new FileCache(directory) }).complete(ask('q'), {
        seed: 3,
      });
      expect(again).toMatchObject({ text: 'echo:q', cached: true });
      expect(run2.calls).toHaveLength(0);

      const [file] = await readdir(directory);
      await writeFile(join(directory, file ?? ''), '{broken');
      const run3 = scripted([async () => 'fresh']);
      const fresh = await withReliability(run3.model, { cache: new FileCache(directory) }).complete(ask('q'), {
        seed: 3,
      });
      expect(fresh.text).toBe('fresh');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stops at the call budget without sending, shared across wrappers; cache hits are free', async () => {
    const budget = new CallBudget({ maxCalls: 2 });
    const cache = new MemoryCache();
    const { model, calls } = scripted([echo]);
    const a = withReliability(model, { budget, cache });
    const b = withReliability(model, { budget });
    await a.complete(ask('1'));
    await a.complete(ask('1'));
    await b.complete(ask('2'));
    const error = await failure(b.complete(ask('3')));
    expect(error.kind).toBe('budget-exhausted');
    expect(calls).toHaveLength(2);
    expect(budget.calls).toBe(2);
  });

  it('stops at the token budget', async () => {
    const budget = new CallBudget({ maxTokens: 20 });
    const { model } = scripted([echo]);
    const reliable = withReliability(model, { budget });
    await reliable.complete(ask('1'));
    await reliable.complete(ask('2'));
    expect(budget.tokens).toBe(24);
    expect((await failure(reliable.complete(ask('3')))).kind).toBe('budget-exhausted');
  });

  it('times out a model that ignores the abort signal', async () => {
    const { model, calls } = scripted([() => new Promise<string>(() => undefined)]);
    const reliable = withReliability(model, { timeoutMs: 50, retry: { maxAttempts: 2 }, sleep: async () => {} });
    const error = await failure(reliable.complete(ask('q')));
    expect(error.kind).toBe('timeout');
    expect(calls).toHaveLength(2);
    expect(calls[0]?.options.signal?.aborted).toBe(true);
  });

  it('wraps a thrown plain error as a non-retryable provider error', async () => {
    const { model, calls } = scripted([
      async () => {
        throw new TypeError('boom');
      },
    ]);
    const error = await failure(withReliability(model, { sleep: async () => {} }).complete(ask('q')));
    expect(error.kind).toBe('provider');
    expect(error.message).toContain('boom');
    expect(calls).toHaveLength(1);
  });

  it('uses jittered delays within [50%, 100%] of the exponential step', async () => {
    const delays: number[] = [];
    const { model } = scripted([
      async () => {
        throw new LlmError('server', '503');
      },
    ]);
    const reliable = withReliability(model, {
      retry: { maxAttempts: 3, baseDelayMs: 1000 },
      random: () => 0.5,
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    await failure(reliable.complete(ask('q')));
    expect(delays).toEqual([750, 1500]);
  });

  it('accounts usage to the turn of the session context', async () => {
    const { model } = scripted([echo]);
    const session = createLlmSession({ model });
    session.context.begin(0);
    await session.complete(ask('a'));
    session.context.begin(3);
    await session.complete(ask('b'));
    await session.complete(ask('c'));
    expect(session.usage.byStep().map(([step, usage]) => [step, usage.calls, usage.inputTokens])).toEqual([
      [0, 1, 10],
      [3, 2, 20],
    ]);
    expect(session.usage.total().outputTokens).toBe(6);
  });

  it('aborts every call when the context abort signal fires', async () => {
    const { model } = scripted([() => new Promise<string>(() => undefined)]);
    const session = createLlmSession({ model, timeoutMs: 0 });
    const controller = new AbortController();
    session.context.abortSignal = controller.signal;
    const pending = session.complete(ask('q'));
    setTimeout(() => controller.abort(), 20);
    // The scripted model ignores its signal; the caller still gets control back, as 'aborted'.
    expect((await failure(pending)).kind).toBe('aborted');
  });
});
