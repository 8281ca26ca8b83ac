import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromAiSdk } from '../../runtime/llm/index.js';
import { run as explainLtl } from '../../src/cli/commands/explain-ltl.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { TranslationError, formatTranslation, translateEnglish } from '../../src/patterns/index.js';
import { scriptedModel } from '../agent/helpers.js';

function reply(text: string) {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
    warnings: [],
  };
}

describe('LLM translator (lift, translate, ground)', () => {
  it('pattern sentences never reach the model', async () => {
    const model = scriptedModel([]);
    const t = await translateEnglish('call:refund only after result:verified', { model });
    expect(t.via).toBe('pattern');
    expect(t.ltl).toBe('!"call:refund" W "result:verified"');
    expect(model.requests).toHaveLength(0);
  });

  it('everyday sentences are translated offline and never reach the model', async () => {
    const model = scriptedModel([]);
    const t = await translateEnglish('You have to enter the living room before you use the bathroom', {
      model,
      propositions: ['at:living_room', 'at:bathroom', 'at:kitchen'],
    });
    expect(t.via).toBe('english');
    expect(t.ltl).toBe('!"at:bathroom" W "at:living_room"');
    expect(t.english).toBe('at:bathroom only after at:living_room');
    expect(model.requests).toHaveLength(0);
    expect(formatTranslation(t)).toContain('English forms (deterministic, offline)');
  });

  it('lifts, translates, grounds and verifies what the offline translator cannot read', async () => {
    const model = scriptedModel(['living room\nbathroom', 'p2 only after p1']);
    const t = await translateEnglish('the bathroom is reserved for after the living room', {
      model,
      propositions: ['at:living_room', 'at:bathroom', 'at:kitchen'],
    });
    expect(model.requests).toHaveLength(2);
    expect(t.via).toBe('llm');
    expect(t.offlineError).toMatch(/cannot translate/);
    expect(t.lifted).toBe('the p2 is reserved for after the p1');
    expect(t.expressions.map((e) => e.proposition)).toEqual(['at:living_room', 'at:bathroom']);
    expect(t.ltl).toBe('!"at:bathroom" W "at:living_room"');
    expect(t.english).toBe('at:bathroom only after at:living_room');
    const shown = formatTranslation(t);
    expect(shown).toContain('LTL:     !"at:bathroom" W "at:living_room"');
    expect(shown).toContain('LLM translation');
  });

  it('works with an AI SDK model and rejects unsatisfiable, unparsable or ungrounded answers', async () => {
    const answers = ['payment\nconfirmation', '```\nG(p1 -> F p2)\n```'];
    const mock = new MockLanguageModelV3({ doGenerate: async () => reply(answers.shift() ?? '') });
    const ok = await translateEnglish('payments and confirmations must alternate', { model: fromAiSdk(mock) });
    expect(ok.via).toBe('llm');
    expect(ok.ltl).toBe('G (payment -> F confirmation)');
    expect(ok.english).toBe('every payment is followed by confirmation');

    const bad = scriptedModel(['payment', 'G p1 & F !p1']);
    await expect(translateEnglish('payment forever and not forever', { model: bad })).rejects.toThrow(/can never be satisfied/);
    const garbage = scriptedModel(['payment', 'G (p1 ->']);
    const err = await translateEnglish('payment stuff', { model: garbage }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranslationError);
    expect((err as TranslationError).ltl).toBe('G (p1 ->');
    // The model may only use the placeholders it was given.
    const inventive = scriptedModel(['payment', 'G (p1 -> F refund)']);
    await expect(translateEnglish('payment stuff', { model: inventive })).rejects.toThrow(/not given: refund/);
    // Grounding is the offline one: a phrase that names no proposition is an error with the closest.
    const far = scriptedModel(['bathrom', 'F p1']);
    await expect(translateEnglish('the bathrom matters somehow', { model: far, propositions: ['bathroom', 'kitchen'] })).rejects.toThrow(/closest: 'bathroom'/);
    await expect(translateEnglish('do good things')).rejects.toThrow(/cannot translate "do good things".*Closest supported form: obligation/);
  });
});

describe('tslc explain-ltl', () => {
  const out: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    out.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });

  it('prints English for a formula and LTL for a sentence', async () => {
    capture();
    expect(await explainLtl({ text: 'G("call:pay" -> F "call:confirm")' })).toBe(0);
    expect(out.join('')).toBe('every call:pay is followed by call:confirm\n');
    out.length = 0;
    expect(await explainLtl({ text: 'call:x never happens twice in a row', english: true })).toBe(0);
    expect(out.join('')).toBe('G ("call:x" -> !X "call:x")\n  reads back as: call:x never happens twice in a row\n');
    out.length = 0;
    expect(await explainLtl({ patterns: true, json: true })).toBe(0);
    expect(JSON.parse(out.join('')).length).toBeGreaterThanOrEqual(11);
  });

  it('syntax errors are diagnostics with a column, not stack traces', async () => {
    const err = await explainLtl({ text: 'G (a -> ' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    const d = (err as UserError).diagnostics[0];
    expect(d.span).toMatchObject({ file: '<formula>', line: 1 });
    expect(d.span!.col).toBeGreaterThan(1);
    await expect(explainLtl({ text: 'be nice', english: true })).rejects.toBeInstanceOf(UserError);
  });
});
