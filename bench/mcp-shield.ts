/**
 * Bench section `mcp-shield`: what `tslc shield mcp` adds to a tool call. The official MCP client
 * calls `lookup_order` on the example orders server (examples/shield/orders-server.ts) over stdio,
 * once directly and once through the proxy (with and without `--log`), in interleaved rounds so
 * machine load hits every configuration alike; the overhead is the difference of the round
 * medians. Also the proxy's own CPU per call (its protocol core with a scripted server, no pipes),
 * and the Streamable HTTP front's round trip.
 *
 *   npm run bench -- mcp-shield [--calls 1000] [--rounds 5]
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonRpcMessage } from '../src/shield/jsonrpc.js';
import { McpShieldSession } from '../src/shield/mcp-session.js';
import { ShieldPolicy } from '../src/shield/policy.js';
import { shieldRulesFromFiles } from '../src/shield/rules-file.js';
import type { BenchContext, BenchSection } from './sections.js';

/** dist/bench/mcp-shield.js → the repo root. */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const server = join(repoRoot, 'dist/examples/shield/orders-server.js');
const rules = join(repoRoot, 'examples/shield/orders.ltl');
// (orders-server.js --http 0 prints "orders server listening on <url>")
const tslc = join(repoRoot, 'bin/tslc.js');

function flag(args: readonly string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : Number.NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** CPU time (ns) a process has run so far, all threads (Linux schedstat); undefined elsewhere. */
function cpuNs(pid: number | null | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return total;
  } catch {
    return undefined;
  }
}

/**
 * `calls` sequential calls (after a warm-up): the median and 90th percentile of the per-call
 * wall time in µs, and the CPU µs per call of process `pid`. Medians, not means: on a shared
 * machine a few calls wait milliseconds for a core, and a mean would measure the neighbours.
 */
async function timeCalls(client: Client, calls: number, pid?: number | null): Promise<{ wall: number; p90: number; cpu?: number }> {
  const args = { name: 'lookup_order', arguments: { order_id: 'A17' } };
  for (let i = 0; i < 50; i++) await client.callTool(args);
  const c0 = cpuNs(pid);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await client.callTool(args);
    times.push((performance.now() - t) * 1000);
  }
  const c1 = cpuNs(pid);
  times.sort((a, b) => a - b);
  const wall = times[times.length >> 1];
  const p90 = times[Math.floor(times.length * 0.9)];
  return c0 !== undefined && c1 !== undefined ? { wall, p90, cpu: (c1 - c0) / 1000 / calls } : { wall, p90 };
}

async function stdioClient(argv: string[]): Promise<{ client: Client; pid: number | null }> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: argv, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** Start a process that prints "listening on <url>" on stderr, and connect the client to it over HTTP. */
async function httpClient(argv: string[]): Promise<{ client: Client; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<URL>((resolve, reject) => {
    proc.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(new URL(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited (${code}): ${err}`)));
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    client,
    stop: async () => {
      await client.close();
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** The proxy's own work per tools/call (decide, forward, record), µs CPU: no pipes, no child. */
async function coreMicros(calls: number): Promise<number> {
  const policy = new ShieldPolicy('bench', { rules: shieldRulesFromFiles([{ path: rules, text: 'r: call:refund only after ok:lookup_order\nn: call:refund happens at most 1 times\n' }]), rulesName: 'bench' });
  let pendingDone: (() => void) | undefined;
  const session: McpShieldSession = new McpShieldSession({
    policy,
    toClient: () => pendingDone?.(),
    toServer: (m) => {
      if ('method' in m && 'id' in m) {
        const id = m.id;
        queueMicrotask(() => session.fromServer({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '{"order_id":"A17","status":"delivered"}' }] } }));
      }
    },
    timeoutMs: 60_000,
    onFatal: () => undefined,
  });
  const one = (id: number): Promise<void> =>
    new Promise<void>((resolve) => {
      pendingDone = resolve;
      session.fromClient({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'lookup_order', arguments: { order_id: 'A17' } } });
    });
  for (let i = 0; i < 200; i++) await one(i);
  const c0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) await one(1000 + i);
  const cpu = process.cpuUsage(c0);
  session.close();
  return (cpu.user + cpu.system) / calls;
}

export const mcpShieldSection: BenchSection = {
  name: 'mcp-shield',
  describe: 'per-call overhead of tslc shield mcp against a direct MCP client-server connection',
  options: [
    { name: 'calls', kind: 'number', describe: 'tool calls per round (default 1000)' },
    { name: 'rounds', kind: 'number', describe: 'rounds (default 5)' },
  ],
  async run(ctx: BenchContext): Promise<string> {
    const calls = flag(ctx.args, '--calls', 1000);
    const rounds = flag(ctx.args, '--rounds', 5);
    const dir = mkdtempSync(join(tmpdir(), 'tslc-bench-mcp-'));
    const configs: { name: string; argv: string[] }[] = [
      { name: 'direct (client → server)', argv: [server] },
      { name: 'through `tslc shield mcp`', argv: [tslc, 'shield', 'mcp', '--rules', rules, '--', process.execPath, server] },
      { name: 'through `tslc shield mcp --log`', argv: [tslc, 'shield', 'mcp', '--rules', rules, '--log', join(dir, 'log.jsonl'), '--', process.execPath, server] },
    ];
    const clients = await Promise.all(configs.map((c) => stdioClient(c.argv)));
    const perRound: number[][] = configs.map(() => []);
    const p90Round: number[][] = configs.map(() => []);
    // CPU per call of the process the client talks to: the server (direct) or the proxy.
    const cpuRound: number[][] = configs.map(() => []);
    const load0 = loadavg()[0];
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < configs.length; i++) {
        const t = await timeCalls(clients[i].client, calls, clients[i].pid);
        perRound[i].push(t.wall);
        p90Round[i].push(t.p90);
        if (t.cpu !== undefined) cpuRound[i].push(t.cpu);
        ctx.log(`round ${r + 1}/${rounds}: ${configs[i].name}: median ${t.wall.toFixed(0)} µs/call (p90 ${t.p90.toFixed(0)}), ${t.cpu?.toFixed(1) ?? '?'} µs CPU`);
      }
    }
    const load1 = loadavg()[0];
    await Promise.all(clients.map((c) => c.client.close()));
    // Streamable HTTP: the server itself over HTTP, against the proxy's HTTP front (server on stdio).
    const httpConfigs = [
      { name: 'HTTP direct (client → server over Streamable HTTP)', argv: [server, '--http', '0'] },
      { name: 'HTTP through `tslc shield mcp --http` (server on stdio)', argv: [tslc, 'shield', 'mcp', '--http', '0', '--rules', rules, '--', process.execPath, server] },
    ];
    const httpClients = await Promise.all(httpConfigs.map((c) => httpClient(c.argv)));
    const httpRounds: number[][] = httpConfigs.map(() => []);
    const httpP90: number[][] = httpConfigs.map(() => []);
    const httpCalls = Math.max(50, calls >> 3);
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < httpConfigs.length; i++) {
        const t = await timeCalls(httpClients[i].client, httpCalls);
        httpRounds[i].push(t.wall);
        httpP90[i].push(t.p90);
        ctx.log(`round ${r + 1}/${rounds}: ${httpConfigs[i].name}: median ${t.wall.toFixed(0)} µs/call (p90 ${t.p90.toFixed(0)})`);
      }
    }
    await Promise.all(httpClients.map((h) => h.stop()));
    const core = await coreMicros(calls * 5);
    rmSync(dir, { recursive: true, force: true });

    const direct = median(perRound[0]);
    const cpuCell = (i: number): string => (cpuRound[i].length > 0 ? median(cpuRound[i]).toFixed(1) : 'n/a');
    const rows = configs.map((c, i) => {
      const m = median(perRound[i]);
      const over = m - direct;
      return `| ${c.name} | ${m.toFixed(0)} | ${i === 0 ? '' : `${over >= 0 ? '+' : ''}${over.toFixed(0)}`} | ${(m / direct).toFixed(2)} | ${median(p90Round[i]).toFixed(0)} | ${cpuCell(i)} | ${perRound[i].map((x) => x.toFixed(0)).join(', ')} |`;
    });
    const proxied = median(perRound[1]);
    const httpDirect = median(httpRounds[0]);
    const httpRows = httpConfigs.map((c, i) => {
      const m = median(httpRounds[i]);
      return `| ${c.name} | ${m.toFixed(0)} | ${i === 0 ? '' : `${m >= httpDirect ? '+' : ''}${(m - httpDirect).toFixed(0)}`} | ${(m / httpDirect).toFixed(2)} | ${median(httpP90[i]).toFixed(0)} |  | ${httpRounds[i].map((x) => x.toFixed(0)).join(', ')} |`;
    });
    return [
      '## MCP shield proxy (`mcp-shield`)',
      '',
      `The official MCP client (\`@modelcontextprotocol/sdk\`) calls \`lookup_order\` on examples/shield/orders-server.ts over stdio, ${calls} sequential calls per round after 50 warm-up calls, ${rounds} rounds with the configurations interleaved; the wall columns are the median over rounds of each round's per-call median (and 90th percentile), client to client. Command: \`npm run bench -- mcp-shield --calls ${calls} --rounds ${rounds}\`.`,
      '',
      '| path | µs per call (wall, median) | overhead µs | ratio | p90 µs | CPU µs per call of the process the client talks to | per-round medians (µs) |',
      '|---|---:|---:|---:|---:|---:|---|',
      ...rows,
      ...httpRows,
      '',
      `- Per-call overhead of the stdio proxy: **${(proxied - direct).toFixed(0)} µs wall** (${((proxied - direct) / 1000).toFixed(3)} ms), ratio ${(proxied / direct).toFixed(2)}; load average ${load0.toFixed(1)} → ${load1.toFixed(1)} on ${cpus().length} cores during the stdio rounds (on a loaded machine wall times are noisy, and CPU times less so but still: run it twice).`,
      `- CPU the proxy process spends per call (all its threads, from /proc/<pid>/task/*/schedstat): **${cpuCell(1)} µs** (${cpuCell(2)} µs with \`--log\`), against ${cpuCell(0)} µs for the server itself in the direct row. The proxy's own logic — framing, the shield's decision, forwarding, recording the call and its result — is **${core.toFixed(1)} µs CPU per call** of that (measured in-process with a scripted server, ${calls * 5} calls, two rules); the rest is the second process's pipe I/O and event loop.`,
      `- Streamable HTTP rows: ${httpCalls} calls per round; the overhead there is measured against the SDK's own HTTP server transport, whose round trip dominates (the proxy speaks HTTP to the client and stdio to the server).`,
    ].join('\n');
  },
};
