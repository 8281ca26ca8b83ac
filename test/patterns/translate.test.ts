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

  it('lifts, translates and grounds free text, and shows LTL plus back-translation', async () => {
    const model = scriptedModel(['living room\nbathroom', 'p2 only after p1']);
    const t = await translateEnglish('You have to enter the living room before you use the bathroom', {
      model,
      propositions: ['at:living_room', 'at:bathroom', 'at:kitchen'],
    });
    expect(t.lifted).toBe('You have to enter the p1 before you use the p2');
    expect(t.expressions.map((e) => e.proposition)).toEqual(['at:living_room', 'at:bathroom']);
    expect(t.ltl).toBe('!"at:bathroom" W "at:living_room"');
    expect(t.english).toBe('at:bathroom only after at:living_room');
    const shown = formatTranslation(t);
    expect(shown).toContain('LTL:     !"at:bathroom" W "at:living_room"');
    expect(shown).toContain('LLM translation');
  });

  it('works with an AI SDK model and rejects unsatisfiable or unparsable answers', async () => {
    const answers = ['payment\nconfirmation', '```\nG(p1 -> F p2)\n```'];
    const mock = new MockLanguageModelV3({ doGenerate: async () => reply(answers.shift() ?? '') });
    const ok = await translateEnglish('every payment needs a confirmation later', { model: fromAiSdk(mock) });
    expect(ok.ltl).toBe('G (payment -> F confirmation)');
    expect(ok.english).toBe('every payment is followed by confirmation');

    const bad = scriptedModel(['payment', 'G p1 & F !p1']);
    await expect(translateEnglish('payment forever and not forever', { model: bad })).rejects.toThrow(/can never be satisfied/);
    const garbage = scriptedModel(['payment', 'G (p1 ->']);
    const err = await translateEnglish('payment stuff', { model: garbage }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranslationError);
    expect((err as TranslationError).ltl).toBe('G (p1 ->');
    await expect(translateEnglish('do good things')).rejects.toThrow(/no model/);
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
