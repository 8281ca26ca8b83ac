/**
 * A small MCP server (stdio) with the two tools of the shield examples: `lookup_order` and
 * `refund`. It knows nothing about rules: run it behind `tslc shield mcp` and the shield decides
 * which refunds reach it.
 *
 *   node dist/examples/shield/orders-server.js                      # the bare server (stdio)
 *   node dist/examples/shield/orders-server.js --http 8080          # the bare server (Streamable HTTP)
 *   tslc shield mcp --rules examples/shield/orders.rules -- node dist/examples/shield/orders-server.js
 *
 * `createOrdersServer` lets tests add hooks (see test/shield/fixtures/orders-server.mjs).
 */
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export interface OrdersServerOptions {
  /** Called before a tool runs (e.g. to record what reached the server); may delay it. */
  readonly beforeCall?: (tool: string, args: Record<string, unknown>) => void | Promise<void>;
}

const ORDERS: ReadonlyMap<string, { readonly status: string; readonly total: number }> = new Map([
  ['A17', { status: 'delivered', total: 42 }],
  ['B23', { status: 'lost in transit', total: 1250 }],
]);

export function createOrdersServer(options: OrdersServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'orders', version: '1.0.0' });
  server.registerTool(
    'lookup_order',
    { description: 'Look up an order by id', inputSchema: { order_id: z.string() } },
    async ({ order_id }) => {
      await options.beforeCall?.('lookup_order', { order_id });
      const order = ORDERS.get(order_id);
      if (!order) return { content: [{ type: 'text', text: `no order ${order_id}` }], isError: true };
      return { content: [{ type: 'text', text: JSON.stringify({ order_id, ...order }) }] };
    },
  );
  server.registerTool(
    'refund',
    { description: 'Refund an order', inputSchema: { order_id: z.string(), amount: z.number().optional() } },
    async ({ order_id, amount }) => {
      await options.beforeCall?.('refund', { order_id, ...(amount !== undefined ? { amount } : {}) });
      const order = ORDERS.get(order_id);
      if (!order) return { content: [{ type: 'text', text: `no order ${order_id}` }], isError: true };
      return { content: [{ type: 'text', text: `refunded ${amount ?? order.total} for order ${order_id}` }] };
    },
  );
  return server;
}

/** The same server over Streamable HTTP (`--http PORT`), one server per MCP session; resolves to its URL. */
export async function serveOrdersHttp(port: number, options: OrdersServerOptions = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const { randomUUID } = await import('node:crypto');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const sessions = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
  const http = createServer((req, res) => {
    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    void (async () => {
      if (known) return known.handleRequest(req, res);
      const transport: InstanceType<typeof StreamableHTTPServerTransport> = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      await createOrdersServer(options).connect(transport);
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const address = http.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/mcp`;
  return { url, close: () => new Promise((resolve) => http.close(() => resolve())) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf('--http');
  if (i >= 0) {
    const { url } = await serveOrdersHttp(Number(process.argv[i + 1] ?? 0));
    process.stderr.write(`orders server listening on ${url}\n`);
  } else {
    await createOrdersServer().connect(new StdioServerTransport());
  }
}
