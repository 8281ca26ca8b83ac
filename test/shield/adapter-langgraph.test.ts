/**
 * The LangGraph adapter in a real StateGraph, with LangChain's own fake chat model
 * (`FakeStreamingChatModel` from @langchain/core/utils/testing) playing the model's turns.
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { langGraphExample } from '../../examples/shield/langgraph.js';
import { shieldToolNode } from '../../runtime/shield/adapters/langgraph.js';
import { Shield } from '../../runtime/shield/index.js';

describe('LangGraph adapter', () => {
  it('the example: the early refund is denied in a ToolMessage naming the rule; after the lookup the refund runs', async () => {
    const lines: string[] = [];
    const r = await langGraphExample((l) => lines.push(l));
    expect(r.executed).toEqual(['lookup_order', 'refund']);
    expect(r.denials).toHaveLength(1);
    expect(r.denials[0]).toContain('rule "refund-after-lookup" (call:refund only after ok:lookup_order) forbids it');
    expect(r.denials[0]).toContain('Tools allowed now: lookup_order.');
    expect(r.answer).toBe('Order A17 is refunded.');
    expect(r.trace).toEqual([['call:lookup_order'], ['ok:lookup_order'], ['call:refund'], ['ok:refund']]);
    expect(lines[0]).toBe('denied: Why: rule "refund-after-lookup" (call:refund only after ok:lookup_order) forbids it.');
  });

  it('a message with two refund calls: the node runs them one at a time and only one passes "at most 1"', async () => {
    let refunds = 0;
    const refund = tool(async () => `refund #${++refunds}`, { name: 'refund', description: 'Refund', schema: z.object({ order_id: z.string() }) });
    const node = shieldToolNode([refund], new Shield([{ name: 'one-refund', english: 'call:refund happens at most 1 times' }]));
    const out = (await node.invoke({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            { name: 'refund', args: { order_id: 'A' }, id: 'a', type: 'tool_call' },
            { name: 'refund', args: { order_id: 'B' }, id: 'b', type: 'tool_call' },
          ],
        }),
      ],
    })) as { messages: ToolMessage[] };
    expect(refunds).toBe(1);
    expect(out.messages.map((m) => m.status)).toEqual(['success', 'error']);
    expect(String(out.messages[1].content)).toContain('"one-refund"');
  });

  it('a tool that throws becomes the node\'s error message and is not recorded', async () => {
    const flaky = tool(
      async () => {
        throw new Error('service down');
      },
      { name: 'lookup_order', description: 'x', schema: z.object({}) },
    );
    const shield = new Shield(['call:refund only after ok:lookup_order']);
    const node = shieldToolNode([flaky], shield);
    const out = (await node.invoke({ messages: [new AIMessage({ content: '', tool_calls: [{ name: 'lookup_order', args: {}, id: 'x', type: 'tool_call' }] })] })) as {
      messages: ToolMessage[];
    };
    expect(out.messages[0].status).toBe('error');
    expect(String(out.messages[0].content)).toContain('service down');
    expect(shield.trace).toEqual([]);
  });
});
