import { describe, expect, it } from 'vitest';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { holds } from '../patterns/ltlf.js';
import { Shield, askAboutPlan, checkPlan, resolveRules, type RuleInput } from '../../runtime/shield/index.js';
import { HOME_RULES, ROOMS, SUPPORT_EVENTS, SUPPORT_RULES, SUPPORT_TOOLS } from './rulesets.js';

/** Deterministic PRNG so the sampled prefixes are stable. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * Reference answer, independent of the shield's automata: is there a continuation of at most
 * `depth` single events after which the whole trace satisfies every rule?
 */
const resolved = new WeakMap<RuleInput[], LtlNode[]>();
function satisfiableAfter(rules: RuleInput[], trace: string[][], letters: string[][], depth: number): boolean {
  let formulas = resolved.get(rules);
  if (!formulas) resolved.set(rules, (formulas = resolveRules(rules).map((r) => r.formula)));
  const fs = formulas;
  const search = (w: string[][], d: number): boolean =>
    fs.every((f) => holds(f, w)) || (d > 0 && letters.some((l) => search([...w, l], d - 1)));
  return search(trace, depth);
}

function soundAndComplete(rules: RuleInput[], tools: readonly string[], events: readonly string[], seed: number, samples: number) {
  const letters = [[], ...tools.map((t) => [`call:${t}`]), ...events.map((e) => [e])];
  const rnd = lcg(seed);
  let blocked = 0;
  let allowed = 0;
  for (let i = 0; i < samples; i++) {
    const shield = new Shield(rules, { tools });
    const trace: string[][] = [];
    const len = Math.floor(rnd() * 5);
    for (let k = 0; k < len; k++) {
      // Mostly follow the shield (realistic sessions), sometimes record anything.
      const options = rnd() < 0.8 ? letters.filter((l) => shield.checkEvent(l).allowed) : letters;
      const l = options[Math.floor(rnd() * options.length)] ?? [];
      shield.observe(l);
      trace.push(l);
    }
    for (const tool of tools) {
      const d = shield.check(tool);
      const truth = satisfiableAfter(rules, [...trace, [`call:${tool}`]], letters, 3);
      expect({ trace, tool, allowed: d.allowed }).toEqual({ trace, tool, allowed: truth });
      if (d.allowed) allowed++;
      else {
        blocked++;
        // The explanation names every rule that on its own can no longer be met.
        for (const r of resolveRules(rules)) {
          if (!satisfiableAfter([{ name: r.name, ltl: r.formula }], [...trace, [`call:${tool}`]], letters, 3)) {
            expect(d.reason).toContain(`"${r.name}"`);
            expect(d.breaches.map((b) => b.rule)).toContain(r.name);
          }
        }
        expect(d.breaches.length).toBeGreaterThan(0);
      }
    }
  }
  return { blocked, allowed };
}

describe('shield soundness and completeness against the monitor', () => {
  it('VirtualHome room rules: every unsafe walk blocked, no safe walk blocked', () => {
    const { blocked, allowed } = soundAndComplete(HOME_RULES, ROOMS, [], 7, 40);
    expect(blocked).toBeGreaterThan(10);
    expect(allowed).toBeGreaterThan(10);
  });
  it('customer-support rules: every unsafe call blocked, no safe call blocked', () => {
    const { blocked, allowed } = soundAndComplete(SUPPORT_RULES, SUPPORT_TOOLS, SUPPORT_EVENTS, 11, 25);
    expect(blocked).toBeGreaterThan(10);
    expect(allowed).toBeGreaterThan(10);
  });
});

describe('shield decisions and explanations', () => {
  it('blocks a refund before verification and names the rule in English', () => {
    const shield = new Shield(SUPPORT_RULES, { tools: SUPPORT_TOOLS });
    expect(shield.allowedTools()).toEqual(['lookup_order', 'verify_identity', 'send_email', 'close_ticket']);
    const d = shield.guard({ tool: 'refund', args: { order: 1 } });
    expect(d.allowed).toBe(false);
    expect(d.reason).toBe('call refund is blocked: rule "verify-before-refund" (call:refund only after result:verified) forbids it');
    expect(shield.trace).toEqual([]); // denied calls are not recorded
    expect(shield.guard('verify_identity').allowed).toBe(true);
    shield.observe(['result:verified']);
    expect(shield.guard('refund').allowed).toBe(true);
    expect(shield.status()).toMatchObject({ satisfied: false, pending: [{ rule: 'email-after-refund' }] });
    const again = shield.check('refund');
    expect(again.allowed).toBe(false);
    expect(again.breaches.map((b) => b.rule)).toEqual(['single-refund']);
    expect(shield.check('close_ticket').breaches.map((b) => b.rule)).toEqual(['email-after-refund', 'close-last']);
    expect(shield.check('close_ticket').reason).toContain('can no longer all be satisfied together');
    expect(shield.guard('send_email').allowed).toBe(true);
    expect(shield.check('send_email').breaches.map((b) => b.rule)).toEqual(['no-double-email']);
    expect(shield.check('delete_account').reason).toContain('"no-deletion" (call:delete_account never happens)');
    expect(shield.status().satisfied).toBe(true);
  });

  it('explains a denial caused only by the combination of rules', () => {
    const shield = new Shield(HOME_RULES, { tools: ROOMS });
    shield.guard('bedroom');
    shield.guard('kitchen');
    const d = shield.check('living_room');
    expect(d.allowed).toBe(false);
    expect(d.reason).toMatch(/can no longer all be satisfied together/);
    expect(d.reason).toContain('"kitchen-once"');
  });

  it('rules written as LTL text and rule errors', () => {
    const shield = new Shield(['G ("call:a" -> F "call:b")', 'call:c never happens']);
    expect(shield.rules.map((r) => r.description)).toEqual(['every call:a is followed by call:b', 'call:c never happens']);
    expect(() => new Shield([{ name: 'x', ltl: 'G (' }])).toThrow(/rule 'x': cannot parse LTL/);
    expect(() => new Shield([{ name: 'x', english: 'please be careful' }])).toThrow(/rule 'x': cannot translate "please be careful"/);
    // Everyday English over written names; words that name nothing known are refused.
    const everyday = new Shield(['never call:refund before call:verify', { name: 'y', english: 'do not call:delete more than once' }]);
    expect(everyday.rules.map((r) => r.ltl)).toEqual(['!"call:refund" W "call:verify"', '!F ("call:delete" & X F "call:delete")']);
    expect(everyday.check('refund').allowed).toBe(false);
    expect(() => new Shield(['never enter the garage'])).toThrow(/by words, not by proposition/);
  });
});

describe('checkPlan and questions about a plan', () => {
  const homeRules: RuleInput[] = [
    { name: 'living-room-first', english: 'call:bathroom only after call:living_room' },
    { name: 'bedroom-first', english: 'call:living_room only after call:bedroom' },
  ];
  it('finds the first violating step and why', () => {
    const r = checkPlan(homeRules, ['kitchen', 'living_room', 'bathroom']);
    expect(r.ok).toBe(false);
    expect(r.firstViolation?.index).toBe(1);
    expect(r.explanation).toBe('step 2 (living_room) is blocked: rule "bedroom-first" (call:living_room only after call:bedroom) forbids it');
    expect(checkPlan(homeRules, ['bedroom', 'living_room', 'bathroom']).ok).toBe(true);
    const pending = checkPlan(SUPPORT_RULES, ['verify_identity', { labels: ['result:verified'] }, 'refund']);
    expect(pending.ok).toBe(false);
    expect(pending.firstViolation).toBeUndefined();
    expect(pending.unmetAtEnd.map((u) => u.rule)).toEqual(['email-after-refund']);
  });
  it('answers "will you go to the kitchen before the bathroom?"', () => {
    const labelCall = (c: { tool: string }) => [c.tool];
    const yes = askAboutPlan('Will you go to the kitchen before the bathroom?', ['bedroom', 'kitchen', 'bathroom'], { labelCall });
    expect(yes.answer).toBe(true);
    const no = askAboutPlan('Will you go to the kitchen before the bathroom?', ['bedroom', 'bathroom', 'kitchen'], { labelCall });
    expect(no).toMatchObject({ answer: false, explanation: 'no: step 2 (bathroom) makes "kitchen happens and no bathroom happens before it" impossible' });
    const never = askAboutPlan('will you go to the kitchen before the bathroom', ['bedroom'], { labelCall });
    expect(never.answer).toBe(false);
    expect(never.explanation).toMatch(/ends before/);
  });
});
