/**
 * A shielded Vercel AI SDK agent. The model (here `MockLanguageModelV3` from `ai/test`, scripted
 * to act like an eager LLM) first tries to refund before verifying the customer; the wrapped tool
 * does not run and returns the shield's explanation as its result, and the model re-plans:
 * verify, then refund, then the confirmation email. A second run uses `prepareStep` so forbidden
 * tools are not even offered.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { Shield, shieldPrepareStep, shieldTools } from '../../runtime/shield/index.js';
import { SUPPORT_RULES, SUPPORT_TOOLS } from './support-rules.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCall(name: string, input: object, id: string) {
  return {
    content: [{ type: 'tool-call' as const, toolCallId: id, toolName: name, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}
function text(t: string) {
  return { content: [{ type: 'text' as const, text: t }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
}

function supportTools(executed: string[]) {
  return {
    lookup_order: tool({
      description: 'Look up an order',
      inputSchema: z.object({ order: z.string() }),
      execute: async ({ order }) => (executed.push('lookup_order'), { order, amount: 42 }),
    }),
    verify_identity: tool({
      description: "Verify the customer's identity",
      inputSchema: z.object({ customer: z.string() }),
      execute: async () => (executed.push('verify_identity'), { verified: true }),
    }),
    refund: tool({
      description: 'Refund an order',
      inputSchema: z.object({ order: z.string() }),
      execute: async ({ order }) => (executed.push('refund'), { refunded: order }),
    }),
    send_email: tool({
      description: 'Email the customer',
      inputSchema: z.object({ text: z.string() }),
      execute: async () => (executed.push('send_email'), { sent: true }),
    }),
  };
}

/** A scripted "LLM": refund first; if a tool result says blocked, verify and retry; then email. */
function eagerModel() {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const seen = JSON.stringify(prompt);
      const results = prompt.filter((m) => m.role === 'tool').length;
      if (results === 0) return toolCall('refund', { order: 'A17' }, 'c1');
      if (seen.includes('"blocked":true') && !seen.includes('"verified":true')) return toolCall('verify_identity', { customer: 'ann' }, 'c2');
      if (!seen.includes('"refunded"')) return toolCall('refund', { order: 'A17' }, 'c3');
      if (!seen.includes('"sent"')) return toolCall('send_email', { text: 'Your refund is on its way.' }, 'c4');
      return text('Refunded order A17 and emailed the customer.');
    },
  });
}

export interface AiSdkExampleResult {
  readonly executed: readonly string[];
  readonly blocked: readonly { tool: string; reason: string }[];
  readonly finalText: string;
  readonly offeredPerStep: readonly (readonly string[])[];
}

export async function aiSdkExample(log: (line: string) => void = console.log): Promise<AiSdkExampleResult> {
  // 1. Wrapped tools: a blocked call returns its explanation; the model re-plans.
  const shield = new Shield(SUPPORT_RULES, { tools: SUPPORT_TOOLS });
  const executed: string[] = [];
  const blocked: { tool: string; reason: string }[] = [];
  const tools = shieldTools(supportTools(executed), shield, {
    labelResult: (name, output) => (name === 'verify_identity' && (output as { verified?: boolean }).verified ? ['result:verified'] : []),
    onDecision: (name, allowed, reason) => {
      log(allowed ? `tool ${name}: allowed` : `tool ${name}: ${reason}`);
      if (!allowed) blocked.push({ tool: name, reason });
    },
  });
  const run = await generateText({ model: eagerModel(), tools, prompt: 'Refund order A17 for Ann.', stopWhen: stepCountIs(8) });
  log(`model: ${run.text}`);

  // 2. prepareStep: only tools the rules allow are offered at each step.
  const shield2 = new Shield(SUPPORT_RULES, { tools: SUPPORT_TOOLS });
  const offered = new MockLanguageModelV3({
    doGenerate: async ({ tools: offeredTools, prompt }) => {
      const names = (offeredTools ?? []).map((t) => t.name);
      const done = prompt.filter((m) => m.role === 'tool').length;
      const order = ['verify_identity', 'refund', 'send_email'];
      return done < order.length && names.includes(order[done]) ? toolCall(order[done], order[done] === 'send_email' ? { text: 'ok' } : { order: 'A17', customer: 'ann' }, `p${done}`) : text('done');
    },
  });
  const executed2: string[] = [];
  await generateText({
    model: offered,
    tools: shieldTools(supportTools(executed2), shield2, {
      labelResult: (name) => (name === 'verify_identity' ? ['result:verified'] : []),
    }),
    prepareStep: shieldPrepareStep(shield2, [...SUPPORT_TOOLS]),
    prompt: 'Refund order A17 for Ann.',
    stopWhen: stepCountIs(6),
  });
  const offeredPerStep = offered.doGenerateCalls.map((c) => (c.tools ?? []).map((t) => t.name));
  offeredPerStep.forEach((names, i) => log(`step ${i + 1} offered: ${names.join(', ')}`));
  return { executed, blocked, finalText: run.text, offeredPerStep };
}

if (import.meta.url === `file://${process.argv[1]}`) void aiSdkExample();
