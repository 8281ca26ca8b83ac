import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import { LtlfDfa } from '../../runtime/shield/dfa.js';
import { englishToLtl, explainLtl, matchPattern, patternCatalogue, compileEnglish } from '../../src/patterns/index.js';
import { holds } from './ltlf.js';

/** "p,s | - | q": one step per `|`, `-` = nothing true. */
function trace(text: string): string[][] {
  return text.split('|').map((st) => st.trim()).map((st) => (st === '-' ? [] : st.split(',').map((x) => x.trim())));
}

/** [sentence, positive traces, negative traces] — traces written by hand from the English. */
const CASES: [string, string[], string[]][] = [
  ['p never happens', ['- | s'], ['- | p']],
  ['p never happens before r', ['p', 'r | p'], ['p | r']],
  ['p never happens after q', ['p | q'], ['q | - | p']],
  ['p never happens between q and r', ['q | r | p', 'q | p'], ['q | p | r']],
  ['p never happens after q until r', ['q | r | p'], ['q | p', 'q | p | r']],
  ['p eventually happens', ['- | p'], ['- | s']],
  ['p eventually happens before r', ['p | r', '-'], ['r', '- | r | p']],
  ['p eventually happens after q', ['-', 'q | p'], ['q', 'p | q']],
  ['p eventually happens between q and r', ['q | p | r', 'q'], ['q | r']],
  ['p eventually happens after q until r', ['q | p | r', 'q | p'], ['q', 'q | r']],
  ['p always holds', ['p | p'], ['p | -']],
  ['p always holds before r', ['p | r | -', '-'], ['p | - | r']],
  ['p always holds after q', ['- | q,p | p'], ['q,p | -']],
  ['p always holds between q and r', ['q,p | r', 'q | -'], ['q | - | r']],
  ['p always holds after q until r', ['q,p | p | r | -'], ['q,p | - | r', 'q | r']],
  ['p only after s', ['s | p', '-'], ['p | s']],
  ['p only after s before r', ['s | p | r', 'p'], ['p | r']],
  ['p only after s after q', ['p | q | s | p'], ['q | p']],
  ['p only after s between q and r', ['q | s | p | r'], ['q | p | r']],
  ['p only after s after q until r', ['q | s | p', 'q | r | p'], ['q | p']],
  ['every p is followed by s', ['p | s', '-'], ['s | p']],
  ['every p is followed by s before r', ['p | s | r'], ['p | r | s']],
  ['every p is followed by s after q', ['p | q'], ['q | p']],
  ['every p is followed by s between q and r', ['q | p | s | r'], ['q | p | r']],
  ['every p is followed by s after q until r', ['q | p | s | r', 'q | p | s'], ['q | p | r', 'q | p']],
  ['s happens and no p happens before it', ['s | p', 's'], ['p | s', '-']],
  ['every p is immediately followed by s', ['p | s | -', '-'], ['p | - | s', 'p']],
  ['s never happens right after p', ['p | - | s', 'p'], ['p | s']],
  ['p holds until s', ['p | p | s | -', 'p | p'], ['p | - | s']],
  ['p happens at least 2 times', ['p | - | p'], ['p | -', '-']],
  ['p never happens 3 times in a row', ['p | p | - | p | p'], ['- | p | p | p']],
  ['every p is followed by s and then t', ['p | s | t'], ['p | t | s']],
  ['p only after s and then t', ['s | t | p', '-'], ['s | p | t', 'p']],
  ['p happens at most 2 times', ['p | - | p'], ['p | p | p']],
  ['every p is followed by s within 2 steps', ['p | - | s'], ['p | - | - | s', 'p | -']],
  ['p never happens twice in a row', ['p | - | p'], ['p | p']],
];

describe('pattern library', () => {
  it('covers every pattern of the catalogue', () => {
    const ids = new Set(CASES.map(([s]) => englishToLtl(s)?.pattern));
    for (const p of patternCatalogue()) expect(ids).toContain(p.id);
  });

  for (const [sentence, pos, neg] of CASES) {
    it(`"${sentence}" round-trips and matches hand-written traces`, () => {
      const inst = englishToLtl(sentence);
      expect(inst, sentence).toBeDefined();
      const ltl = inst!.ltl;
      // English → LTL → English gives the sentence back; and via printed text as the CLI reads it.
      expect(explainLtl(ltl)).toBe(sentence);
      expect(explainLtl(parseLtl(printLtl(ltl)))).toBe(sentence);
      expect(printLtl(englishToLtl(explainLtl(ltl))!.ltl)).toBe(printLtl(ltl));
      for (const t of pos) expect(holds(ltl, trace(t)), `${t} should satisfy ${printLtl(ltl)}`).toBe(true);
      for (const t of neg) expect(holds(ltl, trace(t)), `${t} should violate ${printLtl(ltl)}`).toBe(false);
      // The shield's automaton agrees with the direct semantics on the same traces.
      const dfa = new LtlfDfa(ltl);
      for (const t of [...pos, ...neg]) expect(dfa.accepting(dfa.run(trace(t).map((l) => new Set(l))))).toBe(holds(ltl, trace(t)));
    });
  }

  it('accepts aliases, quoted names and tool-call propositions', () => {
    const canonical = printLtl(compileEnglish('call:refund only after result:verified').ltl);
    expect(canonical).toBe('!"call:refund" W "result:verified"');
    expect(printLtl(compileEnglish('result:verified must precede call:refund').ltl)).toBe(canonical);
    expect(printLtl(compileEnglish('Never call:delete.').ltl)).toBe('G !"call:delete"');
    expect(printLtl(compileEnglish('"walk to kitchen" never happens').ltl)).toBe('G !"walk to kitchen"');
    expect(compileEnglish('"walk to kitchen" never happens').english).toBe('"walk to kitchen" never happens');
    expect(() => compileEnglish('be nice to users')).toThrow(/no pattern matches/);
    expect(englishToLtl('p happens at most 0 times')).toBeUndefined();
  });

  it('explains formulas that are not patterns compositionally', () => {
    expect(explainLtl('G (a -> X (b | c)) & F c')).toBe('always (if a then (at the next step, (b or c))); and c eventually happens');
    expect(explainLtl('a U b')).toBe('a until b, which must eventually happen');
    expect(matchPattern(parseLtl('G (a -> F a)'))).toBeUndefined(); // slots must be distinct
    expect(explainLtl('G(x -> F y) & G !z')).toBe('every x is followed by y; and z never happens');
  });
});
