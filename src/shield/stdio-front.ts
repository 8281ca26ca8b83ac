/**
 * The MCP shield proxy on stdio: the MCP client talks to this process's stdin/stdout, the shielded
 * server is a child (or a remote server) behind it. One client, one session, one shield.
 *
 * Lines from the client that are not JSON-RPC get the JSON-RPC error a server owes them (parse
 * error / invalid request) and the session goes on. The session ends when the client closes
 * stdin or on SIGINT/SIGTERM (exit code 0, or 1 when the server failed: a non-zero exit status,
 * garbage, a timeout), or when the server ends or fails while the client is still there (exit
 * code 1, after every waiting request has been answered with the reason).
 */
import type { Upstream } from './child-server.js';
import { ErrorCode, errorReply, excerpt, type JsonRpcMessage, whyNotJsonRpc } from './jsonrpc.js';
import { LineReader } from './line-reader.js';
import { McpShieldSession } from './mcp-session.js';
import type { ShieldPolicy } from './policy.js';

export interface StdioFrontOptions {
  readonly policy: ShieldPolicy;
  readonly upstream: Upstream;
  readonly input: NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
  readonly timeoutMs: number;
  readonly maxMessageBytes: number;
  readonly hideDenied?: boolean;
  /** Operator messages (stderr). */
  readonly say: (message: string) => void;
}

/** How long a failed session still answers (with the reason) before the process exits. */
const FATAL_GRACE_MS = 300;

export function serveStdio(options: StdioFrontOptions): Promise<number> {
  const { upstream, input, output, say } = options;
  return new Promise<number>((resolve) => {
    let finished = false;
    const write = (message: JsonRpcMessage, raw?: string): void => {
      output.write((raw ?? JSON.stringify(message)) + '\n');
    };
    // The server exited by itself with status 0 (e.g. a one-shot client whose server did not
    // wait): not a failure, whichever end went first.
    let cleanServerExit = false;
    const finish = (code: number | (() => number)): void => {
      if (finished) return;
      finished = true;
      session.close();
      input.removeListener('data', onData);
      // Stop reading, or an open stdin keeps the process alive after the session ended.
      input.pause();
      (input as { destroy?: () => void }).destroy?.();
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      void upstream.close().then(() => {
        // Let everything written so far reach the client before reporting the exit code.
        const exitCode = typeof code === 'number' ? code : code();
        output.write('', () => resolve(exitCode));
      });
    };
    const session = new McpShieldSession({
      policy: options.policy,
      toClient: (m, _related, raw) => write(m, raw),
      toServer: (m, raw) => upstream.send(m, raw),
      timeoutMs: options.timeoutMs,
      hideDenied: options.hideDenied,
      onFatal: (reason) => {
        say(`tslc shield: ${reason}`);
        // Stay a moment to answer requests already on their way with the reason (not a bare
        // "connection closed"), then go; the client closing stdin ends it sooner.
        setTimeout(() => finish(1), FATAL_GRACE_MS);
        void upstream.close();
      },
      warn: (message) => say(`tslc shield: warning: ${message}`),
    });
    upstream.onmessage = (m, raw) => session.fromServer(m, raw);
    upstream.onend = (end) => {
      if (end.kind === 'exit' && end.clean === true) cleanServerExit = true;
      session.serverEnded(end.message);
    };

    const reader = new LineReader({
      maxBytes: options.maxMessageBytes,
      onLine: (line) => {
        if (line.trim() === '') return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          write(errorReply(null, ErrorCode.parseError, `tslc shield: not JSON: ${excerpt(line)}`));
          return;
        }
        for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
          const why = whyNotJsonRpc(item);
          if (why !== undefined) {
            const id = (item as { id?: unknown } | null)?.id;
            write(errorReply(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCode.invalidRequest, `tslc shield: not a JSON-RPC message: ${why}`));
            continue;
          }
          session.fromClient(item as JsonRpcMessage, Array.isArray(value) ? undefined : line);
        }
      },
      onOverflow: (bytes) => {
        say(`tslc shield: the client sent a message of more than ${bytes} bytes, over the limit of ${options.maxMessageBytes} (--max-message-mb)`);
        finish(1);
      },
    });
    const onData = (chunk: Buffer | string): void => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onSignal = (): void => finish(0);
    input.on('data', onData);
    // The client is done: 0, unless the session broke for another reason than the server's clean
    // exit, or the server failed (known once it has been closed).
    input.once('end', () => {
      const broken = session.closedReason !== undefined && !cleanServerExit;
      finish(() => (broken || upstream.failed === true ? 1 : 0));
    });
    input.once('error', () => finish(0));
    // The client closed its end of our stdout: nobody is listening any more.
    output.once('error', () => finish(0));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
