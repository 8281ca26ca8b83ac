/**
 * The English sentence set (test/fixtures/english/sentences.json): every sentence translates to a
 * formula equivalent to its hand-written one, over infinite and over finite traces, and its
 * paraphrase reads back to the same formula; sentences marked unsupported must give an error,
 * never a formula. Prints the per-form table that docs/agents-shields.md quotes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { EnglishError, translateConstraint } from '../../runtime/shield/index.js';
import { englishToLtl } from '../../runtime/shield/patterns.js';
import { equivalentInfinite, finiteDifference } from './equivalence.js';

interface Entry {
  readonly sentence: string;
  readonly props: string | readonly string[];
  readonly ltl: string;
  readonly form: string;
  readonly source?: string;
  readonly expect?: 'unsupported';
  readonly batch?: 'held-out';
}
const data = JSON.parse(readFileSync(new URL('../fixtures/english/sentences.json', import.meta.url), 'utf8')) as {
  vocabularies: Record<string, string[]>;
  sentences: Entry[];
};
const propsOf = (e: Entry) => (typeof e.props === 'string' ? data.vocabularies[e.props] : e.props);

type Outcome = { ok: true } | { ok: false; why: string };

function check(e: Entry): Outcome {
  let t;
  try {
    t = translateConstraint(e.sentence, { vocabulary: propsOf(e) });
  } catch (err) {
    if (err instanceof EnglishError) return { ok: false, why: `error: ${err.message}` };
    throw err;
  }
  const expected = parseLtl(e.ltl);
  if (!equivalentInfinite(t.formula, expected)) return { ok: false, why: `got ${t.ltl} (not equivalent over infinite traces)` };
  const diff = finiteDifference(t.formula, expected);
  if (diff) return { ok: false, why: `got ${t.ltl} (differs on the finite trace ${JSON.stringify(diff)})` };
  return { ok: true };
}

describe('the English sentence set', () => {
  const results = data.sentences.map((e) => ({ e, r: check(e) }));

  it('has at least 60 sentences, several per form, some from the paper', () => {
    expect(data.sentences.length).toBeGreaterThanOrEqual(60);
    for (const form of ['ordering', 'prohibition', 'obligation', 'response', 'counting']) {
      expect(data.sentences.filter((s) => s.form === form).length).toBeGreaterThanOrEqual(8);
    }
    expect(data.sentences.filter((s) => s.source === 'paper').length).toBeGreaterThanOrEqual(10);
  });

  for (const { e, r } of results) {
    it(`${e.form}: ${e.sentence}`, () => {
      if (e.expect === 'unsupported') {
        // Known not to be read: it must say so, never produce a formula.
        expect(r.ok === false && r.why.startsWith('error:')).toBe(true);
      } else {
        expect(r).toEqual({ ok: true });
      }
    });
  }

  it('the equivalence check has teeth: weak and strong order differ, rewritings agree', () => {
    expect(equivalentInfinite(parseLtl('!b W a'), parseLtl('!b U a'))).toBe(false);
    expect(finiteDifference(parseLtl('!b W a'), parseLtl('!b U a'))).toEqual([[]]);
    expect(equivalentInfinite(parseLtl('G (a -> !X F a)'), parseLtl('!F (a & X F a)'))).toBe(true);
    expect(finiteDifference(parseLtl('G (a -> !X F a)'), parseLtl('!F (a & X F a)'))).toBeUndefined();
    // Strong next differs from weak next only at the end of a finite trace.
    expect(equivalentInfinite(parseLtl('G (a -> X !b)'), parseLtl('G (a -> !X b)'))).toBe(true);
    expect(finiteDifference(parseLtl('G (a -> X !b)'), parseLtl('G (a -> !X b)'))).toEqual([['a']]);
  });

  it('every paraphrase is a sentence that reads back to the same formula', () => {
    for (const e of data.sentences) {
      if (e.expect) continue;
      const t = translateConstraint(e.sentence, { vocabulary: propsOf(e) });
      // The paraphrase is made from the formula alone; where it is a pattern sentence (or a
      // conjunction of them) it must compile back to an equivalent formula.
      const parts = t.english.split('; and ');
      const back = parts.map((p) => englishToLtl(p)?.ltl);
      if (back.every((b) => b !== undefined)) {
        const f = back.length === 1 ? back[0]! : { op: '&' as const, args: back.map((b) => b!) };
        expect(equivalentInfinite(f, t.formula), `${e.sentence} → ${t.english}`).toBe(true);
      }
    }
  });

  it('per-form table', () => {
    const forms = ['ordering', 'prohibition', 'obligation', 'response', 'counting'];
    const row = (form: string, all: typeof results) => {
      const held = all.filter(({ e }) => e.batch === 'held-out');
      const paper = all.filter(({ e }) => e.source === 'paper');
      const ok = (xs: typeof results) => xs.filter(({ r }) => r.ok).length;
      return `| ${form} | ${ok(all)} / ${all.length} | ${ok(paper)} / ${paper.length} | ${ok(held)} / ${held.length} |`;
    };
    const lines = [
      '| form | translated correctly | of them from the paper | of them held out |',
      '|---|---|---|---|',
      ...forms.map((form) => row(form, results.filter(({ e }) => e.form === form))),
      row('all', results),
    ];
    console.log(lines.join('\n'));
    const failures = results.filter(({ e, r }) => !r.ok && !e.expect).map(({ e, r }) => `${e.sentence}: ${(r as { why: string }).why}`);
    expect(failures).toEqual([]);
  });
});
