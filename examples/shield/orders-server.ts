/**
 * A small MCP server (stdio) with the two tools of the shield examples: `lookup_order` and
 * `refund`. It knows nothing about rules: run it behind `tslc shield mcp` and the shield decides
 * which refunds reach it.
 *
 *   node dist/examples/shield/orders-server.js                      # the bare server
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await createOrdersServer().connect(new StdioServerTransport());
}
