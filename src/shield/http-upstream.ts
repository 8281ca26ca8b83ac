/**
 * A remote MCP server as the shielded upstream (`tslc shield mcp --url URL`): the SDK's Streamable
 * HTTP client transport carries the messages, so sessions, SSE streams and resumption are the
 * reference implementation's. The proxy forwards raw JSON-RPC, so it tells the transport the
 * negotiated protocol version itself (the SDK's `Client` would). A request the server cannot be
 * reached for ends the session with the reason; loading this module loads the SDK, which is why
 * only `--url` imports it.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Upstream, UpstreamEnd } from './child-server.js';
import type { JsonRpcMessage } from './jsonrpc.js';

export class HttpUpstream implements Upstream {
  onmessage?: (message: JsonRpcMessage, raw?: string) => void;
  onend?: (end: UpstreamEnd) => void;
  private readonly transport: StreamableHTTPClientTransport;
  private readonly started: Promise<void>;
  private ended = false;

  constructor(
    private readonly url: URL,
    headers: Readonly<Record<string, string>> = {},
  ) {
    this.transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { ...headers } } });
    this.transport.onmessage = (m) => {
      const message = m as JsonRpcMessage;
      if ('result' in message && typeof message.result.protocolVersion === 'string' && 'serverInfo' in message.result) {
        this.transport.setProtocolVersion(message.result.protocolVersion);
      }
      this.onmessage?.(message);
    };
    // Errors of the optional server-sent-event stream are the transport's to retry; only a
    // request that cannot be delivered ends the session (see send).
    this.transport.onerror = () => undefined;
    this.transport.onclose = () => this.end(`the connection to the MCP server at ${url.href} closed`);
    this.started = this.transport.start();
  }

  send(message: JsonRpcMessage): void {
    if (this.ended) return;
    this.started
      .then(() => this.transport.send(message as JSONRPCMessage))
      .catch((err: Error) => this.end(`cannot reach the MCP server at ${this.url.href}: ${err.message}`));
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.transport.terminateSession().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }

  private end(message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onend?.({ kind: 'http', message });
  }
}
