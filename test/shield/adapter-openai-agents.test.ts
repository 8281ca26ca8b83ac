/**
 * The OpenAI Agents SDK adapter with the SDK's real runner and a scripted `Model` (the SDK exports
 * no fake model; its `Model` interface is the documented seam): a forbidden call does not run,
 * the model is shown the denial, and the shield records what ran.
 */
import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAiAgentsExample, ScriptedModel } from '../../examples/shield/openai-agents.js';
import { shieldAgentTools } from '../../runtime/shield/adapters/openai-agents.js';
import { Shield } from '../../runtime/shield/index.js';

describe('OpenAI Agents SDK adapter', () => {
  it('the example: the early refund is denied with the rule named, the model re-plans, the refund then runs once', async () => {
    const lines: string[] = [];
    const r = await openAiAgentsExample((l) => lines.push(l));
    expect(r.executed).toEqual(['lookup_order', 'refund']);
    expect(r.denials).toHaveLength(1);
    expect(r.denials[0]).toContain('rule "refund-after-lookup" (call:refund only after ok:lookup_order) forbids it');
    expect(r.denials[0]).toContain('Tools allowed now: lookup_order.');
    expect(r.finalOutput).toBe('Order A17 is refunded.');
    expect(r.trace).toEqual([['call:lookup_order'], ['ok:lookup_order'], ['call:refund'], ['ok:refund']]);
    expect(lines[0]).toMatch(/^denied refund: call refund is blocked/);
  });

  it('parallel calls in one turn are decided one at a time: only one of two refunds runs under "at most 1"', async () => {
    setTracingDisabled(true);
    let refunds = 0;
    const refund = tool({ name: 'refund', description: 'Refund', parameters: z.object({ order_id: z.string() }), execute: async () => `refund #${++refunds}` });
    const shield = new Shield([{ name: 'one-refund', english: 'call:refund happens at most 1 times' }]);
    const model = new ScriptedModel([
      { calls: [{ name: 'refund', args: { order_id: 'A' } }, { name: 'refund', args: { order_id: 'B' } }] },
      { say: 'done' },
    ]);
    await run(new Agent({ name: 'a', model, tools: shieldAgentTools([refund], shield) }), 'refund A and B');
    expect(refunds).toBe(1);
    expect(model.seen.filter((s) => s.includes('"one-refund"'))).toHaveLength(1);
  });

  it('labels from input and output join the recorded events; a tool that throws records nothing', async () => {
    setTracingDisabled(true);
    const verify = tool({
      name: 'verify',
      description: 'Verify',
      parameters: z.object({ who: z.string() }),
      execute: async ({ who }) => {
        if (who === 'mallory') throw new Error('verification service down');
        return JSON.stringify({ verified: true });
      },
      errorFunction: null,
    });
    const shield = new Shield([{ name: 'r', english: 'call:pay only after result:verified' }]);
    const tools = shieldAgentTools([verify], shield, {
      labelInput: (_t, input) => ((input as { who?: string }).who === 'alice' ? ['who:alice'] : []),
      labelResult: (_t, output) => (String(output).includes('"verified":true') ? ['result:verified'] : []),
    });
    const failing = new ScriptedModel([{ calls: [{ name: 'verify', args: { who: 'mallory' } }] }, { say: 'x' }]);
    await expect(run(new Agent({ name: 'a', model: failing, tools }), 'go')).rejects.toThrow(/verification service down/);
    expect(shield.trace).toEqual([]);
    const model = new ScriptedModel([{ calls: [{ name: 'verify', args: { who: 'alice' } }] }, { say: 'ok' }]);
    await run(new Agent({ name: 'a', model, tools }), 'go');
    expect(shield.trace).toEqual([['call:verify', 'who:alice'], ['ok:verify', 'result:verified']]);
  });
});
