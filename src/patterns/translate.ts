/**
 * The optional LLM translator for free-text rules, in the style of Lang2LTL: (1) lift the
 * referring expressions out of the sentence into placeholders, (2) translate the lifted sentence
 * into LTL, (3) ground the placeholders to the caller's propositions. Sentences the pattern
 * library understands never reach the model. The result always carries its LTL and an English
 * back-translation, and it is rejected unless it parses and is satisfiable (finite-trace
 * semantics, as shields use), because a mistranslated rule that nothing can satisfy would block
 * every action.
 */
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import type { Model } from '../../runtime/llm/model.js';
import { satisfiableLtlf } from '../../runtime/shield/dfa.js';
import { englishToLtl, explainLtl } from '../../runtime/shield/patterns.js';

export interface TranslateOptions {
  readonly model?: Model;
  /** Propositions the rule may use (tool calls, events); grounding maps phrases onto these. */
  readonly propositions?: readonly string[];
}

export interface ReferringExpression {
  readonly text: string;
  readonly placeholder: string;
  readonly proposition: string;
}

export interface Translation {
  readonly input: string;
  readonly via: 'pattern' | 'llm';
  /** The sentence with referring expressions replaced by placeholders (LLM path). */
  readonly lifted?: string;
  readonly expressions: readonly ReferringExpression[];
  readonly formula: LtlNode;
  readonly ltl: string;
  /** Back-translation of the LTL, for the person to confirm. */
  readonly english: string;
  readonly satisfiable: true;
}

export class TranslationError extends Error {
  constructor(
    message: string,
    /** The LTL the model produced, when there was one: always shown, never hidden. */
    readonly ltl?: string,
  ) {
    super(message);
    this.name = 'TranslationError';
  }
}

/** Placeholder names: plain identifiers that are neither LTL operators nor pattern keywords. */
const PLACEHOLDERS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'];

function stripFences(text: string): string {
  return text
    .trim()
    .replace(/^```[a-z]*\s*/i, '')
    .replace(/```$/, '')
    .replace(/^(LTL|Formula)\s*:\s*/i, '')
    .trim();
}

function identifierFor(phrase: string): string {
  return phrase
    .trim()
    .toLowerCase()
    .replace(/^(the|a|an)\s+/, '')
    .replace(/[^a-z0-9:]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Ground one phrase: an exact or normalised match among the known propositions, else an identifier. */
function ground(phrase: string, propositions: readonly string[] | undefined): string {
  const id = identifierFor(phrase);
  if (!propositions || propositions.length === 0) return id;
  const norm = (p: string) => p.toLowerCase().replace(/[^a-z0-9]+/g, '');
  const exact = propositions.find((p) => p === phrase || norm(p) === norm(phrase));
  if (exact) return exact;
  const suffix = propositions.filter((p) => norm(p).endsWith(norm(id)) || norm(id).endsWith(norm(p.replace(/^[a-z]+:/, ''))));
  if (suffix.length === 1) return suffix[0];
  throw new TranslationError(`cannot ground "${phrase}" to one of the known propositions (${propositions.join(', ')})`);
}

function substitute(n: LtlNode, map: ReadonlyMap<string, string>): LtlNode {
  switch (n.op) {
    case 'ap':
      return { op: 'ap', name: map.get(n.name) ?? n.name };
    case 'true':
    case 'false':
      return n;
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return { op: n.op, arg: substitute(n.arg, map) };
    case '&':
    case '|':
      return { op: n.op, args: n.args.map((a) => substitute(a, map)) };
    default:
      return { op: n.op, left: substitute(n.left, map), right: substitute(n.right, map) };
  }
}

function finish(input: string, via: Translation['via'], formula: LtlNode, expressions: ReferringExpression[], lifted?: string): Translation {
  const ltl = printLtl(formula);
  if (!satisfiableLtlf(formula)) throw new TranslationError(`the translation ${ltl} can never be satisfied`, ltl);
  return { input, via, ...(lifted !== undefined ? { lifted } : {}), expressions, formula, ltl, english: explainLtl(formula), satisfiable: true };
}

export async function translateEnglish(text: string, options: TranslateOptions = {}): Promise<Translation> {
  const pattern = englishToLtl(text);
  if (pattern) return finish(text, 'pattern', pattern.ltl, []);
  const model = options.model;
  if (!model) throw new TranslationError(`"${text}" is not a pattern sentence, and no model was given to translate free text`);

  // 1. Lift referring expressions.
  const listed = await model.complete(
    [
      {
        role: 'system',
        content: 'List the referring expressions (actions, tools, places, objects, events) in the sentence, one per line, copied exactly. No other text.',
      },
      { role: 'user', content: text },
    ],
    { temperature: 0 },
  );
  const phrases = listed.text
    .split('\n')
    .map((l) => l.replace(/^[-*\d.)\s]+/, '').trim())
    .filter((l) => l.length > 0 && text.toLowerCase().includes(l.toLowerCase()))
    .slice(0, PLACEHOLDERS.length);
  // Placeholders follow the order the model listed the phrases in; substitution goes longest
  // first so "living room" is lifted before a shorter phrase inside it.
  const expressions: ReferringExpression[] = phrases.map((phrase, i) => ({
    text: phrase,
    placeholder: PLACEHOLDERS[i],
    proposition: ground(phrase, options.propositions),
  }));
  let lifted = text;
  for (const e of [...expressions].sort((x, y) => y.text.length - x.text.length)) {
    lifted = lifted.replace(new RegExp(e.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), e.placeholder);
  }

  // 2. Translate the lifted sentence.
  const answer = await model.complete(
    [
      {
        role: 'system',
        content:
          'Translate the sentence into one LTL formula in Spot syntax (G, F, X, U, W, !, &, |, ->) over the ' +
          `propositions ${expressions.map((e) => e.placeholder).join(', ') || '(none)'}. Reply with the formula only.`,
      },
      { role: 'user', content: lifted },
    ],
    { temperature: 0 },
  );
  const raw = stripFences(answer.text);
  let liftedFormula: LtlNode;
  const asPattern = englishToLtl(raw);
  if (asPattern) liftedFormula = asPattern.ltl;
  else {
    try {
      liftedFormula = parseLtl(raw);
    } catch (e) {
      const where = e instanceof LtlSyntaxError ? ` at column ${e.col}` : '';
      throw new TranslationError(`the model's answer is not LTL${where}: ${(e as Error).message}`, raw);
    }
  }
  // 3. Ground.
  const map = new Map(expressions.map((e) => [e.placeholder, e.proposition]));
  return finish(text, 'llm', substitute(liftedFormula, map), expressions, lifted);
}

/** The text a person should see before a translated rule is used. */
export function formatTranslation(t: Translation): string {
  const lines = [`input:   ${t.input}`];
  if (t.lifted !== undefined) lines.push(`lifted:  ${t.lifted}`);
  for (const e of t.expressions) lines.push(`ground:  ${e.placeholder} = "${e.text}" → ${e.proposition}`);
  lines.push(`LTL:     ${t.ltl}`, `English: ${t.english}`, `source:  ${t.via === 'pattern' ? 'pattern library (deterministic)' : 'LLM translation — check it'}`);
  return lines.join('\n');
}
