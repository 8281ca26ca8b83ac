/**
 * Shielding an OpenAI Agents SDK agent: the order tools wrapped by `shieldAgentTools`, with the
 * rules of examples/shield/orders.ltl. Runs offline: a scripted model (the SDK's `Model`
 * interface, answering from a fixed script) stands in for GPT and first tries to refund before
 * looking the order up; the shield denies that refund, the model reads why and re-plans.
 *
 *   node dist/examples/shield/openai-agents.js
 *
 * With a real model, pass `model: 'gpt-4.1'` (and OPENAI_API_KEY) instead of the script.
 */
import { pathToFileURL } from 'node:url';
import { Agent, type Model, type ModelRequest, type ModelResponse, run, setTracingDisabled, tool, Usage } from '@openai/agents';
import { z } from 'zod';
import { Shield } from '../../runtime/shield/index.js';
import { shieldAgentTools } from '../../runtime/shield/adapters/openai-agents.js';

export const ORDER_RULES = [
  { name: 'refund-after-lookup', english: 'call:refund only after ok:lookup_order' },
  { name: 'one-refund', english: 'call:refund happens at most 1 times' },
];

/** One model turn: tool calls to make, or the final answer. */
export type ScriptedTurn = { readonly calls: readonly { readonly name: string; readonly args: Record<string, unknown> }[] } | { readonly say: string };

/** A `Model` that plays a fixed script and remembers what it was shown (the tool outputs). */
export class ScriptedModel implements Model {
  /** Tool outputs the model was shown, by call id (each request repeats the whole history). */
  private readonly outputs = new Map<string, string>();
  private turn = 0;
  constructor(private readonly script: readonly ScriptedTurn[]) {}

  get seen(): string[] {
    return [...this.outputs.values()];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = Array.isArray(request.input) ? request.input : [];
    for (const item of input) {
      if (item.type !== 'function_call_result') continue;
      const out = item.output;
      if (typeof out === 'string') this.outputs.set(item.callId, out);
      else if (!Array.isArray(out) && out.type === 'text') this.outputs.set(item.callId, out.text);
    }
    const step = this.script[Math.min(this.turn++, this.script.length - 1)];
    const output: ModelResponse['output'] =
      'say' in step
        ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.say }] }]
        : step.calls.map((c, i) => ({ type: 'function_call', callId: `call_${this.turn}_${i}`, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' }));
    return { usage: new Usage(), output };
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream');
  }
}

export interface AgentsExampleResult {
  readonly finalOutput: string;
  /** Tools that actually ran, in order. */
  readonly executed: readonly string[];
  /** Denials the model was shown. */
  readonly denials: readonly string[];
  readonly trace: readonly (readonly string[])[];
}

export async function openAiAgentsExample(say: (line: string) => void = () => undefined): Promise<AgentsExampleResult> {
  setTracingDisabled(true);
  const executed: string[] = [];
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Look up an order by id',
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => {
      executed.push('lookup_order');
      return JSON.stringify({ order_id, status: 'delivered', total: 42 });
    },
  });
  const refund = tool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ order_id: z.string() }),
    execute: async ({ order_id }) => {
      executed.push('refund');
      return `refunded 42 for order ${order_id}`;
    },
  });
  const shield = new Shield(ORDER_RULES);
  const model = new ScriptedModel([
    { calls: [{ name: 'refund', args: { order_id: 'A17' } }] },
    { calls: [{ name: 'lookup_order', args: { order_id: 'A17' } }] },
    { calls: [{ name: 'refund', args: { order_id: 'A17' } }] },
    { say: 'Order A17 is refunded.' },
  ]);
  const agent = new Agent({
    name: 'support',
    instructions: 'Refund orders when asked.',
    model,
    tools: shieldAgentTools([lookupOrder, refund], shield, { onDenied: (d) => say(`denied ${d.tool}: ${d.reason}`) }),
  });
  const result = await run(agent, 'Please refund order A17.');
  const finalOutput = String(result.finalOutput ?? '');
  say(`final: ${finalOutput}`);
  return { finalOutput, executed, denials: model.seen.filter((s) => s.startsWith('Denied by the tslc shield')), trace: shield.trace };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await openAiAgentsExample((line) => console.log(line));
}
