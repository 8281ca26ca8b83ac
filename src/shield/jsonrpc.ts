/**
 * JSON-RPC 2.0 messages as the MCP shield proxy sees them: the four shapes, a structural check of
 * untrusted input, and the error replies the proxy writes itself. Declared here (not taken from
 * `@modelcontextprotocol/sdk`) so the stdio proxy runs without loading the SDK or its schemas; the
 * shapes are the SDK's `JSONRPCMessage` ones, so messages cross the HTTP front unchanged.
 */

export type RequestId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface JsonRpcResult {
  readonly jsonrpc: '2.0';
  readonly id: RequestId;
  readonly result: Record<string, unknown>;
}

export interface JsonRpcError {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/** JSON-RPC's and MCP's error codes the proxy uses. */
export const ErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  internalError: -32603,
  /** MCP's "connection closed" (the SDK's ErrorCode.ConnectionClosed). */
  connectionClosed: -32000,
  /** MCP's "request timeout" (the SDK's ErrorCode.RequestTimeout). */
  requestTimeout: -32001,
} as const;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isId(x: unknown): x is RequestId {
  return typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
}

/** Why `value` is not a JSON-RPC 2.0 message, or undefined when it is one. */
export function whyNotJsonRpc(value: unknown): string | undefined {
  if (!isObject(value)) return 'expected a JSON object';
  if (value.jsonrpc !== '2.0') return 'expected "jsonrpc": "2.0"';
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isObject(value.params)) return '"params" must be an object';
    if ('id' in value && !isId(value.id)) return '"id" must be a string or a number';
    return undefined;
  }
  if ('result' in value) {
    if (!isId(value.id)) return 'a response needs an "id"';
    if (!isObject(value.result)) return '"result" must be an object';
    return undefined;
  }
  if ('error' in value) {
    if (!(isId(value.id) || value.id === null)) return 'an error response needs an "id"';
    const e = value.error;
    if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') return '"error" needs a numeric "code" and a "message"';
    return undefined;
  }
  return 'neither a request, a notification nor a response';
}

export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m;
}

export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return 'method' in m && !('id' in m);
}

export function isResult(m: JsonRpcMessage): m is JsonRpcResult {
  return 'result' in m;
}

export function isErrorResponse(m: JsonRpcMessage): m is JsonRpcError {
  return 'error' in m;
}

export function errorReply(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcError {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** A short, printable excerpt of untrusted text for an error message. */
export function excerpt(text: string, max = 80): string {
  const oneLine = text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\t' ? ' ' : '·'));
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}
