/**
 * The MCP shield proxy's protocol core, for one client connection: every message from the client
 * and from the MCP server passes through here, whatever carries them (stdio, Streamable HTTP).
 *
 * - `tools/call` is checked against the rules before it reaches the server. A denied call is
 *   answered here with a tool result (`isError: true`) that names the rule, says why and lists the
 *   tools allowed now; the server never sees it. Allowed calls are forwarded one at a time per
 *   shield session (see policy.ts) and their outcome is recorded.
 * - Everything else (initialize, tools/list, resources, prompts, pings, progress, sampling
 *   requests from the server, cancellations, …) passes through unchanged, except that with
 *   `hideDenied` the tool list shows only the tools allowed now and the client is sent
 *   `notifications/tools/list_changed` when that set changes.
 * - Robustness: every forwarded request has a deadline (reset by progress notifications); a
 *   server that misses it, exits or writes garbage ends the session, and every request still
 *   waiting gets a JSON-RPC error saying why — the client never hangs.
 */
import {
  ErrorCode,
  errorReply,
  isErrorResponse,
  isNotification,
  isRequest,
  isResult,
  type JsonRpcError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResult,
  type RequestId,
} from './jsonrpc.js';
import type { CallDecision, ShieldPolicy } from './policy.js';
import { denialMessage } from '../../runtime/shield/adapters/guarded-call.js';

export interface SessionOptions {
  readonly policy: ShieldPolicy;
  /** Deliver to the client; `related` is the client request this message belongs to, if known. `raw` is the message's original text when unchanged. */
  readonly toClient: (message: JsonRpcMessage, related?: RequestId, raw?: string) => void;
  readonly toServer: (message: JsonRpcMessage, raw?: string) => void;
  /** Milliseconds the server has to answer a request (progress notifications restart the clock). */
  readonly timeoutMs: number;
  readonly hideDenied?: boolean;
  /** The session cannot go on (the reason is already sent to every waiting request): close it. */
  readonly onFatal: (reason: string) => void;
  /** Warnings for the operator (e.g. a rule names a tool the server does not have). */
  readonly warn?: (message: string) => void;
}

type Reply = JsonRpcResult | JsonRpcError;

interface Pending {
  readonly request: JsonRpcRequest;
  timer?: ReturnType<typeof setTimeout>;
  readonly progressToken?: string | number;
  /** Set for requests the session waits on itself (tools/call, its own tools/list). */
  readonly settle?: (reply: Reply | undefined) => void;
  /** The proxy's own request: its reply is not for the client. */
  readonly own?: boolean;
}

const OWN_ID_PREFIX = 'tslc-shield:';
const MAX_TOOL_PAGES = 100;

export class McpShieldSession {
  private readonly pending = new Map<RequestId, Pending>();
  private readonly byToken = new Map<string | number, RequestId>();
  /** tools/call requests waiting for their turn; `cancelled` when the client gave up on them. */
  private readonly queued = new Map<RequestId, { cancelled: boolean }>();
  private serverTools: string[] | undefined;
  private serverHasTools = false;
  /** The allowed-tool set the client last saw (hideDenied), as a key. */
  private shownKey: string | undefined;
  private ended: string | undefined;
  private ownIds = 0;
  private warnedTools = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SessionOptions) {
    this.unsubscribe = options.policy.onChange(() => this.maybeListChanged());
  }

  get closedReason(): string | undefined {
    return this.ended;
  }

  fromClient(m: JsonRpcMessage, raw?: string): void {
    if (this.ended !== undefined) {
      if (isRequest(m)) this.options.toClient(errorReply(m.id, ErrorCode.connectionClosed, `tslc shield: ${this.ended}`));
      return;
    }
    if (isRequest(m)) {
      if (m.method === 'tools/call') {
        this.toolCall(m, raw).catch((err: Error) => {
          // A bug must not take the process down, nor leave the client waiting.
          this.options.warn?.(`internal error while handling tools/call: ${err.stack ?? err.message}`);
          this.options.toClient(errorReply(m.id, ErrorCode.internalError, `tslc shield: internal error: ${err.message}`));
        });
      } else this.forward(m, raw);
      return;
    }
    if (isNotification(m) && m.method === 'notifications/cancelled' && this.clientCancelled(m.params?.requestId)) return;
    this.options.toServer(m, raw);
    if (isNotification(m) && m.method === 'notifications/initialized' && this.serverHasTools) this.refreshTools();
  }

  fromServer(m: JsonRpcMessage, raw?: string): void {
    if (this.ended !== undefined) return;
    if (isResult(m) || isErrorResponse(m)) {
      const p = m.id === null ? undefined : this.pending.get(m.id);
      // A reply to nothing we wait for (e.g. to a request the client cancelled) has no reader.
      if (!p) return;
      this.settlePending(m.id as RequestId);
      if (p.settle) return p.settle(m);
      let out: JsonRpcMessage = m;
      if (isResult(m) && p.request.method === 'initialize') out = this.initialized(m);
      else if (isResult(m) && p.request.method === 'tools/list') out = this.toolsListed(p.request, m);
      this.options.toClient(out, undefined, out === m ? raw : undefined);
      return;
    }
    let related: RequestId | undefined;
    if (isNotification(m)) {
      if (m.method === 'notifications/progress') {
        const token = m.params?.progressToken;
        related = typeof token === 'string' || typeof token === 'number' ? this.byToken.get(token) : undefined;
        if (related !== undefined) this.restartClock(related);
      } else if (m.method === 'notifications/tools/list_changed') {
        this.serverTools = undefined;
        this.refreshTools();
      }
    }
    // A server→client request or notification: on HTTP it travels on the stream of the client
    // request it belongs to; the proxy cannot know which unless only one is open.
    if (related === undefined && this.pending.size === 1) {
      const [only] = this.pending.values();
      if (!only.own) related = only.request.id;
    }
    this.options.toClient(m, related, raw);
  }

  /** The server is gone (exited, unreadable, unreachable): fail everything still waiting. */
  serverEnded(reason: string): void {
    this.fail(reason, ErrorCode.connectionClosed);
  }

  /** The client is gone: stop timers, settle waiting calls (their outcome is unknown). */
  close(): void {
    if (this.ended === undefined) this.ended = 'the client closed the session';
    this.unsubscribe();
    for (const [id, p] of this.pending) {
      this.settlePending(id);
      p.settle?.(undefined);
    }
  }

  // ------------------------------------------------------------------------------------------

  private forward(request: JsonRpcRequest, raw?: string, settle?: (reply: Reply | undefined) => void, own = false): void {
    const meta = request.params?._meta as { progressToken?: unknown } | undefined;
    const token = meta && (typeof meta.progressToken === 'string' || typeof meta.progressToken === 'number') ? meta.progressToken : undefined;
    const p: Pending = { request, ...(token !== undefined ? { progressToken: token } : {}), ...(settle ? { settle } : {}), ...(own ? { own } : {}) };
    this.pending.set(request.id, p);
    if (token !== undefined) this.byToken.set(token, request.id);
    this.restartClock(request.id);
    this.options.toServer(request, raw);
  }

  private restartClock(id: RequestId): void {
    const p = this.pending.get(id);
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(() => {
      const seconds = this.options.timeoutMs / 1000;
      this.fail(`the MCP server did not answer ${p.request.method} within ${seconds} s (--timeout); the session is closed`, ErrorCode.requestTimeout);
    }, this.options.timeoutMs);
    // A pending deadline must not keep a finished process alive.
    p.timer.unref?.();
  }

  private settlePending(id: RequestId): void {
    const p = this.pending.get(id);
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    if (p.progressToken !== undefined) this.byToken.delete(p.progressToken);
    this.pending.delete(id);
  }

  private fail(reason: string, code: number): void {
    if (this.ended !== undefined) return;
    this.ended = reason;
    for (const [id, p] of [...this.pending]) {
      this.settlePending(id);
      if (!p.own) this.options.toClient(errorReply(id, code, `tslc shield: ${reason}`));
      p.settle?.(undefined);
    }
    this.unsubscribe();
    this.options.onFatal(reason);
  }

  /** The client's `notifications/cancelled`; true when the proxy handled it (nothing to forward). */
  private clientCancelled(requestId: unknown): boolean {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    const waiting = this.queued.get(requestId);
    if (waiting) {
      // Not sent yet: the server never hears of it.
      waiting.cancelled = true;
      return true;
    }
    const p = this.pending.get(requestId);
    if (p && !p.own) {
      this.settlePending(requestId);
      p.settle?.(undefined);
    }
    return false;
  }

  private async toolCall(request: JsonRpcRequest, raw?: string): Promise<void> {
    const slot = { cancelled: false };
    this.queued.set(request.id, slot);
    const { policy } = this.options;
    await policy.exclusive(async () => {
      this.queued.delete(request.id);
      if (slot.cancelled) return;
      if (this.ended !== undefined) {
        this.options.toClient(errorReply(request.id, ErrorCode.connectionClosed, `tslc shield: ${this.ended}`));
        return;
      }
      const name = request.params?.name;
      if (typeof name !== 'string' || name === '') {
        this.options.toClient(errorReply(request.id, -32602, 'tools/call needs the tool\'s "name"'));
        return;
      }
      const args = request.params?.arguments;
      const d = policy.decide(name, args);
      if (!d.decision.allowed) {
        policy.denied(name, args, d);
        this.options.toClient(this.denial(request.id, name, d));
        return;
      }
      const reply = await new Promise<Reply | undefined>((resolve) => this.forward(request, raw, resolve));
      if (reply === undefined) {
        // Cancelled after it was sent, or the server ended: it may have run. Count it.
        policy.completed(name, args, d, 'unknown');
        return;
      }
      if (isErrorResponse(reply)) {
        policy.failed(name, args, d, reply.error.message);
        this.options.toClient(reply);
        return;
      }
      policy.completed(name, args, d, reply.result.isError === true ? 'error' : 'ok', reply.result);
      this.options.toClient(reply);
    });
  }

  private denial(id: RequestId, tool: string, d: CallDecision): JsonRpcResult {
    const known = this.knownTools();
    const allowed = this.options.policy.allowedTools(known);
    const text = denialMessage(tool, d.decision, allowed);
    return {
      jsonrpc: '2.0',
      id,
      result: {
        content: [{ type: 'text', text }],
        isError: true,
        _meta: { 'tslc/shield': { denied: true, tool, rules: d.decision.breaches.map((b) => b.rule), reason: d.decision.reason, allowedTools: allowed } },
      },
    };
  }

  /** The server's tools if known, else the tools the rules name. */
  private knownTools(): string[] {
    return this.serverTools ?? this.ruleTools();
  }

  /** Tools the rules name in `call:`, `ok:`, `error:` or `unknown:` propositions. */
  private ruleTools(): string[] {
    const out = new Set<string>();
    for (const r of this.options.policy.shield.rules) for (const m of r.ltl.matchAll(/"(?:call|ok|error|unknown):([^"]+)"/g)) out.add(m[1]);
    return [...out];
  }

  private initialized(m: JsonRpcResult): JsonRpcResult {
    const caps = m.result.capabilities as Record<string, unknown> | undefined;
    this.serverHasTools = typeof caps?.tools === 'object' && caps.tools !== null;
    if (!this.options.hideDenied || !this.serverHasTools) return m;
    // The client must know the list can change, or it will never ask again.
    return { ...m, result: { ...m.result, capabilities: { ...caps, tools: { ...(caps!.tools as object), listChanged: true } } } };
  }

  private toolsListed(request: JsonRpcRequest, m: JsonRpcResult): JsonRpcResult {
    const tools = Array.isArray(m.result.tools) ? (m.result.tools as unknown[]) : [];
    const names = tools.map((t) => (t as { name?: unknown }).name).filter((n): n is string => typeof n === 'string');
    const firstPage = request.params?.cursor === undefined;
    this.learnTools(firstPage ? names : [...(this.serverTools ?? []), ...names], m.result.nextCursor === undefined);
    if (!this.options.hideDenied) return m;
    const allowed = new Set(this.options.policy.allowedTools(names));
    this.shownKey = this.options.policy.allowedTools(this.serverTools ?? names).join('\n');
    return { ...m, result: { ...m.result, tools: tools.filter((t) => allowed.has((t as { name?: string }).name ?? '')) } };
  }

  private learnTools(names: string[], complete: boolean): void {
    this.serverTools = [...new Set(names)];
    if (!complete || this.warnedTools || !this.options.warn) return;
    this.warnedTools = true;
    const have = new Set(this.serverTools);
    const missing = this.ruleTools().filter((t) => !have.has(t));
    if (missing.length > 0) {
      this.options.warn(`the rules name the tool${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, but the server has no such tool (it has ${this.serverTools.join(', ') || 'none'})`);
    }
  }

  /** Ask the server for its tool list (all pages), for denials and `hideDenied`. */
  private refreshTools(): void {
    const names: string[] = [];
    const page = (cursor: unknown, n: number): void => {
      if (n >= MAX_TOOL_PAGES || this.ended !== undefined) return;
      const request: JsonRpcRequest = { jsonrpc: '2.0', id: `${OWN_ID_PREFIX}${++this.ownIds}`, method: 'tools/list', ...(cursor !== undefined ? { params: { cursor } } : {}) };
      this.forward(
        request,
        undefined,
        (reply) => {
          if (reply === undefined || !isResult(reply)) return;
          const tools = Array.isArray(reply.result.tools) ? (reply.result.tools as { name?: unknown }[]) : [];
          for (const t of tools) if (typeof t?.name === 'string') names.push(t.name);
          if (reply.result.nextCursor !== undefined) return page(reply.result.nextCursor, n + 1);
          this.learnTools(names, true);
          this.maybeListChanged();
        },
        true,
      );
    };
    page(undefined, 0);
  }

  private maybeListChanged(): void {
    if (!this.options.hideDenied || this.shownKey === undefined || this.serverTools === undefined || this.ended !== undefined) return;
    const key = this.options.policy.allowedTools(this.serverTools).join('\n');
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.options.toClient({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  }
}
