/**
 * English sentences as rules where no vocabulary is known (rules files, shield rules given as
 * strings): a pattern sentence, or an everyday constraint sentence whose propositions are all
 * written as names (`never call:refund before ok:verify_identity`). A phrase such as "enter the
 * garage" has nothing to be grounded to here, and a guessed name would make a rule that silently
 * never fires, so such a sentence is refused with the reason.
 */
import type { LtlNode } from '../../ltl/syntax.js';
import { englishToLtl } from '../patterns.js';
import { EnglishError, translateConstraint } from './translate.js';

export type EnglishRule = { readonly formula: LtlNode; readonly description: string } | { readonly error: string };

/** undefined: not English at all (text with LTL operators, whose own parse error says more). */
export function englishRule(text: string): EnglishRule | undefined {
  const sentence = text.replace(/\s+/g, ' ').trim();
  const description = sentence.replace(/\.$/, '');
  const inst = englishToLtl(sentence);
  if (inst) return { formula: inst.ltl, description };
  if (/[()&|!]|->/.test(sentence)) return undefined;
  let t;
  try {
    t = translateConstraint(sentence);
  } catch (e) {
    if (e instanceof EnglishError) return { error: e.message };
    throw e;
  }
  const guessed = t.groundings.filter((g) => g.how !== 'verbatim');
  if (guessed.length > 0) {
    return {
      error:
        `"${sentence}" names ${guessed.map((g) => `"${g.phrase}"`).join(', ')} by words, not by proposition; ` +
        `write the propositions (e.g. ${guessed.map((g) => g.proposition).join(', ')}) as they appear in the events`,
    };
  }
  return { formula: t.formula, description };
}
