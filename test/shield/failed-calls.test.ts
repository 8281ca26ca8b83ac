/**
 * Shields count only calls that completed (issue 18, item 16): a tool whose `execute` throws is not
 * recorded, so "at most once" still allows the retry — through the plain API (`run`, `start`) and
 * through the Vercel AI SDK wrapper. While a call runs, decisions hold whether or not it completes.
 */
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkPlan, type PendingCall, Shield, shieldTools } from '../../runtime/shield/index.js';
import { SUPPORT_EVENTS, SUPPORT_RULES, SUPPORT_TOOLS } from './rulesets.js';

const ONCE = [{ name: 'one-refund', english: 'call:refund happens at most 1 times' }];

describe('plain API', () => {
  it('run(): a call that threw is not counted, so the retry is allowed and the one after is not', async () => {
    const shield = new Shield(ONCE);
    await expect(shield.run('refund', () => Promise.reject(new Error('payment service down')))).rejects.toThrow('payment service down');
    expect(shield.trace).toEqual([]);
    const retry = await shield.run({ tool: 'refund', args: { order: 1 } }, () => 'refunded');
    expect(retry).toMatchObject({ ran: true, output: 'refunded', decision: { allowed: true } });
    expect(shield.trace).toEqual([['call:refund']]);
    const third = await shield.run('refund', () => 'again');
    expect(third.ran).toBe(false);
    expect(third.decision.breaches.map((b) => b.rule)).toEqual(['one-refund']);
  });

  it('run() records the events derived from a completed call, after the call', async () => {
    const shield = new Shield([{ name: 'verified-first', ltl: '!"call:refund" W "result:verified"' }]);
    await shield.run('verify', () => ({ ok: true }), (out) => (out.ok ? ['result:verified'] : []));
    expect(shield.trace).toEqual([['call:verify'], ['result:verified']]);
    expect(shield.check('refund').allowed).toBe(true);
  });

  it('start(): a running call holds its place; other decisions must hold whether or not it completes', () => {
    const shield = new Shield([...ONCE, { name: 'verify-first', english: 'call:refund only after call:verify' }]);
    const verify = shield.start('verify');
    expect(verify.decision.allowed).toBe(true);
    // The verification may still fail, so a refund cannot rely on it yet.
    const early = shield.check('refund');
    expect(early.allowed).toBe(false);
    expect(early.reason).toContain('1 call is still running');
    verify.complete();
    expect(shield.running).toBe(0);
    const first = shield.start('refund');
    expect(first.decision.allowed).toBe(true);
    // If the first refund completes, a second breaks "at most once": denied while it runs.
    expect(shield.start('refund').decision.allowed).toBe(false);
    first.fail();
    expect(shield.trace).toEqual([['call:verify']]);
    const second = shield.start('refund');
    expect(second.decision.allowed).toBe(true);
    second.complete();
    expect(shield.trace).toEqual([['call:verify'], ['call:refund']]);
    expect(() => second.complete()).toThrow(/already completed/);
    expect(() => shield.start('refund').complete()).toThrow(/denied/);
  });

  it('events recorded while a call runs keep their order behind it', () => {
    const shield = new Shield([{ name: 'x-then-y', ltl: 'G ("call:y" -> "call:x" | !X true)' }]);
    const x = shield.start('x');
    shield.observe(['note']);
    expect(shield.trace).toEqual([]);
    x.complete();
    expect(shield.trace).toEqual([['call:x'], ['note']]);
  });

  it('guard() still records at once (documented: for calls that cannot fail)', () => {
    const shield = new Shield(ONCE);
    expect(shield.guard('refund').allowed).toBe(true);
    expect(shield.guard('refund').allowed).toBe(false);
  });
});

describe('concurrent calls that complete or fail at random', () => {
  it('whatever completes, the recorded trace never becomes unsatisfiable', () => {
    let seed = 12345;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    // A rule whose prerequisite is a call (which may fail) besides the support rules.
    const rules = [...SUPPORT_RULES, { name: 'lookup-first', english: 'call:refund only after call:lookup_order' }];
    let started = 0;
    let failed = 0;
    for (let session = 0; session < 150; session++) {
      const shield = new Shield(rules, { tools: SUPPORT_TOOLS });
      const running: PendingCall[] = [];
      for (let op = 0; op < 14; op++) {
        const r = rnd();
        if (r < 0.5) {
          const p = shield.start(pick(SUPPORT_TOOLS));
          if (p.decision.allowed) (running.push(p), started++);
        } else if (r < 0.85 && running.length > 0) {
          const p = running.splice(Math.floor(rnd() * running.length), 1)[0];
          if (rnd() < 0.4) (p.fail(), failed++);
          else p.complete();
        } else {
          const event = [pick(SUPPORT_EVENTS)];
          if (shield.checkEvent(event).allowed) shield.observe(event);
        }
      }
      for (const p of running) (rnd() < 0.5 ? p.fail() : p.complete());
      const report = checkPlan(rules, shield.trace.map((labels) => ({ labels })), { tools: SUPPORT_TOOLS });
      expect({ session, trace: shield.trace, blocked: report.firstViolation?.index }).toEqual({ session, trace: shield.trace, blocked: undefined });
    }
    expect(started).toBeGreaterThan(50);
    expect(failed).toBeGreaterThan(10);
  });
});

describe('Vercel AI SDK wrapper', () => {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  const call = (id: string) => ({
    content: [{ type: 'tool-call' as const, toolCallId: id, toolName: 'refund', input: JSON.stringify({ order: 'A17' }) }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  });
  const done = { content: [{ type: 'text' as const, text: 'done' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };

  it('a refund whose execute threw is retried by the model and runs; a third is blocked', async () => {
    const shield = new Shield(ONCE);
    let attempts = 0;
    const executed: string[] = [];
    const decisions: boolean[] = [];
    const tools = shieldTools(
      {
        refund: tool({
          description: 'Refund an order',
          inputSchema: z.object({ order: z.string() }),
          execute: async ({ order }) => {
            attempts++;
            if (attempts === 1) throw new Error('payment service down');
            executed.push(order);
            return { refunded: order };
          },
        }),
      },
      shield,
      { onDecision: (_name, allowed) => decisions.push(allowed) },
    );
    // The model tries the refund, sees the error and retries, then tries once more.
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const results = prompt.filter((m) => m.role === 'tool').length;
        return results < 3 ? call(`c${results}`) : done;
      },
    });
    const run = await generateText({ model, tools, prompt: 'Refund A17.', stopWhen: stepCountIs(6) });
    expect(attempts).toBe(2);
    expect(executed).toEqual(['A17']);
    expect(decisions).toEqual([true, true, false]);
    expect(shield.trace).toEqual([['call:refund']]);
    const outputs = run.steps.flatMap((s) => s.content).filter((c) => c.type === 'tool-result' || c.type === 'tool-error');
    expect(outputs.map((c) => c.type)).toEqual(['tool-error', 'tool-result', 'tool-result']);
    expect(JSON.stringify(outputs[2])).toContain('"blocked":true');
  });
});
