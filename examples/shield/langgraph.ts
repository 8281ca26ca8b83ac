/**
 * Shielding a LangGraph agent: the usual model → tools loop, with `shieldToolNode` in place of
 * `ToolNode` and the rules of examples/shield/orders.ltl. Runs offline: LangChain's own fake chat
 * model (`FakeStreamingChatModel`, one per scripted turn) stands in for a real one and tries to
 * refund before looking the order up; the shield denies that refund and the model re-plans.
 *
 *   node dist/examples/shield/langgraph.js
 *
 * With a real model, replace `chat` by `(messages) => model.bindTools(tools).invoke(messages)`.
 */
import { pathToFileURL } from 'node:url';
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { Shield } from '../../runtime/shield/index.js';
import { shieldToolNode } from '../../runtime/shield/adapters/langgraph.js';

export const ORDER_RULES = [
  { name: 'refund-after-lookup', english: 'call:refund only after ok:lookup_order' },
  { name: 'one-refund', english: 'call:refund happens at most 1 times' },
];

export type Chat = (messages: BaseMessage[]) => Promise<AIMessage | AIMessageChunk>;

/** A chat model that plays one scripted turn per call, each from LangChain's fake model. */
export function scriptedChat(turns: readonly { readonly calls?: readonly { name: string; args: Record<string, unknown> }[]; readonly say?: string }[]): Chat {
  let i = 0;
  return async (messages) => {
    const turn = turns[Math.min(i, turns.length - 1)];
    const n = i++;
    const chunk = new AIMessageChunk({
      content: turn.say ?? '',
      tool_calls: (turn.calls ?? []).map((c, k) => ({ name: c.name, args: c.args, id: `call_${n}_${k}`, type: 'tool_call' as const })),
    });
    return new FakeStreamingChatModel({ chunks: [chunk], responses: [new AIMessage(turn.say ?? '')], sleep: 0 }).invoke(messages);
  };
}

export function buildSupportGraph(shield: Shield, chat: Chat, executed: string[] = []) {
  const lookupOrder = tool(
    async ({ order_id }: { order_id: string }) => {
      executed.push('lookup_order');
      return JSON.stringify({ order_id, status: 'delivered', total: 42 });
    },
    { name: 'lookup_order', description: 'Look up an order by id', schema: z.object({ order_id: z.string() }) },
  );
  const refund = tool(
    async ({ order_id }: { order_id: string }) => {
      executed.push('refund');
      return `refunded 42 for order ${order_id}`;
    },
    { name: 'refund', description: 'Refund an order', schema: z.object({ order_id: z.string() }) },
  );
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state: typeof MessagesAnnotation.State) => ({ messages: [await chat(state.messages)] }))
    .addNode('tools', shieldToolNode([lookupOrder, refund], shield))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile();
}

export interface LangGraphExampleResult {
  readonly answer: string;
  readonly executed: readonly string[];
  readonly denials: readonly string[];
  readonly trace: readonly (readonly string[])[];
}

export async function langGraphExample(say: (line: string) => void = () => undefined): Promise<LangGraphExampleResult> {
  const shield = new Shield(ORDER_RULES);
  const executed: string[] = [];
  const chat = scriptedChat([
    { calls: [{ name: 'refund', args: { order_id: 'A17' } }] },
    { calls: [{ name: 'lookup_order', args: { order_id: 'A17' } }] },
    { calls: [{ name: 'refund', args: { order_id: 'A17' } }] },
    { say: 'Order A17 is refunded.' },
  ]);
  const graph = buildSupportGraph(shield, chat, executed);
  const final = await graph.invoke({ messages: [new HumanMessage('Please refund order A17.')] });
  const denials = final.messages.filter((m): m is ToolMessage => m instanceof ToolMessage && m.status === 'error').map((m) => String(m.content));
  for (const d of denials) say(`denied: ${d.split('\n')[1]}`);
  const answer = String(final.messages[final.messages.length - 1].content);
  say(`final: ${answer}`);
  return { answer, executed, denials, trace: shield.trace };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await langGraphExample((line) => console.log(line));
}
