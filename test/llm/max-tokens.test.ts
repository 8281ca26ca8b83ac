/**
 * Token limits per kind of call, checked on the wire: a fake OpenAI-compatible server on
 * 127.0.0.1 (no network) records every request body, and answers as a small local model would
 * (a 0/1 for predicates, a passage for function terms, a summary), by the marker each helper puts
 * in its system message.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createLlmSession,
  createModel,
  DEFAULT_MAX_TOKENS,
  isLlmError,
  maxTokensFromEnv,
  openAiCompatible,
  parseMaxTokens,
  resolveMaxTokens,
} from '../../runtime/llm/index.js';
import { CYOA_FUNCTIONS, CYOA_PREDICATES, CYOA_SUMMARY } from '../../examples/cyoa/prompts.js';

interface Request {
  readonly kind: string;
  readonly body: Record<string, unknown>;
}

let server: Server;
let baseURL: string;
let requests: Request[];
/** What a predicate call answers, and with which finish_reason. */
let predicateReply: { content: string; finish: string };

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(text) as { messages: { role: string; content: string }[] };
      const kind = /<!-- tslc:(\w+)/.exec(body.messages[0]?.content ?? '')?.[1] ?? 'other';
      requests.push({ kind, body: body as unknown as Record<string, unknown> });
      const reply =
        kind === 'predicate'
          ? predicateReply
          : kind === 'summary'
            ? { content: 'The hero walked through a town.', finish: 'stop' }
            : { content: 'The hero walks into the busy town square, where a stranger waits.', finish: 'stop' };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply.content }, finish_reason: reply.finish }], usage: { prompt_tokens: 20, completion_tokens: 2 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  predicateReply = { content: '1', finish: 'stop' };
});

/** One call of each kind through a session with `maxTokens`. */
async function oneOfEach(maxTokens?: Parameters<typeof createLlmSession>[0]['maxTokens']): Promise<Map<string, Record<string, unknown>>> {
  const session = createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }), seed: 1, ...(maxTokens !== undefined ? { maxTokens } : {}) });
  await session.predicate(CYOA_PREDICATES.inTown)('The hero is in a town.');
  await session.generator(CYOA_FUNCTIONS.toTown)('');
  await session.summarizer(CYOA_SUMMARY)('', 'The hero is in a town.');
  return new Map(requests.map((r) => [r.kind, r.body]));
}

describe('max_tokens per kind of call', () => {
  it('sends the defaults: a few tokens for a predicate, a few hundred for a passage and a summary', async () => {
    const sent = await oneOfEach();
    expect(sent.get('predicate')?.max_tokens).toBe(DEFAULT_MAX_TOKENS.predicate);
    expect(sent.get('function')?.max_tokens).toBe(DEFAULT_MAX_TOKENS.function);
    expect(sent.get('summary')?.max_tokens).toBe(DEFAULT_MAX_TOKENS.summary);
    expect(DEFAULT_MAX_TOKENS.predicate).toBeLessThanOrEqual(32);
    expect(DEFAULT_MAX_TOKENS.function).toBeGreaterThanOrEqual(150);
  });

  it('takes limits per kind, keeps the defaults of the others, and sends none for null', async () => {
    const sent = await oneOfEach({ predicate: 4, summary: null });
    expect(sent.get('predicate')?.max_tokens).toBe(4);
    expect(sent.get('function')?.max_tokens).toBe(DEFAULT_MAX_TOKENS.function);
    expect(sent.get('summary')).not.toHaveProperty('max_tokens');
  });

  it('one number limits every kind; a function template’s own limit wins for its calls', async () => {
    const session = createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }), maxTokens: 50 });
    await session.predicate(CYOA_PREDICATES.inCave)('x');
    await session.generator({ ...CYOA_FUNCTIONS.toCave, maxTokens: 77 })('');
    await session.summarizer(CYOA_SUMMARY)('', 'x');
    expect(requests.map((r) => [r.kind, r.body.max_tokens])).toEqual([
      ['predicate', 50],
      ['function', 77],
      ['summary', 50],
    ]);
  });

  it('a re-asked predicate keeps its limit', async () => {
    predicateReply = { content: 'maybe', finish: 'stop' };
    const ask = createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }), maxTokens: { predicate: 6 } }).predicate(CYOA_PREDICATES.inCave);
    await expect(ask('x')).rejects.toThrow(/no 0\/1 answer/);
    expect(requests.map((r) => r.body.max_tokens)).toEqual([6, 6]);
  });

  it('says when a predicate answer was cut at the limit (a reasoning model needs more)', async () => {
    predicateReply = { content: '<think>The passage mentions', finish: 'length' };
    const ask = createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }) }).predicate(CYOA_PREDICATES.inCave);
    const error: unknown = await ask('x').catch((e: unknown) => e);
    expect(isLlmError(error) && error.kind).toBe('garbage-answer');
    expect((error as Error).message).toMatch(/cut at the 16-token limit for predicate calls.*TSLC_MAX_TOKENS=predicate=/);
  });

  it("'openai:' sends OpenAI's current field, max_completion_tokens", async () => {
    const model = createModel('openai:gpt-test', { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: baseURL });
    await createLlmSession({ model }).predicate(CYOA_PREDICATES.inCave)('x');
    expect(requests[0].body.max_completion_tokens).toBe(DEFAULT_MAX_TOKENS.predicate);
    expect(requests[0].body).not.toHaveProperty('max_tokens');
  });

  it('rejects a bad limit when the session is made', () => {
    expect(() => createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }), maxTokens: 0 })).toThrow(/positive whole number/);
    expect(() => createLlmSession({ model: openAiCompatible({ baseURL, model: 'tiny' }), maxTokens: { passage: 5 } as never })).toThrow(/unknown kind of call 'passage'/);
  });
});

describe('TSLC_MAX_TOKENS', () => {
  it('reads a number, off, and limits per kind', () => {
    expect(resolveMaxTokens(parseMaxTokens('250'))).toEqual({ predicate: 250, function: 250, summary: 250 });
    expect(resolveMaxTokens(parseMaxTokens(' off '))).toEqual({ predicate: null, function: null, summary: null });
    expect(resolveMaxTokens(parseMaxTokens('predicate=8, function=off'))).toEqual({ predicate: 8, function: null, summary: DEFAULT_MAX_TOKENS.summary });
    expect(maxTokensFromEnv({})).toBeUndefined();
    expect(maxTokensFromEnv({ TSLC_MAX_TOKENS: 'summary=900' })).toEqual({ summary: 900 });
  });

  it.each([['0'], ['-5'], ['1.5'], ['lots'], ['predicate'], ['judge=4'], ['predicate=,function=3'], ['']])('%j is a config error naming the accepted forms', (text) => {
    let error: unknown;
    try {
      parseMaxTokens(text);
    } catch (e) {
      error = e;
    }
    expect(isLlmError(error) && error.kind).toBe('config');
    expect((error as Error).message).toMatch(/TSLC_MAX_TOKENS .*expected a number of tokens/);
  });
});

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));

describe.skipIf(!built)('a local set-up end to end: tslc demo against the fake server', () => {
  /** Runs the built CLI without blocking this process, so the server can answer. */
  function tslc(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(root, 'bin/tslc.js'), ...args], { cwd: root, env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('TSLC_MODEL points the demo at the server; TSLC_MAX_TOKENS sets what every call sends', async () => {
    const r = await tslc(['demo', '--no-compile', '--steps', '2', '--repair', '0'], {
      TSLC_MODEL: `openai-compatible:${baseURL}#tiny`,
      TSLC_MAX_TOKENS: 'predicate=5,summary=off',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`Model: openai-compatible:${baseURL}#tiny`);
    expect(r.code).toBe(0);
    const kinds = new Set(requests.map((q) => q.kind));
    expect(kinds).toContain('predicate');
    expect(kinds).toContain('function');
    for (const q of requests) {
      if (q.kind === 'predicate') expect(q.body.max_tokens).toBe(5);
      if (q.kind === 'function') expect(q.body.max_tokens).toBe(DEFAULT_MAX_TOKENS.function);
      if (q.kind === 'summary') expect(q.body).not.toHaveProperty('max_tokens');
    }
  });

  it('a bad TSLC_MAX_TOKENS is a usage error (exit 2), before any call', async () => {
    const r = await tslc(['demo', '--no-compile', '--steps', '1'], { TSLC_MODEL: `openai-compatible:${baseURL}#tiny`, TSLC_MAX_TOKENS: 'predicate=lots' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: invalid TSLC_MAX_TOKENS "predicate=lots"/);
    expect(requests).toHaveLength(0);
  });
});
