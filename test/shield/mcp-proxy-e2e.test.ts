/**
 * `tslc shield mcp` end to end: the official MCP client (@modelcontextprotocol/sdk) drives the
 * built CLI over stdio and over Streamable HTTP, in front of a real MCP server
 * (test/shield/fixtures/orders-server.mjs). Checks what the client is told, what reaches the
 * server, what the log records and that `tslc audit` reads it — and that a server that dies,
 * hangs or writes garbage is an error for the client, never a hang. Needs the build (`npm test`
 * builds first); skips without it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/shield/mcp-proxy.js')) && existsSync(join(root, 'dist/examples/shield/orders-server.js'));
const tslc = join(root, 'bin/tslc.js');
const fixture = join(import.meta.dirname, 'fixtures/orders-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'tslc-mcp-shield-'));
const RULES = join(root, 'examples/shield/orders.ltl');
let n = 0;
const tmp = (name: string): string => join(dir, `${n++}-${name}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Wait until `read()` contains `text` (stderr arrives on its own pipe, possibly after the reply). */
async function eventually(read: () => string, text: string): Promise<void> {
  // Up to 15 s: on a loaded machine a child's stderr can lag well behind its protocol messages.
  for (let i = 0; i < 300 && !read().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
  expect(read()).toContain(text);
}

function textOf(r: unknown): string {
  return ((r as CallToolResult).content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

interface Stdio {
  client: Client;
  stderr: () => string;
  transport: StdioClientTransport;
}

async function viaStdio(proxyArgs: string[], serverArgs: string[] = []): Promise<Stdio> {
  const remote = proxyArgs.includes('--url');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tslc, 'shield', 'mcp', ...proxyArgs, ...(remote ? [] : ['--', process.execPath, fixture, ...serverArgs])],
    cwd: root,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport, stderr: () => err };
}

async function startHttpProxy(proxyArgs: string[], serverArgs: string[] = []): Promise<{ url: URL; proc: ChildProcess; stderr: () => string }> {
  const proc = spawn(process.execPath, [tslc, 'shield', 'mcp', '--http', '0', ...proxyArgs, '--', process.execPath, fixture, ...serverArgs], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  cleanups.push(async () => {
    proc.kill('SIGTERM');
    await exited;
  });
  const url = await new Promise<URL>((resolve, reject) => {
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(new URL(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`proxy exited (${code}): ${err}`)));
  });
  return { url, proc, stderr: () => err };
}

async function viaHttp(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'e2e-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

function audit(spec: string, log: string, extra: string[] = []): { code: number | null; report: { runs: { run: string; events: number; properties: { name: string; verdict: string; violations: number }[] }[] } } {
  const r = spawnSync(process.execPath, [tslc, 'audit', '--spec', spec, '--group-by', 'session', '--json', ...extra, log], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, report: JSON.parse(r.stdout) };
}

/** The done-when scenario on any connected client: refund denied, lookup, refund allowed. */
async function refundScenario(client: Client, calls: string): Promise<void> {
  expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['lookup_order', 'refund']);
  const denied = await client.callTool({ name: 'refund', arguments: { order_id: 'A17' } });
  expect(denied.isError).toBe(true);
  expect(textOf(denied)).toContain('rule "refund-after-lookup" (call:refund only after ok:lookup_order) forbids it');
  expect(textOf(denied)).toContain('Tools allowed now: lookup_order.');
  // The server never saw the denied refund.
  expect(existsSync(calls) ? readFileSync(calls, 'utf8') : '').toBe('');
  const lookup = await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
  expect(lookup.isError).toBeFalsy();
  expect(JSON.parse(textOf(lookup))).toMatchObject({ order_id: 'A17', status: 'delivered' });
  const refund = await client.callTool({ name: 'refund', arguments: { order_id: 'A17' } });
  expect(refund.isError).toBeFalsy();
  expect(textOf(refund)).toBe('refunded 42 for order A17');
  expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['lookup_order', 'refund']);
}

function logLines(log: string): Record<string, unknown>[] {
  return readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

function checkLogAndAudit(log: string): void {
  const lines = logLines(log);
  const decisions = lines.filter((l) => l.kind === 'call');
  expect(decisions.map((l) => [l.tool, l.decision])).toEqual([
    ['refund', 'denied'],
    ['lookup_order', 'allowed'],
    ['refund', 'allowed'],
  ]);
  expect(decisions[0]).toMatchObject({ rule: 'refund-after-lookup', 'denied:refund': true });
  expect(String(decisions[0].reason)).toContain('call:refund only after ok:lookup_order');
  expect(decisions[0].args).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(new Set(lines.map((l) => l.session)).size).toBe(1);
  // tslc audit reads the log with the very rules file the proxy enforced.
  const ltlf = audit(RULES, log, ['--semantics', 'ltlf']);
  expect(ltlf.code).toBe(0);
  expect(ltlf.report.runs).toHaveLength(1);
  expect(ltlf.report.runs[0].events).toBe(5);
  expect(ltlf.report.runs[0].properties.map((p) => [p.name, p.verdict])).toEqual([
    ['refund-after-lookup', 'satisfied'],
    ['one-refund', 'satisfied'],
    ['no-refund-after-error', 'satisfied'],
  ]);
  // And the denials themselves can be audited.
  const denials = tmp('denials.ltl');
  writeFileSync(denials, 'no-denied-refunds: G !"denied:refund"\n');
  const d = audit(denials, log);
  expect(d.code).toBe(1);
  expect(d.report.runs[0].properties[0]).toMatchObject({ verdict: 'violated', violations: 1 });
}

describe.skipIf(!built)('tslc shield mcp, end to end with the official MCP client', () => {
  it('stdio: refund first is denied and never reaches the server; after lookup_order it goes through; the log is auditable', async () => {
    const log = tmp('shield.jsonl');
    const calls = tmp('calls.txt');
    const { client } = await viaStdio(['--rules', RULES, '--log', log], ['--calls', calls]);
    await refundScenario(client, calls);
    await client.close();
    checkLogAndAudit(log);
  });

  it('Streamable HTTP: the same, one shield per MCP session', async () => {
    const log = tmp('shield-http.jsonl');
    const calls = tmp('calls-http.txt');
    const { url } = await startHttpProxy(['--rules', RULES, '--log', log], ['--calls', calls]);
    expect(url.hostname).toBe('127.0.0.1');
    const client = await viaHttp(url);
    await refundScenario(client, calls);
    // A second session starts with its own shield: refund is denied there again.
    const other = await viaHttp(url);
    expect((await other.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).isError).toBe(true);
    await other.close();
    await client.close();
    await new Promise((r) => setTimeout(r, 200));
    const sessions = new Set(logLines(log).map((l) => l.session));
    expect(sessions.size).toBe(2);
    const first = tmp('first.jsonl');
    const firstSession = logLines(log)[0].session;
    writeFileSync(first, logLines(log).filter((l) => l.session === firstSession).map((l) => JSON.stringify(l)).join('\n') + '\n');
    checkLogAndAudit(first);
  });

  it('--hide-denied: tools/list shows the allowed tools and the client is told when they change', async () => {
    const { client } = await viaStdio(['--rules', RULES, '--hide-denied']);
    const changed: number[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(Date.now()));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['lookup_order']);
    await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    await new Promise((r) => setTimeout(r, 100));
    expect(changed.length).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['lookup_order', 'refund']);
  });

  it('--state: a restarted proxy resumes the session (and logs it under the same session)', async () => {
    const state = tmp('state.json');
    const log = tmp('resume.jsonl');
    const a = await viaStdio(['--rules', RULES, '--state', state, '--log', log]);
    await a.client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    await a.client.close();
    expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ format: 'tslc-shield-snapshot', version: 1, step: 2 });
    const b = await viaStdio(['--rules', RULES, '--state', state, '--log', log]);
    expect((await b.client.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).isError).toBeFalsy();
    const again = await b.client.callTool({ name: 'refund', arguments: { order_id: 'A17' } });
    expect(textOf(again)).toContain('"one-refund"');
    expect(b.stderr()).toContain('resumed 2 recorded events');
    await b.client.close();
    expect(new Set(logLines(log).map((l) => l.session)).size).toBe(1);
    // Under other rules the snapshot is refused before the server starts.
    const other = tmp('other.ltl');
    writeFileSync(other, 'x: call:refund never happens\n');
    const r = spawnSync(process.execPath, [tslc, 'shield', 'mcp', '--rules', other, '--state', state, '--', process.execPath, '-e', ''], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('different rules');
  });

  it('a malformed rules file is refused at file:line:col before the server starts', () => {
    const bad = tmp('bad.ltl');
    writeFileSync(bad, 'refund-after-lookup: call:refund only after ok:lookup_order\nbroken: G ("call:refund" -> F\n');
    const marker = tmp('started');
    const r = spawnSync(process.execPath, [tslc, 'shield', 'mcp', '--rules', bad, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: error: `));
    expect(r.stderr).toContain('^');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(marker)).toBe(false);
  });

  it('the README\'s copy-paste MCP client config works as written (paths filled in)', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /## Shield any MCP server[\s\S]*?```text\n([\s\S]*?)```[\s\S]*?```json\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const rulesFile = tmp('orders.ltl');
    writeFileSync(rulesFile, block![1].replace(/^#.*\n/gm, ''));
    const log = tmp('readme.jsonl');
    const config = JSON.parse(
      block![2].replaceAll('/path/to/tslc', root).replaceAll('/path/to/orders.ltl', rulesFile).replaceAll('/path/to/shield.jsonl', log),
    ) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const entry = config.mcpServers.orders;
    const transport = new StdioClientTransport({ command: entry.command === 'node' ? process.execPath : entry.command, args: entry.args, stderr: 'pipe' });
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const denied = await client.callTool({ name: 'refund', arguments: { order_id: 'A17' } });
    expect(textOf(denied)).toContain('rule "refund-after-lookup"');
    await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    expect((await client.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).isError).toBeFalsy();
    await client.close();
    expect(logLines(log).filter((l) => l.kind === 'call').map((l) => l.decision)).toEqual(['denied', 'allowed', 'allowed']);
  });

  it('usage errors: no server command, or an unknown target', () => {
    const none = spawnSync(process.execPath, [tslc, 'shield', 'mcp', '--rules', RULES], { encoding: 'utf8', timeout: 30_000 });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('name the MCP server to shield after `--`');
    const target = spawnSync(process.execPath, [tslc, 'shield', 'ftp', '--rules', RULES, '--', 'x'], { encoding: 'utf8', timeout: 30_000 });
    expect(target.status).toBe(2);
  });
});

/** Start the fixture server over HTTP; resolves to its URL. */
async function fixtureOverHttp(serverArgs: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, [fixture, '--http', '0', ...serverArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  cleanups.push(stop);
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.once('exit', (code) => reject(new Error(`fixture exited (${code}): ${err}`)));
  });
  return { url, stop };
}

describe.skipIf(!built)('tslc shield mcp --url: a remote (Streamable HTTP) server', () => {
  it('the same scenario against a server reached over HTTP', async () => {
    const calls = tmp('calls-url.txt');
    const log = tmp('shield-url.jsonl');
    const remote = await fixtureOverHttp(['--calls', calls]);
    const { client } = await viaStdio(['--rules', RULES, '--log', log, '--url', remote.url]);
    await refundScenario(client, calls);
    await client.close();
    checkLogAndAudit(log);
  });

  it('a remote server that goes away is an error for the client, not a hang', async () => {
    const remote = await fixtureOverHttp([]);
    const { client } = await viaStdio(['--rules', RULES, '--url', remote.url, '--timeout', '5']);
    await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    await remote.stop();
    const started = Date.now();
    await expect(client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } })).rejects.toThrow(/cannot reach the MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('--url and a server command together are a usage error', () => {
    const r = spawnSync(process.execPath, [tslc, 'shield', 'mcp', '--rules', RULES, '--url', 'http://127.0.0.1:9/mcp', '--', 'node', 'x.js'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('either --url or a server command');
  });
});

describe.skipIf(!built)('tslc shield mcp: a misbehaving server is an error for the client, never a hang', () => {
  it('the server dies during a call: the client gets an error naming the exit and the server\'s last words', async () => {
    const { client } = await viaStdio(['--rules', RULES], ['--die-on', 'lookup_order']);
    const started = Date.now();
    await expect(client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } })).rejects.toThrow(/exited with code 3.*simulated crash/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('the server hangs: --timeout bounds the wait and the session fails with a clear error', async () => {
    // --timeout also bounds `initialize`, which includes the server's start: 5 s leaves room for
    // a loaded machine, where 1 s was seen to expire before the fixture server was up.
    const { client } = await viaStdio(['--rules', RULES, '--timeout', '5'], ['--hang-on', 'lookup_order']);
    const started = Date.now();
    await expect(client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } })).rejects.toThrow(/did not answer tools\/call within 5 s/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('the server writes garbage in place of an answer: the session fails saying so', async () => {
    const { client } = await viaStdio(['--rules', RULES], ['--garbage-on', 'lookup_order']);
    await expect(client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } })).rejects.toThrow(/not a JSON-RPC message on its stdout \(line \d+: expected "jsonrpc": "2.0": "\{\\"this is\\"/);
  });

  it('the server writes garbage before it starts: the proxy stops with the reason on stderr', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [tslc, 'shield', 'mcp', '--rules', RULES, '--', process.execPath, fixture, '--garbage-at-start'],
      stderr: 'pipe',
    });
    let err = '';
    transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toThrow(/line 1: not JSON: "Server starting\.\.\. \(this is not JSON-RPC\)"/);
    await eventually(() => err, 'line 1: not JSON');
    await client.close();
  });

  it('the server command does not exist: a clear error, at once', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [tslc, 'shield', 'mcp', '--rules', RULES, '--', 'no-such-mcp-server-xyz'], stderr: 'pipe' });
    let err = '';
    transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const started = Date.now();
    await expect(client.connect(transport)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    await eventually(() => err, 'cannot start the MCP server `no-such-mcp-server-xyz`: command not found');
    await client.close();
  });

  it('a 5 MB result passes through stdio and HTTP intact', async () => {
    const size = 5 * 1024 * 1024;
    const { client } = await viaStdio(['--rules', RULES], ['--big', String(size)]);
    const viaPipe = textOf(await client.callTool({ name: 'big', arguments: {} }));
    expect(viaPipe.length).toBe(size);
    expect(viaPipe.endsWith('xy')).toBe(true);
    // And the other way: a 5 MB argument reaches the server.
    const id = 'Q'.repeat(size);
    const echoed = textOf(await client.callTool({ name: 'lookup_order', arguments: { order_id: id } }));
    expect(echoed).toBe(`no order ${id}`);
    const { url } = await startHttpProxy(['--rules', RULES], ['--big', String(size)]);
    const http = await viaHttp(url);
    const viaHttpText = textOf(await http.callTool({ name: 'big', arguments: {} }));
    expect(viaHttpText.length).toBe(size);
  });

  it('HTTP: a server that dies fails its session with an error; a new session gets a fresh server', async () => {
    const { url, stderr } = await startHttpProxy(['--rules', RULES], ['--die-on', 'refund']);
    const client = await viaHttp(url);
    await client.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    await expect(client.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).rejects.toThrow(/exited with code 3/);
    // The proxy's own report reaches its stderr pipe asynchronously, after the client's error.
    await eventually(stderr, 'exited with code 3');
    const fresh = await viaHttp(url);
    expect(JSON.parse(textOf(await fresh.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } })))).toMatchObject({ status: 'delivered' });
  });

  it('HTTP with --session-header and --state: sessions with the same header share and resume one shield', async () => {
    const state = tmp('state-dir');
    const first = await startHttpProxy(['--rules', RULES, '--session-header', 'x-shield-session', '--state', state]);
    const a = await viaHttp(first.url, { 'x-shield-session': 'alice' });
    await a.callTool({ name: 'lookup_order', arguments: { order_id: 'A17' } });
    await a.close();
    first.proc.kill('SIGTERM');
    await new Promise((r) => first.proc.once('exit', r));
    expect(existsSync(join(state, 'alice.json'))).toBe(true);
    const second = await startHttpProxy(['--rules', RULES, '--session-header', 'x-shield-session', '--state', state]);
    const alice = await viaHttp(second.url, { 'x-shield-session': 'alice' });
    expect((await alice.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).isError).toBeFalsy();
    const bob = await viaHttp(second.url, { 'x-shield-session': 'bob' });
    expect((await bob.callTool({ name: 'refund', arguments: { order_id: 'A17' } })).isError).toBe(true);
  });
});
