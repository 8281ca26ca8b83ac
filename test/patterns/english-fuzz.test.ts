/**
 * The offline translator on word salad made of its own keywords and names: it either translates
 * or refuses with an `EnglishError` — never another exception — and with a vocabulary every
 * proposition of a translation comes from that vocabulary (no invented names).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { EnglishError, translateConstraint } from '../../runtime/shield/index.js';
import { ltlAtoms } from '../../runtime/ltl/atoms.js';

const VOCAB = ['living_room', 'bathroom', 'kitchen', 'call:refund', 'ok:verify_identity', 'turn_off_oven'];
const WORDS = [
  'never', 'not', 'do', "don't", 'always', 'must', 'may', 'only', 'after', 'before', 'until', 'if', 'when', 'whenever', 'then',
  'means', 'requires', 'followed', 'by', 'at', 'least', 'most', 'times', 'twice', 'once', 'in', 'a', 'row', 'next', 'step',
  'later', 'again', 'it', 'leave', 'close', 'go', 'to', 'the', 'enter', 'walk', 'into', 'living', 'room', 'bathroom', 'kitchen',
  'refund', 'call', 'verify', 'identity', 'succeeds', 'turn', 'off', 'oven', 'and', 'or', ',', '.', ';', 'you', 'have', 'been',
  'is', 'forbidden', 'within', '3', 'steps', 'first', 'every', 'time', 'exactly', 'more', 'than', '"quoted name"', 'garage',
];

describe('the English translator on word salad', () => {
  it('translates or refuses cleanly, and grounds only to the vocabulary', () => {
    let translated = 0;
    fc.assert(
      fc.property(
        fc.constantFrom('', 'never ', 'you must ', 'if you ', 'always ', 'do not '),
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (lead, words, withVocab) => {
          const sentence = lead + words.join(' ');
          try {
            const t = translateConstraint(sentence, withVocab ? { vocabulary: VOCAB } : {});
            translated++;
            if (withVocab) for (const a of ltlAtoms(t.formula, new Set())) expect(VOCAB, `${sentence} → ${t.ltl}`).toContain(a);
            expect(t.english.length).toBeGreaterThan(0);
          } catch (e) {
            if (!(e instanceof EnglishError)) throw e;
            expect(e.message).toMatch(/^(cannot translate|the constraint)/);
          }
        },
      ),
      { numRuns: 3000, seed: 21 },
    );
    // The salad must exercise the translating paths, not only the refusals.
    expect(translated).toBeGreaterThan(100);
  });
});
