/**
 * Batched predicate evaluation: one structured call asks every predicate a controller state may
 * test and reads one JSON object of 0/1 answers, instead of one call per predicate. The controller
 * (runtime/controller.ts, option `batch`) sends the questions and walks its decision diagram on the
 * answers; a predicate whose answer is missing or unreadable is asked again on its own, the usual
 * way (`llmPredicate`, with its re-ask), and only if the walk needs it — never read as `false`.
 *
 * The request quotes each distinct argument once (`<text1>`…) and lists the questions by key, so a
 * summary asked about by four predicates is sent once, not four times. A template's `question` is
 * the question without its subject; templates without one are sent whole (their prompt quotes the
 * subject itself).
 */
import { LlmError } from './errors.js';
import { type ChatMessage, system, user } from './model.js';
import { makeView, marker, quote, render } from './template.js';
import type { LlmSession, PredicateTemplate } from './terms.js';
import { type MaxTokensSetting, resolveMaxTokens } from './max-tokens.js';
import type { BatchRequest, PredicateBatcher } from '../controller.js';

export type { BatchRequest, PredicateBatcher } from '../controller.js';

export interface BatchQuestion {
  /** The JSON key the model answers under: the predicate name, `name_2`, … when repeated. */
  readonly key: string;
  readonly name: string;
  /** Subject tags (`text1`) of the question's arguments, when the template has a `question`. */
  readonly about: readonly string[];
  readonly question: string;
}

export const BATCH_INSTRUCTIONS =
  'You answer several yes/no questions at once. Reply with exactly one JSON object that maps every question key ' +
  'to 1 if the statement is true or 0 if it is false, for example {"inCave": 1, "inTown": 0}, and nothing else.';

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/**
 * The batch request for `requests`: subjects quoted once each, then one `- key [name] (about
 * textN): question` line per request. Returns the messages and the key of each request, in order.
 */
export function batchPrompt(
  requests: readonly BatchRequest[],
  templates: ReadonlyMap<string, PredicateTemplate>,
  session: Pick<LlmSession, 'context'>,
): { readonly messages: ChatMessage[]; readonly questions: readonly BatchQuestion[] } {
  const subjects = new Map<string, string>();
  const subjectTag = (text: string): string => {
    let tag = subjects.get(text);
    if (tag === undefined) {
      tag = `text${subjects.size + 1}`;
      subjects.set(text, tag);
    }
    return tag;
  };
  const used = new Map<string, number>();
  const questions = requests.map((r): BatchQuestion => {
    const template = templates.get(r.name);
    if (!template) throw new LlmError('template', `no predicate template for '${r.name}'`);
    const count = (used.get(r.name) ?? 0) + 1;
    used.set(r.name, count);
    const key = count === 1 ? r.name : `${r.name}_${count}`;
    const view = makeView(session.context, r.args, template.params);
    if (template.question === undefined) return { key, name: r.name, about: [], question: render(template.prompt, view, r.name) };
    const about = r.args.map((a) => subjectTag(stringify(a)));
    return { key, name: r.name, about, question: render(template.question, view, r.name) };
  });
  const blocks = [...subjects].map(([text, tag]) => quote(tag, text));
  const lines = questions.map((q) => `- ${q.key} [${q.name}]${q.about.length > 0 ? ` (about ${q.about.join(', ')})` : ''}: ${q.question.replace(/\r?\n/g, ' ')}`);
  const body = [...(blocks.length > 0 ? [`Texts:\n${blocks.join('\n')}`] : []), `Questions:\n${lines.join('\n')}`].join('\n\n');
  return { messages: [system(`${marker('batch')}\n${BATCH_INSTRUCTIONS}`), user(body)], questions };
}

/** A 0/1 answer as JSON gives it: 1, 0, true, false, "1", "0", "yes", "no"; else undefined (malformed). */
function answerValue(value: unknown): boolean | undefined {
  if (value === 1 || value === true) return true;
  if (value === 0 || value === false) return false;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === '1' || v === 'true' || v === 'yes') return true;
    if (v === '0' || v === 'false' || v === 'no') return false;
  }
  return undefined;
}

/**
 * Reads a batch reply: the first `{…}` object (code fences and prose around it are ignored). When
 * it is not valid JSON (cut off, a stray comma) the complete `"key": value` pairs are still read,
 * so a reply cut after two answers costs single calls for the rest only. Keys not asked are ignored.
 */
export function parseBatchAnswer(text: string, keys: readonly string[]): Map<string, boolean> {
  const wanted = new Set(keys);
  const out = new Map<string, boolean>();
  const start = text.indexOf('{');
  if (start < 0) return out;
  const end = text.lastIndexOf('}');
  let parsed: unknown;
  try {
    parsed = end > start ? JSON.parse(text.slice(start, end + 1)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      const v = answerValue(value);
      if (wanted.has(key) && v !== undefined) out.set(key, v);
    }
    return out;
  }
  for (const m of text.slice(start).matchAll(/"([^"\\]+)"\s*:\s*("[^"]*"|true|false|-?\d+(?:\.\d+)?)\s*(?=[,}\n])/g)) {
    const raw = m[2].startsWith('"') ? m[2].slice(1, -1) : m[2] === 'true' ? true : m[2] === 'false' ? false : Number(m[2]);
    const v = answerValue(raw);
    if (wanted.has(m[1]) && v !== undefined) out.set(m[1], v);
  }
  return out;
}

export interface BatchOptions {
  /** Tokens the batch reply may have; default: the session's predicate limit plus 12 per question. */
  readonly maxTokens?: MaxTokensSetting;
  readonly seed?: number;
  /** Called after each batch call with what it answered and what was left for single calls. */
  readonly onBatch?: (result: { readonly asked: number; readonly answered: number; readonly missing: readonly string[]; readonly text: string }) => void;
}

/**
 * A `PredicateBatcher` over `session`: one call for all requests whose predicate has a template
 * (others are left to single calls). A request failure (timeout, budget) fails the step like a
 * single predicate's would; a readable reply with gaps answers what it can.
 */
export function llmPredicateBatcher(
  session: LlmSession,
  templates: Readonly<Record<string, PredicateTemplate>> | ReadonlyMap<string, PredicateTemplate>,
  options: BatchOptions = {},
): PredicateBatcher {
  const byName: ReadonlyMap<string, PredicateTemplate> =
    templates instanceof Map ? templates : new Map(Object.entries(templates as Readonly<Record<string, PredicateTemplate>>));
  const limit = resolveMaxTokens(options.maxTokens).predicate;
  const batcher = async (requests: readonly BatchRequest[]): Promise<ReadonlyMap<number, boolean>> => {
    const known = requests.filter((r) => byName.has(r.name));
    const answers = new Map<number, boolean>();
    if (known.length === 0) return answers;
    const { messages, questions } = batchPrompt(known, byName, session);
    const result = await session.complete(messages, {
      temperature: 0,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(limit !== null ? { maxTokens: limit + 12 * questions.length } : {}),
    });
    const parsed = parseBatchAnswer(result.text, questions.map((q) => q.key));
    const missing: string[] = [];
    questions.forEach((q, i) => {
      const v = parsed.get(q.key);
      if (v === undefined) missing.push(q.key);
      else answers.set(known[i].index, v);
    });
    options.onBatch?.({ asked: questions.length, answered: answers.size, missing, text: result.text });
    return answers;
  };
  // The controller sends only predicates with a template; the rest are called as usual.
  return Object.assign(batcher, { names: new Set(byName.keys()) });
}
