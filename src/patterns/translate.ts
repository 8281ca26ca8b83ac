/**
 * English → LTL with an optional LLM behind the offline translator. Pattern-library sentences and
 * everyday constraint sentences are translated deterministically (runtime/shield/english) and
 * never reach a model. Only what that translator cannot read goes to the model, in the style of
 * Lang2LTL (the Safety Chip paper's translator): (1) lift the referring expressions out of the
 * sentence into placeholders, (2) translate the lifted sentence into LTL, (3) ground the
 * placeholders to the caller's propositions (the offline grounding: stems, movement verbs,
 * closest-match errors), (4) verify: the answer must parse, use only the placeholders it was
 * given, and be satisfiable (finite-trace semantics, as shields use) — a mistranslated rule that
 * nothing can satisfy would block every action. The result always carries its LTL and an English
 * back-translation made from the formula alone.
 */
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import type { Model } from '../../runtime/llm/model.js';
import { satisfiableLtlf } from '../../runtime/shield/dfa.js';
import { GroundingError, groundWords, vocabulary } from '../../runtime/shield/english/ground.js';
import { EnglishError, type Grounding, translateConstraint } from '../../runtime/shield/english/translate.js';
import { englishToLtl, explainLtl } from '../../runtime/shield/patterns.js';
import { ltlAtoms } from '../../runtime/ltl/atoms.js';

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
  /** `pattern` / `english`: the offline translator; `llm`: the model. */
  readonly via: 'pattern' | 'english' | 'llm';
  /** The sentence with referring expressions replaced by placeholders (LLM path). */
  readonly lifted?: string;
  readonly expressions: readonly ReferringExpression[];
  /** What each phrase became (offline translator). */
  readonly groundings: readonly Grounding[];
  /** Why the offline translator could not read the sentence (LLM path). */
  readonly offlineError?: string;
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
    /** The part of the input the error is about (offline translator), when known. */
    readonly phrase?: string,
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

/** Ground one lifted phrase with the offline grounding (an identifier of its words without a vocabulary). */
function ground(phrase: string, propositions: readonly string[] | undefined): string {
  const words = phrase
    .toLowerCase()
    .split(/[^a-z0-9_:.]+/)
    .filter((w) => w !== '' && !/^(the|a|an)$/.test(w));
  try {
    return groundWords(words, propositions && propositions.length > 0 ? vocabulary(propositions) : undefined, phrase).proposition;
  } catch (e) {
    if (e instanceof GroundingError) throw new TranslationError(`cannot ground the model's phrase: ${e.message}`);
    throw e;
  }
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

function finish(
  input: string,
  via: Translation['via'],
  formula: LtlNode,
  expressions: ReferringExpression[],
  extra: { lifted?: string; groundings?: readonly Grounding[]; offlineError?: string } = {},
): Translation {
  const ltl = printLtl(formula);
  if (!satisfiableLtlf(formula)) throw new TranslationError(`the translation ${ltl} can never be satisfied`, ltl);
  return {
    input,
    via,
    ...(extra.lifted !== undefined ? { lifted: extra.lifted } : {}),
    ...(extra.offlineError !== undefined ? { offlineError: extra.offlineError } : {}),
    expressions,
    groundings: extra.groundings ?? [],
    formula,
    ltl,
    english: explainLtl(formula),
    satisfiable: true,
  };
}

export async function translateEnglish(text: string, options: TranslateOptions = {}): Promise<Translation> {
  let offline: EnglishError;
  try {
    const t = translateConstraint(text, { vocabulary: options.propositions });
    return finish(text, t.via, t.formula, [], { groundings: t.groundings });
  } catch (e) {
    if (!(e instanceof EnglishError)) throw e;
    offline = e;
  }
  const model = options.model;
  if (!model) {
    const phrase = offline.phrase && offline.sentence.toLowerCase().includes(offline.phrase.toLowerCase()) ? offline.phrase : offline.sentence;
    throw new TranslationError(offline.message, undefined, phrase);
  }

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
  if (phrases.length === 0) throw new TranslationError(`the model found nothing to ground in "${text}"`);
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
          `propositions ${expressions.map((e) => e.placeholder).join(', ')}. Reply with the formula only.`,
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
  // 4. Verify (before grounding, so the check is about what the model wrote): only the placeholders.
  const stray = [...ltlAtoms(liftedFormula, new Set())].filter((a) => !expressions.some((e) => e.placeholder === a));
  if (stray.length > 0) throw new TranslationError(`the model's answer uses propositions it was not given: ${stray.join(', ')}`, raw);
  // 3. Ground.
  const map = new Map(expressions.map((e) => [e.placeholder, e.proposition]));
  return finish(text, 'llm', substitute(liftedFormula, map), expressions, { lifted, offlineError: offline.message });
}

/** The text a person should see before a translated rule is used. */
export function formatTranslation(t: Translation): string {
  const lines = [`input:   ${t.input}`];
  if (t.lifted !== undefined) lines.push(`lifted:  ${t.lifted}`);
  for (const e of t.expressions) lines.push(`ground:  ${e.placeholder} = "${e.text}" → ${e.proposition}`);
  for (const g of t.groundings) if (g.how !== 'verbatim') lines.push(`ground:  "${g.phrase}" → ${g.proposition}${g.how === 'words' ? ' (no vocabulary: made from the words)' : ''}`);
  const source = t.via === 'pattern' ? 'pattern library (deterministic)' : t.via === 'english' ? 'English forms (deterministic, offline)' : 'LLM translation — check it';
  lines.push(`LTL:     ${t.ltl}`, `English: ${t.english}`, `source:  ${source}`);
  return lines.join('\n');
}
