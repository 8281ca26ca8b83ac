/**
 * Counting and capping in the LLM layer (issue 18, item 17): a `StepError` reports the attempts the
 * LLM layer made, not just the controller's one call; response bodies are capped (a 50 MB body is
 * not read, let alone echoed); an over-long answer is cut before a re-ask quotes it. A local HTTP
 * server stands in for the provider (no network).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../runtime/agent/index.js';
import { createController, StepError } from '../../runtime/index.js';
import { createLlmSession, DEFAULT_MAX_RESPONSE_BYTES, fromAiSdk, LlmError, openAiCompatible, withReliability } from '../../runtime/llm/index.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { scriptedModel } from '../agent/helpers.js';
import { tinyMachine, tinySpec } from '../codegen/fixtures.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

let server: Server;
let baseURL: string;
let handlers: Handler[];
/** Request bodies received, in order. */
let bodies: string[];

const answer = (text: string): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: text } }] }));
};
const serverError: Handler = (_req, res) => {
  res.writeHead(500, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: 'overloaded' } }));
};

beforeEach(async () => {
  handlers = [];
  bodies = [];
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const noWait = async (): Promise<void> => undefined;
const session = (reasks = 1) =>
  createLlmSession({ model: openAiCompatible({ baseURL, model: 'm' }), retry: { maxAttempts: 3, jitter: false }, sleep: noWait, reasks });

/** The tiny controller with `inCave` answered by `inCave`, everything else plain. */
function controller(inCave: (...args: unknown[]) => Promise<boolean>, retries = 0) {
  const impl = {
    inCave,
    inTown: () => true,
    happy: () => true,
    toCave: (s: string) => `${s} cave`,
    toTown: (s: string) => `${s} town`,
    summarize: (s: string, p: string) => s + p,
  };
  return createController<{ summary: string; count: number; passage: string; mood: string }, object>({
    table: buildControllerTable(tinySpec, tinyMachine),
    impl,
    initialSignals: { summary: 's', count: 0, passage: 'p' },
    options: { telemetry: false, retries },
  });
}

async function stepError(c: ReturnType<typeof controller>): Promise<StepError> {
  const err = await c.step({ mood: 'x' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StepError);
  return err as StepError;
}

describe('attempts are counted through every layer', () => {
  it('three HTTP attempts under one controller call: "after 3 attempts"', async () => {
    handlers.push(serverError);
    const err = await stepError(controller(session().predicate({ name: 'inCave', prompt: 'cave?' })));
    expect(bodies).toHaveLength(3);
    expect(err.call).toMatchObject({ kind: 'predicate', name: 'inCave', attempts: 3, calls: 1 });
    expect(err.message).toMatch(/failed in `inCave summary` after 3 attempts: .*HTTP 500/);
  });

  it('controller retries multiply: 2 calls × 3 attempts', async () => {
    handlers.push(serverError);
    const err = await stepError(controller(session().predicate({ name: 'inCave', prompt: 'cave?' }), 1));
    expect(bodies).toHaveLength(6);
    expect(err.call).toMatchObject({ attempts: 6, calls: 2 });
    expect(err.message).toMatch(/after 6 attempts in 2 calls/);
  });

  it('a re-ask is an attempt too, and so are the retries before it', async () => {
    handlers.push(serverError, answer('maybe'), answer('perhaps'));
    const err = await stepError(controller(session().predicate({ name: 'inCave', prompt: 'cave?' })));
    expect(bodies).toHaveLength(3);
    expect((err.cause as LlmError).kind).toBe('garbage-answer');
    expect(err.call.attempts).toBe(3);
    expect(err.message).toMatch(/after 3 attempts/);
  });

  it('an error on the re-ask counts the first ask', async () => {
    handlers.push(answer('maybe'), serverError);
    const err = await session()
      .predicate({ name: 'p', prompt: 'p?' })()
      .then(
        () => undefined,
        (e: unknown) => e as LlmError,
      );
    expect(err?.kind).toBe('server');
    expect(err?.attempts).toBe(4);
  });
});

describe('response bodies are capped', () => {
  /** Streams `total` bytes of a JSON-ish body in 64 KiB chunks (no content-length), counting what was written. */
  function huge(total: number, written: { bytes: number }): Handler {
    return (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = (): void => {
        while (written.bytes < total) {
          written.bytes += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    };
  }

  it('a 50 MB body is refused after the default 4 MiB, not retried, with a clear error', async () => {
    const written = { bytes: 0 };
    handlers.push(huge(50 * 1024 * 1024, written));
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), { retry: { maxAttempts: 3 }, sleep: noWait });
    const err = await model.complete([{ role: 'user', content: 'hi' }]).then(
      () => undefined,
      (e: unknown) => e as LlmError,
    );
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(4 * 1024 * 1024);
    expect(err).toBeInstanceOf(LlmError);
    expect(err?.kind).toBe('too-large');
    expect(err?.message).toMatch(/sent a response larger than 4 MiB \(maxResponseBytes\)/);
    expect(err?.attempts).toBe(1);
    expect(bodies).toHaveLength(1);
    // The client stopped reading: the server could not push the whole 50 MB.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written.bytes).toBeLessThan(50 * 1024 * 1024);
  });

  it('a declared content-length over the cap is refused before reading; the cap is configurable', async () => {
    handlers.push((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10_000) });
      res.end('x'.repeat(10_000));
    });
    const model = openAiCompatible({ baseURL, model: 'm', maxResponseBytes: 1000 });
    await expect(model.complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'too-large', message: expect.stringMatching(/larger than 1000 bytes/) });
    handlers.length = 0;
    handlers.push(answer('fine'));
    expect((await model.complete([{ role: 'user', content: 'hi' }])).text).toBe('fine');
  });

  it('a fake fetch works too (no network), and an error body is only quoted, never read whole', async () => {
    const big = JSON.stringify({ error: { message: 'x'.repeat(200_000) } });
    const model = openAiCompatible({ baseURL: 'http://fake.invalid/v1', model: 'm', fetch: async () => new Response(big, { status: 400 }) });
    const err = (await model.complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e)) as LlmError;
    expect(err.kind).toBe('http');
    expect(err.raw?.length).toBeLessThanOrEqual(2000);
    expect(err.message.length).toBeLessThan(1000);
  });

  it('the AI SDK adapter caps answers as well', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: [{ type: 'text' as const, text: 'é'.repeat(600) }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
        warnings: [],
      }),
    });
    await expect(fromAiSdk(mock, { maxResponseBytes: 1000 }).complete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'too-large' });
    expect((await fromAiSdk(mock, { maxResponseBytes: 1200 }).complete([{ role: 'user', content: 'hi' }])).text).toHaveLength(600);
  });
});

describe('re-asks never echo an over-long answer', () => {
  it('a 200 KB unreadable answer is quoted cut to 2000 characters with a note', async () => {
    const long = 'blah '.repeat(40_000);
    handlers.push(answer(long), answer('1'));
    expect(await session().predicate({ name: 'p', prompt: 'p?' })()).toBe(true);
    expect(bodies).toHaveLength(2);
    const messages = (JSON.parse(bodies[1]) as { messages: { role: string; content: string }[] }).messages;
    const echoed = messages.find((m) => m.role === 'assistant')!.content;
    expect(echoed.length).toBeLessThan(2100);
    expect(echoed).toMatch(/\[… 198000 more characters of this reply were cut\]$/);
    expect(bodies[1].length).toBeLessThan(5000);
  });

  it('the garbage-answer error keeps a bounded copy of the reply', async () => {
    handlers.push(answer('x'.repeat(100_000)));
    const err = (await session(0).predicate({ name: 'p', prompt: 'p?' })().catch((e: unknown) => e)) as LlmError;
    expect(err.kind).toBe('garbage-answer');
    expect(err.raw?.length).toBe(2000);
    expect(err.message.length).toBeLessThan(400);
  });

  it('the agent loop cuts a long rejected answer before re-asking', async () => {
    const model = scriptedModel(['hmm', `{"answer": "${'six '.repeat(5000)}"}`, '{"answer": 6}']);
    const run = await runAgent(
      {
        name: 'json',
        states: [
          { name: 'Think', text: 'Think:' },
          { name: 'Out', text: 'Output:', schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'number' } } } },
        ],
        behavior: { next: ['Think', 'Out'] },
      },
      model,
      () => null,
      { task: 't' },
    );
    expect(run.answer).toBe('{"answer": 6}');
    const quoted = model.requests[2].messages.filter((m) => m.role === 'assistant').map((m) => m.content);
    expect(quoted.some((q) => q.includes('more characters of this reply were cut'))).toBe(true);
    expect(Math.max(...quoted.map((q) => q.length))).toBeLessThan(2100);
  });
});
