/**
 * The MCP shield proxy over Streamable HTTP (`--http PORT`): the MCP endpoint is `/mcp` on
 * 127.0.0.1 unless `--host` says otherwise. Each MCP session (an `initialize` without a session
 * id) gets its own upstream server and its own protocol session; the shield session is chosen by
 * `--session-header` when given (several MCP sessions, and restarts, then share one shield), else
 * it is the MCP session itself. The HTTP side is the SDK's own transport, so the protocol details
 * (SSE streams, session headers, DNS-rebinding checks) are the reference implementation's.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Upstream } from './child-server.js';
import { ErrorCode, errorReply, type JsonRpcError, type JsonRpcMessage } from './jsonrpc.js';
import { McpShieldSession } from './mcp-session.js';
import type { ShieldPolicy } from './policy.js';

export interface HttpFrontOptions {
  readonly host: string;
  /** 0 picks a free port (reported in `url`). */
  readonly port: number;
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
  readonly hideDenied?: boolean;
  /** Start the upstream server for a new MCP session. */
  readonly startUpstream: () => Upstream;
  /** The shield session for a key (created, or resumed from its snapshot, on first use). */
  readonly policyFor: (key: string) => ShieldPolicy;
  /** Drop a shield session nobody uses any more. */
  readonly releasePolicy?: (key: string) => void;
  /** Header naming the shield session (e.g. `x-shield-session`). */
  readonly sessionHeader?: string;
  readonly say: (message: string) => void;
}

export interface HttpFront {
  readonly url: string;
  /** Close every session and stop listening. */
  close(): Promise<void>;
}

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  readonly session: McpShieldSession;
  readonly upstream: Upstream;
  readonly key: string;
  closed: boolean;
}

export const MCP_PATH = '/mcp';

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function sendJson(res: ServerResponse, status: number, body: JsonRpcError): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Read a request body up to `max` bytes; undefined when it is larger. */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        resolve(undefined);
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function isInitialize(body: unknown): boolean {
  const first = Array.isArray(body) ? (body as unknown[])[0] : body;
  return typeof first === 'object' && first !== null && (first as { method?: unknown }).method === 'initialize';
}

export async function serveHttp(options: HttpFrontOptions): Promise<HttpFront> {
  const sessions = new Map<string, Entry>();
  let port = options.port;
  const allowedHosts = (): string[] => [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];

  const closeEntry = async (id: string, entry: Entry): Promise<void> => {
    if (entry.closed) return;
    entry.closed = true;
    sessions.delete(id);
    entry.session.close();
    await entry.upstream.close();
    // Give the error replies already written a turn to leave before the streams are closed.
    await new Promise((resolve) => setImmediate(resolve));
    await entry.transport.close().catch(() => undefined);
    options.releasePolicy?.(entry.key);
  };

  const open = (req: IncomingMessage): { id: string; entry: Entry } | string => {
    const id: string = randomUUID();
    let key: string = id;
    if (options.sessionHeader) {
      const value = req.headers[options.sessionHeader.toLowerCase()];
      if (typeof value === 'string' && value !== '') {
        if (value.length > 200) return `the ${options.sessionHeader} header is longer than 200 characters`;
        key = value;
      }
    }
    let policy: ShieldPolicy;
    try {
      policy = options.policyFor(key);
    } catch (err) {
      return `cannot resume shield session ${JSON.stringify(key)}: ${(err as Error).message}`;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableDnsRebindingProtection: isLoopback(options.host),
      allowedHosts: allowedHosts(),
      maxRequestBodySize: options.maxMessageBytes,
      onsessionclosed: () => {
        const e = sessions.get(id);
        if (e) void closeEntry(id, e);
      },
    });
    const upstream = options.startUpstream();
    const session = new McpShieldSession({
      policy,
      toClient: (m, related) => {
        transport.send(m as JSONRPCMessage, related !== undefined ? { relatedRequestId: related } : undefined).catch((err: Error) => {
          options.say(`tslc shield: session ${id}: could not deliver a message to the client: ${err.message}`);
        });
      },
      toServer: (m, raw) => upstream.send(m, raw),
      timeoutMs: options.timeoutMs,
      hideDenied: options.hideDenied,
      onFatal: (reason) => {
        options.say(`tslc shield: session ${id}: ${reason}`);
        const e = sessions.get(id);
        if (e) void closeEntry(id, e);
      },
      warn: (message) => options.say(`tslc shield: warning: ${message}`),
    });
    upstream.onmessage = (m, raw) => session.fromServer(m, raw);
    upstream.onend = (end) => session.serverEnded(end.message);
    transport.onmessage = (m) => session.fromClient(m as JsonRpcMessage);
    transport.onclose = () => {
      const e = sessions.get(id);
      if (e) void closeEntry(id, e);
    };
    const entry: Entry = { transport, session, upstream, key, closed: false };
    sessions.set(id, entry);
    return { id, entry };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) return sendJson(res, 404, errorReply(null, ErrorCode.invalidRequest, `not found: the MCP endpoint is ${MCP_PATH}`));
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const entry = sessions.get(sid);
      if (!entry) return sendJson(res, 404, errorReply(null, -32001, 'Session not found'));
      return entry.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendJson(res, 400, errorReply(null, ErrorCode.connectionClosed, 'Bad Request: no valid session ID; initialize first'));
    const text = await readBody(req, options.maxMessageBytes);
    if (text === undefined) return sendJson(res, 413, errorReply(null, ErrorCode.invalidRequest, `request body larger than ${options.maxMessageBytes} bytes`));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return sendJson(res, 400, errorReply(null, ErrorCode.parseError, 'Parse error: the body is not JSON'));
    }
    if (!isInitialize(body)) return sendJson(res, 400, errorReply(null, ErrorCode.connectionClosed, 'Bad Request: Server not initialized'));
    const opened = open(req);
    if (typeof opened === 'string') return sendJson(res, 409, errorReply(null, ErrorCode.invalidRequest, opened));
    await opened.entry.transport.handleRequest(req, res, body);
    // The transport refused the initialize (e.g. a Host header from elsewhere): no session.
    if (opened.entry.transport.sessionId === undefined) await closeEntry(opened.id, opened.entry);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      options.say(`tslc shield: HTTP request failed: ${err.message}`);
      if (!res.headersSent) sendJson(res, 500, errorReply(null, ErrorCode.internalError, 'internal error in the tslc shield'));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostPart}:${port}${MCP_PATH}`,
    async close() {
      await Promise.all([...sessions].map(([id, e]) => closeEntry(id, e)));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
