/**
 * `tslc shield mcp`: put a shield in front of any MCP server. Owns the wiring — the shield
 * session(s) with their log and snapshots, the upstream server, and the front the client talks
 * to (stdio by default, Streamable HTTP with `http`). Everything the user can get wrong (rules,
 * labels, log path, snapshot) is checked here before the server is started.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ShieldSnapshotError } from '../../runtime/shield/snapshot.js';
import type { ShieldRule } from '../../runtime/shield/shield.js';
import { UserError, error } from '../diagnostics/diagnostic.js';
import { ChildServer, type Upstream } from './child-server.js';
import { type DecisionLog, openDecisionLog } from './decision-log.js';
import type { ShieldLabels } from './labels-file.js';
import { ShieldPolicy } from './policy.js';
import { serveStdio } from './stdio-front.js';

export interface McpShieldConfig {
  readonly rules: readonly ShieldRule[];
  /** The rules file(s), for snapshots and messages. */
  readonly rulesName: string;
  readonly labels?: ShieldLabels;
  readonly logPath?: string;
  /** stdio: a snapshot file; http: a directory with one snapshot per shield session. */
  readonly statePath?: string;
  readonly hideDenied: boolean;
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
  /** The shielded server: a command to start (stdio), or the URL of a Streamable HTTP server. */
  readonly server: { readonly command: string; readonly args: readonly string[] } | { readonly url: URL; readonly headers: Readonly<Record<string, string>> };
  readonly http?: { readonly host: string; readonly port: number; readonly sessionHeader?: string };
  readonly say: (message: string) => void;
  readonly input?: NodeJS.ReadableStream;
  readonly output?: NodeJS.WritableStream;
  /** Called once an HTTP front listens (tests and the banner). */
  readonly onListening?: (url: string) => void;
}

/** A file name for a shield session key: the key itself when it is tame, else its digest. */
export function stateFileName(key: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(key) ? `${key}.json` : `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;
}

function readSnapshot(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(error(`cannot read the shield state ${path}: ${(err as Error).message}`, undefined, 'io'));
  }
}

function policyError(path: string, err: unknown): never {
  if (err instanceof ShieldSnapshotError) throw new UserError(error(`cannot resume from ${path}: ${err.message}`, undefined, 'state'));
  throw err;
}

export async function runMcpShield(config: McpShieldConfig): Promise<number> {
  const { say } = config;
  let log: DecisionLog | undefined;
  if (config.logPath) {
    try {
      log = openDecisionLog(config.logPath, (message) => say(`tslc shield: ${message}`));
    } catch (err) {
      throw new UserError(error(`cannot open the decision log ${config.logPath}: ${(err as Error).message}`, undefined, 'io'));
    }
  }
  const policyOptions = (statePath: string | undefined) => ({
    rules: config.rules,
    rulesName: config.rulesName,
    ...(config.labels ? { labels: config.labels } : {}),
    ...(log ? { log } : {}),
    ...(statePath ? { statePath } : {}),
    warn: (message: string) => say(`tslc shield: warning: ${message}`),
  });
  const server = config.server;
  // The HTTP client transport (and with it the SDK) is loaded only for a remote server.
  const { HttpUpstream } = 'url' in server ? await import('./http-upstream.js') : { HttpUpstream: undefined };
  const startUpstream = (): Upstream =>
    'url' in server
      ? new HttpUpstream!(server.url, server.headers)
      : new ChildServer({ command: server.command, args: server.args, maxMessageBytes: config.maxMessageBytes });

  try {
    if (!config.http) {
      const statePath = config.statePath;
      let policy: ShieldPolicy;
      try {
        policy = new ShieldPolicy(randomUUID(), policyOptions(statePath), statePath ? readSnapshot(statePath) : undefined);
      } catch (err) {
        policyError(statePath ?? '', err);
      }
      if (statePath && policy.shield.trace.length > 0) say(`tslc shield: resumed ${policy.shield.trace.length} recorded events from ${statePath}`);
      return await serveStdio({
        policy,
        upstream: startUpstream(),
        input: config.input ?? process.stdin,
        output: config.output ?? process.stdout,
        timeoutMs: config.timeoutMs,
        maxMessageBytes: config.maxMessageBytes,
        hideDenied: config.hideDenied,
        say,
      });
    }

    const dir = config.statePath;
    if (dir) {
      if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UserError(error(`--state ${dir}: with --http the state is a directory (one snapshot per session)`, undefined, 'usage'));
      mkdirSync(dir, { recursive: true });
    }
    // Shield sessions by key, with how many MCP sessions use each.
    const live = new Map<string, { policy: ShieldPolicy; users: number }>();
    const { serveHttp } = await import('./http-front.js');
    let front: Awaited<ReturnType<typeof serveHttp>>;
    try {
      front = await serveHttp({
        host: config.http.host,
        port: config.http.port,
        timeoutMs: config.timeoutMs,
        maxMessageBytes: config.maxMessageBytes,
        hideDenied: config.hideDenied,
        ...(config.http.sessionHeader ? { sessionHeader: config.http.sessionHeader } : {}),
        startUpstream,
        policyFor: (key) => {
          const known = live.get(key);
          if (known) {
            known.users++;
            return known.policy;
          }
          const statePath = dir ? join(dir, stateFileName(key)) : undefined;
          const policy = new ShieldPolicy(key, policyOptions(statePath), statePath ? readSnapshot(statePath) : undefined);
          if (policy.shield.trace.length > 0) say(`tslc shield: session ${JSON.stringify(key)} resumed ${policy.shield.trace.length} recorded events`);
          live.set(key, { policy, users: 1 });
          return policy;
        },
        releasePolicy: (key) => {
          const known = live.get(key);
          if (known && --known.users <= 0) live.delete(key);
        },
        say,
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES' || e.code === 'EADDRNOTAVAIL') {
        throw new UserError(error(`cannot listen on ${config.http.host}:${config.http.port}: ${e.code === 'EADDRINUSE' ? 'the port is in use' : e.message}`, undefined, 'io'));
      }
      throw err;
    }
    say(`tslc shield: listening on ${front.url}`);
    config.onListening?.(front.url);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await front.close();
    return 0;
  } finally {
    await log?.close();
  }
}
