/**
 * The stdio front in-process: client lines that are not JSON-RPC get the JSON-RPC error a server
 * owes them and the session goes on; the session ends with the client's stdin.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ChildServer, type Upstream } from '../../src/shield/child-server.js';
import type { JsonRpcMessage } from '../../src/shield/jsonrpc.js';
import { ShieldPolicy } from '../../src/shield/policy.js';
import { shieldRulesFromFiles } from '../../src/shield/rules-file.js';
import { serveStdio } from '../../src/shield/stdio-front.js';

class EchoServer implements Upstream {
  onmessage?: (m: JsonRpcMessage, raw?: string) => void;
  onend?: Upstream['onend'];
  readonly received: JsonRpcMessage[] = [];
  closed = false;
  send(m: JsonRpcMessage): void {
    this.received.push(m);
    if ('id' in m && 'method' in m) {
      const reply = { jsonrpc: '2.0' as const, id: m.id, result: { content: [{ type: 'text', text: `echo ${m.method}` }] } };
      setImmediate(() => this.onmessage?.(reply, JSON.stringify(reply)));
    }
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

describe('serveStdio', () => {
  it('answers garbage from the client with JSON-RPC errors and keeps serving; ends with stdin', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.on('data', (c: Buffer) => (out += c.toString()));
    const upstream = new EchoServer();
    const policy = new ShieldPolicy('t', { rules: shieldRulesFromFiles([{ path: 'r', text: 'call:refund never happens\n' }]), rulesName: 'r' });
    const done = serveStdio({ policy, upstream, input, output, timeoutMs: 5000, maxMessageBytes: 1 << 20, say: () => undefined });
    input.write('this is not json\n');
    input.write('{"jsonrpc":"1.0","id":4,"method":"x"}\n');
    input.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refund"}}\n');
    input.write('{"jsonrpc":"2.0","id":6,"method":"ping"}\r\n');
    await new Promise((r) => setTimeout(r, 50));
    input.end();
    expect(await done).toBe(0);
    const replies = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(replies[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(replies[1]).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(replies[2]).toMatchObject({ id: 5, result: { isError: true } });
    expect(replies[3]).toEqual({ jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: 'echo ping' }] } });
    expect(upstream.received.map((m) => ('method' in m ? m.method : ''))).toEqual(['ping']);
    expect(upstream.closed).toBe(true);
  });
});

describe('serveStdio exit code when the client and the server end at once', () => {
  const policy = () => new ShieldPolicy('t', { rules: shieldRulesFromFiles([{ path: 'r', text: 'call:refund never happens\n' }]), rulesName: 'r' });
  const serveEmpty = (command: string) => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const upstream = new ChildServer({ command, args: [], maxMessageBytes: 1 << 20, stderr: new PassThrough() });
    const done = serveStdio({ policy: policy(), upstream, input, output, timeoutMs: 5000, maxMessageBytes: 1 << 20, say: () => undefined });
    input.end();
    return done;
  };

  // `tslc shield mcp -- true` with an empty stdin used to exit 0 or 1 depending on whether the
  // server's exit or the client's end was seen first.
  it('a server that exits 0 by itself is no failure, whichever end is seen first', async () => {
    const codes = await Promise.all(Array.from({ length: 6 }, () => serveEmpty('true')));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('a server that exits non-zero is a failure, whichever end is seen first', async () => {
    const codes = await Promise.all(Array.from({ length: 6 }, () => serveEmpty('false')));
    expect(codes).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('a server that ends cleanly before the client: 0 when the client then closes', async () => {
    for (const clean of [true, false]) {
      const input = new PassThrough();
      const output = new PassThrough();
      output.resume();
      const upstream = new EchoServer();
      const done = serveStdio({ policy: policy(), upstream, input, output, timeoutMs: 5000, maxMessageBytes: 1 << 20, say: () => undefined });
      upstream.onend?.({ kind: 'exit', message: 'the MCP server exited', clean });
      input.end();
      expect(await done).toBe(clean ? 0 : 1);
    }
  });
});
