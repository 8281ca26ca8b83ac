/**
 * The offline English → LTL translator for everyday constraint sentences ("you have to enter the
 * living room before the bathroom", "never turn on the oven twice in a row"): deterministic, no
 * model. Pattern-library sentences keep their documented meaning and are tried first; everything
 * else is cut into segments (sentences, `;`), each read by its form (forms.ts) and grounded to the
 * caller's vocabulary, and the segments are conjoined — as the Safety Chip paper composes its
 * constraint segments. Every translation carries a paraphrase generated back from the LTL alone
 * (`explainLtl`), for the person to confirm (the paper's belief confirmation).
 */
import { printLtl } from '../../ltl/print.js';
import type { LtlNode } from '../../ltl/syntax.js';
import { englishToLtl, explainLtl } from '../patterns.js';
import type { Grounding } from './ground.js';
import { vocabulary as makeVocabulary } from './ground.js';
import { type EventScope } from './event.js';
import { type Form, FormError, readSentence } from './forms.js';
import { expandContractions, segments, tokenize } from './words.js';
import { ltlAtoms } from '../../ltl/atoms.js';

export type { Form } from './forms.js';
export type { Grounding } from './ground.js';

export interface EnglishOptions {
  /** The propositions a rule may use; phrases must ground to one of them. Without it, phrases become identifiers. */
  readonly vocabulary?: readonly string[];
}

export interface EnglishTranslation {
  readonly input: string;
  readonly formula: LtlNode;
  /** Spot syntax. */
  readonly ltl: string;
  /** The LTL read back into English (from the formula, not the input): confirm it before use. */
  readonly english: string;
  /** `pattern`: a pattern-library sentence; `english`: read by the everyday-English forms. */
  readonly via: 'pattern' | 'english';
  /** The form of each segment, in order. */
  readonly forms: readonly Form[];
  readonly groundings: readonly Grounding[];
}

/** Examples of each form, named in errors as the closest supported form. */
export const FORM_EXAMPLES: Readonly<Record<Form, readonly string[]>> = {
  ordering: ['A before B', 'do not B until A', 'B only after A', 'never B before A'],
  prohibition: ['never A', 'do not A', 'A is forbidden'],
  obligation: ['you must A', 'always A', 'A at least once'],
  response: ['if A then B', 'whenever A, B in the next step', 'A means you have to B later', 'after A, never B'],
  counting: ['A at most N times', 'A at least N times', 'never A N times in a row'],
};

export class EnglishError extends Error {
  constructor(
    message: string,
    readonly sentence: string,
    /** The form the sentence looked closest to, when it failed on form (not on a name). */
    readonly closestForm: Form | undefined,
    /** Vocabulary entries close to a phrase that did not ground. */
    readonly suggestions: readonly string[],
    /** The phrase the error is about, as read (for pointing at it in the input). */
    readonly phrase?: string,
  ) {
    super(message);
    this.name = 'EnglishError';
  }
}

const PATTERN_FORM: Readonly<Record<string, Form>> = {
  absence: 'prohibition',
  existence: 'obligation',
  universality: 'obligation',
  precedence: 'ordering',
  'precedence-chain': 'ordering',
  'existence-before': 'ordering',
  response: 'response',
  'response-chain': 'response',
  'bounded-response': 'response',
  'next-response': 'response',
  'not-next': 'response',
  until: 'ordering',
  'at-most': 'counting',
  'at-least': 'counting',
  'no-repeat': 'counting',
  'no-run': 'counting',
};

/** The form a sentence that could not be read most resembles, from its connectives. */
export function closestForm(sentence: string): Form {
  const s = ` ${sentence.toLowerCase()} `;
  if (/\b(times?|once|twice|thrice|at most|at least|in a row)\b/.test(s)) return 'counting';
  if (/\b(if|when|whenever|then|means|implies|every time|each time|followed|afterwards?|later|next)\b/.test(s)) return 'response';
  if (/\b(before|until|till|unless|only after|after|prior)\b/.test(s)) return 'ordering';
  if (/\b(never|not|no|avoid|forbidden|prohibited|don't)\b/.test(s)) return 'prohibition';
  return 'obligation';
}

function finish(input: string, formula: LtlNode, via: EnglishTranslation['via'], forms: Form[], groundings: Grounding[]): EnglishTranslation {
  return { input, formula, ltl: printLtl(formula), english: explainLtl(formula), via, forms, groundings };
}

/** Translate one constraint text (one or more sentences) to LTL; throws `EnglishError`. */
export function translateConstraint(input: string, options: EnglishOptions = {}): EnglishTranslation {
  const text = input.trim();
  if (text === '') throw new EnglishError('the constraint is empty', input, undefined, []);
  const vocab = options.vocabulary && options.vocabulary.length > 0 ? makeVocabulary(options.vocabulary) : undefined;

  // A pattern-library sentence over known names keeps its documented meaning.
  const pattern = englishToLtl(text);
  if (pattern && (!vocab || [...ltlAtoms(pattern.ltl, new Set())].every((a) => vocab.names.includes(a)))) {
    const slots = [pattern.slots.p, pattern.slots.s, pattern.slots.t, pattern.slots.q, pattern.slots.r].filter((x): x is string => x !== undefined);
    return finish(input, pattern.ltl, 'pattern', [PATTERN_FORM[pattern.pattern] ?? 'obligation'], slots.map((s) => ({ phrase: s, proposition: s, how: 'verbatim' as const })));
  }

  const scope: EventScope = { vocab, groundings: [] };
  const parts: LtlNode[] = [];
  const forms: Form[] = [];
  for (const segment of segments(expandContractions(text))) {
    const tokens = tokenize(segment);
    if (tokens.length === 0) continue;
    try {
      const r = readSentence(tokens, scope);
      parts.push(r.formula);
      forms.push(r.form);
    } catch (e) {
      if (!(e instanceof FormError)) throw e;
      const grounding = e.suggestions.length > 0 || /does not name|not a known proposition|ambiguous|refers to nothing|names no/.test(e.message);
      const form = grounding ? undefined : (e.form ?? closestForm(segment));
      const hint = form ? ` Closest supported form: ${form} — ${FORM_EXAMPLES[form].map((x) => `"${x}"`).join(', ')}.` : '';
      const phrase = /^"([^"]+)"/.exec(e.message)?.[1];
      throw new EnglishError(`cannot translate "${segment}": ${e.message.replace(/\.+$/, '')}.${hint}`, segment, form, e.suggestions, phrase);
    }
  }
  if (parts.length === 0) throw new EnglishError('the constraint has no words', input, undefined, []);
  const formula: LtlNode = parts.length === 1 ? parts[0] : { op: '&', args: parts };
  return finish(input, formula, 'english', forms, scope.groundings);
}
