/**
 * The shielded MCP server as a child process speaking MCP over stdio: start it, frame its stdout
 * into JSON-RPC messages, pass its stderr through (keeping the last lines for error messages), and
 * report exactly once how it ended — exited, could not start, wrote something that is not
 * JSON-RPC, or sent a message larger than the cap. A server that writes garbage is stopped: the
 * proxy cannot know what it meant, and guessing could let a call through unrecorded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { excerpt, type JsonRpcMessage, whyNotJsonRpc } from './jsonrpc.js';
import { LineReader } from './line-reader.js';

/** How the connection to the MCP server ended, in words for the client and the operator. */
export interface UpstreamEnd {
  readonly kind: 'exit' | 'spawn' | 'garbage' | 'overflow' | 'closed' | 'http';
  readonly message: string;
  /** `exit` only: the server exited by itself with status 0, no message cut short. */
  readonly clean?: boolean;
}

/** Where the proxy sends what the client says (a child process, or a remote server). */
export interface Upstream {
  send(message: JsonRpcMessage, raw?: string): void;
  /** Stop the server (gracefully, then by force). */
  close(): Promise<void>;
  /** `raw`: the message's text as received, when the transport has it (saves re-serializing). */
  onmessage?: (message: JsonRpcMessage, raw?: string) => void;
  onend?: (end: UpstreamEnd) => void;
  /**
   * The server failed: it could not start, wrote garbage or too much, or exited with a non-zero
   * status or a signal this side did not send (read after `close()`; absent: cannot tell).
   */
  readonly failed?: boolean;
}

export interface ChildServerOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** Largest message accepted from the server, in bytes. */
  readonly maxMessageBytes: number;
  /** Where the server's stderr goes (default: this process's stderr). */
  readonly stderr?: NodeJS.WritableStream;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

const STDERR_TAIL = 2000;
const GRACE_MS = 2000;

export class ChildServer implements Upstream {
  onmessage?: (message: JsonRpcMessage, raw?: string) => void;
  onend?: (end: UpstreamEnd) => void;
  private readonly child: ChildProcess;
  private ended = false;
  private stderrTail = '';
  private lineNo = 0;
  private exited: Promise<void>;
  private failure = false;
  /** Signals this side sent (closing the session), which are not the server's failure. */
  private readonly sent = new Set<NodeJS.Signals>();

  constructor(private readonly options: ChildServerOptions) {
    // The server gets this process's environment (its API keys come through the MCP client's config).
    this.child = spawn(options.command, [...options.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      windowsHide: true,
    });
    this.exited = new Promise((resolve) => this.child.once('close', () => resolve()));
    const reader = new LineReader({
      maxBytes: options.maxMessageBytes,
      onLine: (line) => this.line(line),
      onOverflow: (bytes) =>
        this.end('overflow', `the MCP server sent a message of more than ${bytes} bytes, over the limit of ${options.maxMessageBytes} (--max-message-mb)`),
    });
    this.child.stdout!.on('data', (chunk: Buffer) => reader.push(chunk));
    this.child.stderr!.on('data', (chunk: Buffer) => {
      (options.stderr ?? process.stderr).write(chunk);
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // Writes to a server that died fail with EPIPE; its 'close' reports the death.
    this.child.stdin!.on('error', () => undefined);
    this.child.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? 'command not found' : err.code === 'EACCES' ? 'permission denied' : err.message;
      this.end('spawn', `cannot start the MCP server \`${options.command}\`: ${why}`);
    });
    this.child.once('close', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const cut = reader.pending > 0 ? ` in the middle of a message (${reader.pending} bytes unfinished)` : '';
      // Recorded even after close(): how the server went decides the proxy's exit code, whether
      // it exited before or after the client closed (a race a one-shot client cannot control).
      const clean = code === 0 && cut === '';
      if (!clean && !(signal !== null && this.sent.has(signal))) this.failure = true;
      this.end('exit', `the MCP server ${how}${cut}${this.lastWords()}`, clean);
    });
  }

  get failed(): boolean {
    return this.failure;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: JsonRpcMessage, raw?: string): void {
    if (this.ended || !this.child.stdin!.writable) return;
    this.child.stdin!.write((raw ?? JSON.stringify(message)) + '\n');
  }

  async close(): Promise<void> {
    this.ended = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined) return;
    // As MCP's stdio shutdown says: close stdin, then SIGTERM, then SIGKILL.
    this.child.stdin!.end();
    if (await this.exitsWithin(GRACE_MS)) return;
    this.sent.add('SIGTERM');
    this.child.kill('SIGTERM');
    if (await this.exitsWithin(GRACE_MS)) return;
    this.sent.add('SIGKILL');
    this.child.kill('SIGKILL');
    await this.exitsWithin(GRACE_MS);
  }

  private exitsWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  private line(text: string): void {
    this.lineNo++;
    if (this.ended || text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.garbage(text, 'not JSON');
    }
    const items = Array.isArray(value) ? (value as unknown[]) : [value];
    for (const item of items) {
      const why = whyNotJsonRpc(item);
      if (why !== undefined) return this.garbage(text, why);
    }
    for (const item of items) {
      if (this.ended) return;
      this.onmessage?.(item as JsonRpcMessage, items.length === 1 ? text : JSON.stringify(item));
    }
  }

  private garbage(text: string, why: string): void {
    this.end('garbage', `the MCP server wrote something that is not a JSON-RPC message on its stdout (line ${this.lineNo}: ${why}: ${excerpt(text)})`);
    this.child.kill('SIGTERM');
  }

  private lastWords(): string {
    const tail = this.stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail ? `; its last words on stderr: ${excerpt(tail, 300)}` : '';
  }

  private end(kind: UpstreamEnd['kind'], message: string, clean?: boolean): void {
    if (kind !== 'exit') this.failure = true;
    if (this.ended) return;
    this.ended = true;
    this.onend?.({ kind, message, ...(clean !== undefined ? { clean } : {}) });
  }
}
