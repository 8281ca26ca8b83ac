import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmError, openAiCompatible, withReliability } from '../../runtime/llm/index.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

interface Seen {
  readonly body: string;
  readonly authorization: string | undefined;
}

let server: Server;
let baseURL: string;
let handlers: Handler[];
let seen: Seen[];

function ok(text: string, usage = { prompt_tokens: 11, completion_tokens: 3 }): Handler {
  return (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: text } }], usage }));
  };
}

function status(code: number, headers: Record<string, string> = {}): Handler {
  return (_request, _body, response) => {
    response.writeHead(code, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ error: { message: `status ${code} from test server` } }));
  };
}

beforeEach(async () => {
  handlers = [];
  seen = [];
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      seen.push({ body, authorization: request.headers.authorization });
      const handler = handlers.length > 1 ? handlers.shift() : handlers[0];
      if (!handler) throw new Error('no handler');
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function noWait(delays: number[]) {
  return async (ms: number): Promise<void> => {
    delays.push(ms);
  };
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LlmError);
    return error as LlmError;
  }
  throw new Error('expected the call to fail');
}

describe('openAiCompatible over loopback HTTP', () => {
  it('sends the chat-completions request and reads text and usage', async () => {
    handlers.push(ok('Hello there'));
    const model = openAiCompatible({ baseURL: `${baseURL}/`, model: 'llama3', apiKey: 'k-123' });
    const result = await model.complete(
      [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      { temperature: 0.2, seed: 7, maxTokens: 50, stop: ['\n\n'] },
    );
    expect(result.text).toBe('Hello there');
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 3 });
    expect(result.simulated).toBe(false);
    expect(model.id).toBe(`openai-compatible:${baseURL}/#llama3`);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toBe('Bearer k-123');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({
      model: 'llama3',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0.2,
      seed: 7,
      max_tokens: 50,
      stop: ['\n\n'],
    });
  });

  it('sends no Authorization header without a key', async () => {
    handlers.push(ok('x'));
    await openAiCompatible({ baseURL, model: 'm' }).complete([{ role: 'user', content: 'q' }]);
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('retries 429 honouring Retry-After, then succeeds', async () => {
    handlers.push(status(429, { 'retry-after': '2' }), ok('after rate limit'));
    const delays: number[] = [];
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), {
      sleep: noWait(delays),
      retry: { baseDelayMs: 100, jitter: false },
    });
    const result = await model.complete([{ role: 'user', content: 'q' }]);
    expect(result.text).toBe('after rate limit');
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([2000]);
    expect(model.usage.total()).toMatchObject({ calls: 2, retries: 1, failures: 0, inputTokens: 11, outputTokens: 3 });
  });

  it('backs off exponentially on 5xx and gives up after maxAttempts with a typed error', async () => {
    handlers.push(status(503));
    const delays: number[] = [];
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), {
      sleep: noWait(delays),
      retry: { maxAttempts: 4, baseDelayMs: 100, jitter: false },
    });
    const error = await failure(model.complete([{ role: 'user', content: 'q' }]));
    expect(error.kind).toBe('server');
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(4);
    expect(seen).toHaveLength(4);
    expect(delays).toEqual([100, 200, 400]);
    expect(model.usage.total()).toMatchObject({ calls: 4, retries: 3, failures: 1 });
  });

  it('recovers from a 500 followed by success', async () => {
    handlers.push(status(500), ok('fine now'));
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), { sleep: noWait([]) });
    expect((await model.complete([{ role: 'user', content: 'q' }])).text).toBe('fine now');
  });

  it.each([
    [400, 'http'],
    [404, 'http'],
    [401, 'auth'],
    [403, 'auth'],
  ] as const)('does not retry HTTP %i (%s)', async (code, kind) => {
    handlers.push(status(code));
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), { sleep: noWait([]) });
    const error = await failure(model.complete([{ role: 'user', content: 'q' }]));
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(`status ${code} from test server`);
    expect(seen).toHaveLength(1);
  });

  it('reports garbage JSON and a missing content field as bad-response, without retrying', async () => {
    handlers.push((_q, _b, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"choices": [ this is not json');
    });
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), { sleep: noWait([]) });
    const garbage = await failure(model.complete([{ role: 'user', content: 'q' }]));
    expect(garbage.kind).toBe('bad-response');
    expect(garbage.raw).toContain('this is not json');
    expect(seen).toHaveLength(1);

    handlers.length = 0;
    handlers.push((_q, _b, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [{ message: { content: null } }] }));
    });
    expect((await failure(model.complete([{ role: 'user', content: 'q' }]))).kind).toBe('bad-response');
  });

  it('times out a hanging server per attempt and retries the timeout', async () => {
    handlers.push(() => {
      // Never answer.
    });
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), {
      timeoutMs: 150,
      sleep: noWait([]),
      retry: { maxAttempts: 2 },
    });
    const started = Date.now();
    const error = await failure(model.complete([{ role: 'user', content: 'q' }]));
    expect(error.kind).toBe('timeout');
    expect(error.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops at once when the caller aborts, without retrying', async () => {
    handlers.push(() => {
      // Never answer.
    });
    const model = withReliability(openAiCompatible({ baseURL, model: 'm' }), { sleep: noWait([]) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(model.complete([{ role: 'user', content: 'q' }], { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(seen).toHaveLength(1);
  });

  it('reports a refused connection as a retryable network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const delays: number[] = [];
    const model = withReliability(openAiCompatible({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }), {
      sleep: noWait(delays),
      retry: { maxAttempts: 2, jitter: false, baseDelayMs: 10 },
    });
    const error = await failure(model.complete([{ role: 'user', content: 'q' }]));
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(delays).toEqual([10]);
  });
});
