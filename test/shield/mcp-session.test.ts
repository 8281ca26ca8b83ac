/**
 * The MCP proxy's protocol core in-process: what reaches the server, what the client is told, and
 * what the shield records — with scripted server replies instead of a real server.
 */
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../src/shield/jsonrpc.js';
import { McpShieldSession } from '../../src/shield/mcp-session.js';
import { ShieldPolicy } from '../../src/shield/policy.js';
import type { LogLine } from '../../src/shield/decision-log.js';
import { shieldRulesFromFiles } from '../../src/shield/rules-file.js';

const RULES = 'refund-after-lookup: call:refund only after ok:lookup_order\none-refund: call:refund happens at most 1 times\n';

function harness(opts: { rules?: string; timeoutMs?: number; hideDenied?: boolean; policy?: ShieldPolicy } = {}) {
  const log: LogLine[] = [];
  const policy =
    opts.policy ??
    new ShieldPolicy('s1', {
      rules: shieldRulesFromFiles([{ path: 'rules.ltl', text: opts.rules ?? RULES }]),
      rulesName: 'rules.ltl',
      log: { write: (l) => log.push(l), close: async () => undefined },
    });
  const toClient: { message: JsonRpcMessage; related?: RequestId }[] = [];
  const toServer: JsonRpcMessage[] = [];
  const fatal: string[] = [];
  const session = new McpShieldSession({
    policy,
    toClient: (message, related) => toClient.push({ message, ...(related !== undefined ? { related } : {}) }),
    toServer: (m) => toServer.push(m),
    timeoutMs: opts.timeoutMs ?? 60_000,
    hideDenied: opts.hideDenied ?? false,
    onFatal: (r) => fatal.push(r),
  });
  let next = 1;
  const call = (name: string, args: Record<string, unknown> = { order_id: 'A17' }, id: RequestId = next++): JsonRpcRequest => {
    const req: JsonRpcRequest = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
    session.fromClient(req);
    return req;
  };
  const reply = (id: RequestId, result: Record<string, unknown>): void => session.fromServer({ jsonrpc: '2.0', id, result });
  const ok = (id: RequestId, text = 'done'): void => reply(id, { content: [{ type: 'text', text }] });
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
  const serverCalls = (): string[] => toServer.filter((m) => 'method' in m && m.method === 'tools/call').map((m) => (m as JsonRpcRequest).params!.name as string);
  return { session, policy, log, toClient, toServer, fatal, call, reply, ok, settle, serverCalls };
}

function resultOf(m: JsonRpcMessage | undefined): Record<string, unknown> {
  if (!m || !('result' in m)) throw new Error(`expected a result, got ${JSON.stringify(m)}`);
  return m.result;
}

describe('McpShieldSession: tools/call', () => {
  it('denies refund before lookup without forwarding it; the reply names the rule, the reason and the allowed tools', async () => {
    const h = harness();
    h.call('refund');
    await h.settle();
    expect(h.serverCalls()).toEqual([]);
    const r = resultOf(h.toClient[0]?.message);
    expect(r.isError).toBe(true);
    const text = (r.content as { text: string }[])[0].text;
    expect(text).toContain('rule "refund-after-lookup" (call:refund only after ok:lookup_order) forbids it');
    expect(text).toContain('Tools allowed now: lookup_order.');
    expect(r._meta).toMatchObject({ 'tslc/shield': { denied: true, tool: 'refund', rules: ['refund-after-lookup'], allowedTools: ['lookup_order'] } });
    expect(h.policy.shield.trace).toEqual([]);
    expect(h.log).toHaveLength(1);
    expect(h.log[0]).toMatchObject({ kind: 'call', tool: 'refund', decision: 'denied', rule: 'refund-after-lookup', event: ['denied:refund'] });
  });

  it('forwards allowed calls and records call:<tool> then ok:<tool> (error:<tool> for isError results)', async () => {
    const h = harness();
    const a = h.call('lookup_order', { order_id: 'NOPE' });
    await h.settle();
    h.reply(a.id, { content: [{ type: 'text', text: 'no order' }], isError: true });
    await h.settle();
    const b = h.call('lookup_order');
    await h.settle();
    h.ok(b.id);
    await h.settle();
    const c = h.call('refund');
    await h.settle();
    expect(h.serverCalls()).toEqual(['lookup_order', 'lookup_order', 'refund']);
    h.ok(c.id, 'refunded');
    await h.settle();
    expect(h.policy.shield.trace).toEqual([['call:lookup_order'], ['error:lookup_order'], ['call:lookup_order'], ['ok:lookup_order'], ['call:refund'], ['ok:refund']]);
    // The client got the server's replies, unchanged, in order.
    expect(h.toClient.map((m) => (m.message as { id: RequestId }).id)).toEqual([a.id, b.id, c.id]);
    expect(h.log.map((l) => `${l.kind}:${l.tool}:${'outcome' in l ? l.outcome : ''}`)).toEqual([
      'call:lookup_order:error',
      'result:lookup_order:error',
      'call:lookup_order:ok',
      'result:lookup_order:ok',
      'call:refund:ok',
      'result:refund:ok',
    ]);
  });

  it('a call the server refuses with a JSON-RPC error did not run: it is not recorded', async () => {
    const h = harness();
    const a = h.call('lookup_order');
    await h.settle();
    h.session.fromServer({ jsonrpc: '2.0', id: a.id, error: { code: -32602, message: 'Tool lookup_order: invalid arguments' } });
    await h.settle();
    expect(h.policy.shield.trace).toEqual([]);
    expect(h.toClient[0].message).toMatchObject({ id: a.id, error: { code: -32602 } });
    expect(h.log[0]).toMatchObject({ decision: 'allowed', outcome: 'failed', event: [] });
  });

  it('decides calls one at a time: two concurrent refunds cannot both pass "at most 1"', async () => {
    const h = harness();
    const l = h.call('lookup_order');
    await h.settle();
    h.ok(l.id);
    await h.settle();
    const r1 = h.call('refund');
    const r2 = h.call('refund');
    await h.settle();
    // The second waits for the first's outcome before it is decided.
    expect(h.serverCalls()).toEqual(['lookup_order', 'refund']);
    h.ok(r1.id);
    await h.settle();
    expect(h.serverCalls()).toEqual(['lookup_order', 'refund']);
    const second = h.toClient.find((m) => (m.message as { id: RequestId }).id === r2.id);
    expect(resultOf(second?.message).isError).toBe(true);
    expect(JSON.stringify(resultOf(second?.message))).toContain('one-refund');
  });

  it('a call cancelled while waiting its turn never reaches the server; one cancelled in flight counts as possibly run', async () => {
    const h = harness({ rules: 'one-lookup: call:lookup_order happens at most 1 times\n' });
    const a = h.call('lookup_order');
    const b = h.call('lookup_order');
    h.session.fromClient({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: b.id } });
    await h.settle();
    h.session.fromClient({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: a.id } });
    await h.settle();
    // Only `a` was sent, and its cancellation was passed on; `b`'s was not (the server never saw b).
    expect(h.serverCalls()).toEqual(['lookup_order']);
    const cancels = h.toServer.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancels).toEqual([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: a.id } }]);
    expect(h.policy.shield.trace).toEqual([['call:lookup_order'], ['unknown:lookup_order']]);
    // A late answer to the cancelled request is dropped; the client is told nothing about either.
    h.ok(a.id);
    expect(h.toClient).toEqual([]);
    // The possibly-run lookup counts toward "at most 1".
    h.call('lookup_order');
    await h.settle();
    expect(resultOf(h.toClient[0]?.message).isError).toBe(true);
  });

  it('a server that misses the deadline fails the session: every waiting request gets an error, and the call counts', async () => {
    const h = harness({ timeoutMs: 30 });
    h.session.fromClient({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    const a = h.call('lookup_order');
    await new Promise((r) => setTimeout(r, 80));
    expect(h.fatal).toHaveLength(1);
    expect(h.fatal[0]).toMatch(/did not answer (ping|tools\/call) within 0.03 s/);
    const errors = h.toClient.map((m) => m.message).filter((m) => 'error' in m);
    expect(errors.map((e) => (e as { id: RequestId }).id).sort()).toEqual([a.id, 'p'].sort());
    expect((errors[0] as { error: { code: number; message: string } }).error.code).toBe(-32001);
    expect(h.policy.shield.trace).toEqual([['call:lookup_order'], ['unknown:lookup_order']]);
    // Later requests are refused at once.
    h.session.fromClient({ jsonrpc: '2.0', id: 'late', method: 'tools/list' });
    expect(h.toClient.at(-1)?.message).toMatchObject({ id: 'late', error: { code: -32000 } });
  });

  it('progress notifications restart the deadline and travel with their request', async () => {
    const h = harness({ timeoutMs: 60 });
    h.session.fromClient({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'lookup_order', arguments: {}, _meta: { progressToken: 'tok' } } });
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 35));
      h.session.fromServer({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'tok', progress: i } });
    }
    expect(h.fatal).toEqual([]);
    expect(h.toClient.map((m) => m.related)).toEqual([7, 7, 7, 7]);
    h.ok(7);
    await h.settle();
    expect(h.policy.shield.trace).toEqual([['call:lookup_order'], ['ok:lookup_order']]);
  });

  it('the server ending answers every waiting request with the reason', async () => {
    const h = harness();
    h.session.fromClient({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    h.session.serverEnded('the MCP server exited with code 3');
    expect(h.toClient[0].message).toMatchObject({ id: 1, error: { code: -32000, message: 'tslc shield: the MCP server exited with code 3' } });
    expect(h.fatal).toEqual(['the MCP server exited with code 3']);
  });

  it('everything that is not tools/call passes through unchanged, both ways', async () => {
    const h = harness();
    const req: JsonRpcMessage = { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///x' } };
    h.session.fromClient(req);
    expect(h.toServer).toEqual([req]);
    const sampling: JsonRpcMessage = { jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: { messages: [] } };
    h.session.fromServer(sampling);
    // The only open client request is 3, so on HTTP the server's request travels on its stream.
    expect(h.toClient).toEqual([{ message: sampling, related: 3 }]);
    const answer: JsonRpcMessage = { jsonrpc: '2.0', id: 'srv-1', result: { content: { type: 'text', text: 'hi' } } };
    h.session.fromClient(answer);
    expect(h.toServer.at(-1)).toEqual(answer);
    h.reply(3, { contents: [] });
    expect(h.toClient.at(-1)?.message).toEqual({ jsonrpc: '2.0', id: 3, result: { contents: [] } });
  });
});

describe('McpShieldSession: operator warnings', () => {
  it('warns when the rules name a tool the server does not have (a typo would otherwise never match)', () => {
    const warnings: string[] = [];
    const policy = new ShieldPolicy('w', { rules: shieldRulesFromFiles([{ path: 'r', text: 'r: call:refnd only after ok:lookup_order\n' }]), rulesName: 'r' });
    const session = new McpShieldSession({ policy, toClient: () => undefined, toServer: () => undefined, timeoutMs: 1000, onFatal: () => undefined, warn: (m) => warnings.push(m) });
    session.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    session.fromServer({ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'lookup_order' }, { name: 'refund' }] } });
    expect(warnings).toEqual(['the rules name the tool refnd, but the server has no such tool (it has lookup_order, refund)']);
    session.close();
  });
});

describe('McpShieldSession: --hide-denied', () => {
  it('advertises listChanged, lists only allowed tools, and notifies when the allowed set changes', async () => {
    const h = harness({ hideDenied: true });
    h.session.fromClient({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    h.reply(1, { capabilities: { tools: {} }, serverInfo: { name: 'orders', version: '1' } });
    expect(resultOf(h.toClient[0].message).capabilities).toEqual({ tools: { listChanged: true } });
    h.session.fromClient({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The proxy asks for the tool list itself, and keeps the answer to itself.
    const own = h.toServer.find((m) => 'method' in m && m.method === 'tools/list') as JsonRpcRequest;
    expect(String(own.id)).toMatch(/^tslc-shield:/);
    h.reply(own.id, { tools: [{ name: 'lookup_order', inputSchema: { type: 'object' } }, { name: 'refund', inputSchema: { type: 'object' } }] });
    expect(h.toClient).toHaveLength(1);
    h.session.fromClient({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    h.reply(2, { tools: [{ name: 'lookup_order', inputSchema: { type: 'object' } }, { name: 'refund', inputSchema: { type: 'object' } }] });
    expect((resultOf(h.toClient[1].message).tools as { name: string }[]).map((t) => t.name)).toEqual(['lookup_order']);
    const l = h.call('lookup_order');
    await h.settle();
    h.ok(l.id);
    await h.settle();
    const methods = h.toClient.slice(2).map((m) => ('method' in m.message ? m.message.method : `reply ${String((m.message as { id: RequestId }).id)}`));
    expect(methods).toEqual(['notifications/tools/list_changed', `reply ${String(l.id)}`]);
    h.session.fromClient({ jsonrpc: '2.0', id: 9, method: 'tools/list' });
    h.reply(9, { tools: [{ name: 'lookup_order', inputSchema: { type: 'object' } }, { name: 'refund', inputSchema: { type: 'object' } }] });
    expect((resultOf(h.toClient.at(-1)?.message).tools as { name: string }[]).map((t) => t.name)).toEqual(['lookup_order', 'refund']);
    // After the refund, refund is hidden again ("at most 1").
    const r = h.call('refund');
    await h.settle();
    h.ok(r.id);
    await h.settle();
    expect(h.toClient.filter((m) => 'method' in m.message && m.message.method === 'notifications/tools/list_changed')).toHaveLength(2);
  });

  it('without --hide-denied the list and the capabilities are the server\'s own', () => {
    const h = harness();
    h.session.fromClient({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    h.reply(1, { capabilities: { tools: {} } });
    h.session.fromClient({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    h.reply(2, { tools: [{ name: 'lookup_order' }, { name: 'refund' }] });
    expect(resultOf(h.toClient[0].message).capabilities).toEqual({ tools: {} });
    expect((resultOf(h.toClient[1].message).tools as { name: string }[]).map((t) => t.name)).toEqual(['lookup_order', 'refund']);
  });
});
