/**
 * The stdio front in-process: client lines that are not JSON-RPC get the JSON-RPC error a server
 * owes them and the session goes on; the session ends with the client's stdin.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Upstream } from '../../src/shield/child-server.js';
import type { JsonRpcMessage } from '../../src/shield/jsonrpc.js';
import { ShieldPolicy } from '../../src/shield/policy.js';
import { shieldRulesFromFiles } from '../../src/shield/rules-file.js';
import { serveStdio } from '../../src/shield/stdio-front.js';

class EchoServer implements Upstream {
  onmessage?: (m: JsonRpcMessage, raw?: string) => void;
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
