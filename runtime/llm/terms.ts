/**
 * LLM-backed implementations of a spec's terms: predicates (`inCave`), function terms (`toCave`)
 * and the story summarizer. They return plain `(...args) => Promise<T>` functions, the shape the
 * controller runtime calls, and read the turn and signal values from the session's `TurnContext`.
 *
 * A predicate asks for `0`/`1`, parses leniently, re-asks once on an unreadable answer and then
 * throws `LlmError('garbage-answer')`: an evaluator failure is never reported as `false`.
 */
import { LlmError } from './errors.js';
import { assistant, type ChatMessage, clipForPrompt, type Completion, ECHO_LIMIT_CHARS, type GenerateOptions, type Model, user } from './model.js';
import { type ReliabilityOptions, type ReliableModel, withReliability } from './reliable.js';
import {
  makeView,
  marker,
  type MarkerKind,
  type PromptView,
  render,
  type TemplateText,
  TurnContext,
} from './template.js';
import type { UsageMeter } from './usage.js';
import { type CallKind, type MaxTokensSetting, resolveMaxTokens } from './max-tokens.js';

export interface PredicateTemplate {
  /** The spec's predicate name (`inCave`); also the marker name the simulated model reads. */
  readonly name: string;
  /** Names for the term's arguments, usable as `{{name}}` (e.g. `['passage']`). */
  readonly params?: readonly string[];
  readonly system?: TemplateText;
  /** The question; should ask for `0` or `1`. */
  readonly prompt: TemplateText;
}

export interface FunctionTemplate<T = string> {
  /** The spec's function name (`toCave`). */
  readonly name: string;
  readonly params?: readonly string[];
  readonly system?: TemplateText;
  /** The per-update prompt modifier of the papers ("Compose a passage where … a cave …"). */
  readonly modifier?: TemplateText;
  /** The user message; sees the rendered modifier as `{{modifier}}`. */
  readonly prompt: TemplateText;
  /** Turns the text into the term's value; a throw becomes `garbage-answer`. Default: trimmed text. */
  readonly parse?: (text: string) => T;
  /**
   * `function` (default): the modifier asks for specific content. `generate`: free generation with
   * no modifier, e.g. the prompt-only baseline; the simulated model then picks content itself.
   */
  readonly mode?: 'function' | 'generate';
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export interface SummaryTemplate {
  readonly system?: TemplateText;
  /** Sees `{{previousSummary}}` and `{{passage}}`. */
  readonly prompt: TemplateText;
}

/** One finished call, for traces and evaluation logs. */
export interface CallRecord {
  readonly kind: MarkerKind;
  readonly name: string;
  readonly turn: number;
  readonly attempt: number;
  readonly messages: readonly ChatMessage[];
  readonly text: string;
  readonly simulated: boolean;
  readonly cached: boolean;
}

export interface LlmSessionOptions extends Omit<ReliabilityOptions, 'step'> {
  readonly model: Model;
  readonly context?: TurnContext;
  /** Base seed: predicates use it as is, generations add the regeneration attempt. */
  readonly seed?: number;
  /** Temperature for generations (predicates and summaries use 0 unless a template says otherwise). */
  readonly temperature?: number;
  /**
   * Tokens each kind of call may generate (sent as `max_tokens`): a number for every kind, `null`
   * for no limit, or per kind (`{ predicate: 16, function: 300, summary: 400 }`, the defaults,
   * `DEFAULT_MAX_TOKENS`). A function template's own `maxTokens` wins for its calls.
   */
  readonly maxTokens?: MaxTokensSetting;
  /** Re-asks after an unreadable predicate answer before failing (default 1). */
  readonly reasks?: number;
  /**
   * A re-ask quotes the unreadable answer back; longer answers are cut to this many characters
   * with a note (default 2000), so a huge reply is never sent again.
   */
  readonly reaskEchoChars?: number;
  readonly onCall?: (record: CallRecord) => void;
}

export type LlmPredicate = (...args: unknown[]) => Promise<boolean>;
export type LlmFunction<T> = (...args: unknown[]) => Promise<T>;
export type LlmSummarizer = (previousSummary: string, passage: string) => Promise<string>;

export interface LlmSession {
  /** The reliable model every helper of this session calls through. */
  readonly model: ReliableModel;
  readonly context: TurnContext;
  readonly usage: UsageMeter;
  readonly simulated: boolean;
  predicate(template: PredicateTemplate): LlmPredicate;
  generator<T = string>(template: FunctionTemplate<T>): LlmFunction<T>;
  summarizer(template: SummaryTemplate): LlmSummarizer;
  /** A raw call through the session's policies (cache, budget, usage), for custom prompts. */
  complete(messages: readonly ChatMessage[], options?: GenerateOptions): Promise<Completion>;
}

export function createLlmSession(options: LlmSessionOptions): LlmSession {
  resolveMaxTokens(options.maxTokens); // a bad limit is a config error now, not at the first call
  const context = options.context ?? new TurnContext();
  const model = withReliability(options.model, { ...options, step: () => context.turn });
  const session: LlmSession = {
    model,
    context,
    usage: model.usage,
    simulated: model.simulated,
    predicate: (template) => llmPredicate(template, session, options),
    generator: (template) => llmFunction(template, session, options),
    summarizer: (template) => llmSummarizer(template, session, options),
    complete: (messages, callOptions = {}) =>
      model.complete(messages, withAbort(callOptions, context.abortSignal)),
  };
  return session;
}

type SessionSettings = Pick<LlmSessionOptions, 'seed' | 'temperature' | 'maxTokens' | 'reasks' | 'reaskEchoChars' | 'onCall'>;

/** What errors keep of a model's raw answer (`LlmError.raw`). */
const RAW_LIMIT_CHARS = 2000;

export const REASK_PROMPT =
  'Your previous reply could not be read as an answer. Respond with exactly one character: 1 if the statement is true, 0 if it is false.';

export function llmPredicate(
  template: PredicateTemplate,
  session: LlmSession,
  settings: SessionSettings = {},
): LlmPredicate {
  return async (...args: unknown[]): Promise<boolean> => {
    const context = session.context;
    const view = makeView(context, args, template.params);
    let messages = buildMessages('predicate', template.name, template.system, template.prompt, view);
    const reasks = Math.max(0, settings.reasks ?? 1);
    const maxTokens = limitFor('predicate', settings);
    const callOptions = {
      temperature: 0,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      ...(maxTokens !== null ? { maxTokens } : {}),
    };
    let truncated = false;
    let last = '';
    // Requests sent over all asks (the reliability layer may retry each), for error reports.
    let attempts = 0;
    for (let ask = 0; ask <= reasks; ask += 1) {
      let result: Completion;
      try {
        result = await session.complete(messages, callOptions);
      } catch (error) {
        if (error instanceof LlmError) throw error.withDetails({ attempts: attempts + (error.attempts ?? 1) });
        throw error;
      }
      attempts += Math.max(1, result.attempts ?? 1);
      report(settings, 'predicate', template.name, context, messages, result);
      last = result.text;
      truncated = result.truncated === true;
      const answer = parseBinaryAnswer(result.text);
      if (answer !== undefined) return answer;
      messages = [...messages, assistant(clipForPrompt(result.text, settings.reaskEchoChars ?? ECHO_LIMIT_CHARS)), user(REASK_PROMPT)];
    }
    throw new LlmError(
      'garbage-answer',
      `predicate '${template.name}' got no 0/1 answer after ${reasks + 1} tries; last reply: ${JSON.stringify(last.slice(0, 120))}${last.length > 120 ? ` (${last.length} characters)` : ''}` +
        (truncated && maxTokens !== null
          ? ` — the reply was cut at the ${maxTokens}-token limit for predicate calls; a model that reasons before answering needs more (TSLC_MAX_TOKENS=predicate=512, or 'off')`
          : ''),
      { model: session.model.id, raw: last.slice(0, RAW_LIMIT_CHARS), attempts },
    );
  };
}

export function llmFunction<T = string>(
  template: FunctionTemplate<T>,
  session: LlmSession,
  settings: SessionSettings = {},
): LlmFunction<T> {
  const mode = template.mode ?? 'function';
  return async (...args: unknown[]): Promise<T> => {
    const context = session.context;
    const base = makeView(context, args, template.params);
    const modifier = template.modifier === undefined ? undefined : render(template.modifier, base, template.name);
    const view = makeView(context, args, template.params, modifier === undefined ? {} : { modifier });
    const messages = buildMessages(mode, template.name, template.system, template.prompt, view);
    const temperature = template.temperature ?? settings.temperature;
    const maxTokens = template.maxTokens ?? limitFor('function', settings);
    const result = await session.complete(messages, {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(maxTokens !== null ? { maxTokens } : {}),
      // A regeneration must be allowed to differ: with a fixed seed the same prompt repeats itself.
      ...(settings.seed !== undefined ? { seed: settings.seed + context.attempt } : {}),
    });
    report(settings, mode, template.name, context, messages, result);
    const text = result.text.trim();
    if (text === '') {
      throw new LlmError('empty-response', `function '${template.name}' got an empty reply`, {
        model: session.model.id,
      });
    }
    if (!template.parse) return text as T;
    try {
      return template.parse(text);
    } catch (error) {
      throw new LlmError('garbage-answer', `function '${template.name}' could not parse the reply: ${String(error)}`, {
        model: session.model.id,
        raw: text.slice(0, RAW_LIMIT_CHARS),
        cause: error,
        ...(result.attempts !== undefined ? { attempts: Math.max(1, result.attempts) } : {}),
      });
    }
  };
}

export function llmSummarizer(
  template: SummaryTemplate,
  session: LlmSession,
  settings: SessionSettings = {},
): LlmSummarizer {
  return async (previousSummary: string, passage: string): Promise<string> => {
    const context = session.context;
    const view = makeView(context, [previousSummary, passage], ['previousSummary', 'passage']);
    const messages = buildMessages('summary', 'summary', template.system, template.prompt, view);
    const maxTokens = limitFor('summary', settings);
    const result = await session.complete(messages, {
      temperature: 0,
      ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
      ...(maxTokens !== null ? { maxTokens } : {}),
    });
    report(settings, 'summary', 'summary', context, messages, result);
    const text = result.text.trim();
    if (text === '') {
      throw new LlmError('empty-response', 'the summarizer got an empty reply', { model: session.model.id });
    }
    return text;
  };
}

/**
 * Reads a 0/1 answer: `1`, `"0"`, `**1**`, `1.`, `Answer: 0`, `1 - she is in a cave`, and the whole
 * words true/false/yes/no. Returns undefined for anything else (`0.5`, `maybe`, `0 or 1`, prose).
 */
export function parseBinaryAnswer(text: string): boolean | undefined {
  const cleaned = text
    .toLowerCase()
    .replace(/[*_`"'“”‘’]/g, '')
    .trim();
  const bare = cleaned.replace(/^[\s.:;,!()[\]-]+|[\s.:;,!()[\]-]+$/g, '');
  if (bare === '1' || bare === 'true' || bare === 'yes') return true;
  if (bare === '0' || bare === 'false' || bare === 'no') return false;
  const leading = /^(?:(?:final\s+)?(?:answer|response|result|output)\s*(?:is)?\s*[:=-]?\s*)?([01])(?![\d.,]\d)(?!\s*(?:or|\/)\s*[01])(?:\b|$)/.exec(
    bare,
  );
  if (leading) return leading[1] === '1';
  return undefined;
}

/** The session's token limit for one kind of call (`null`: send none). */
function limitFor(kind: CallKind, settings: SessionSettings): number | null {
  return resolveMaxTokens(settings.maxTokens)[kind];
}

function buildMessages(
  kind: MarkerKind,
  name: string,
  systemTemplate: TemplateText | undefined,
  promptTemplate: TemplateText,
  view: PromptView,
): ChatMessage[] {
  const tag = kind === 'summary' ? marker('summary') : marker(kind, name);
  const systemText = systemTemplate === undefined ? '' : render(systemTemplate, view, name);
  return [
    { role: 'system', content: systemText === '' ? tag : `${tag}\n${systemText}` },
    { role: 'user', content: render(promptTemplate, view, name) },
  ];
}

function withAbort(options: GenerateOptions, abortSignal: AbortSignal | undefined): GenerateOptions {
  if (!abortSignal) return options;
  const signal = options.signal ? AbortSignal.any([options.signal, abortSignal]) : abortSignal;
  return { ...options, signal };
}

function report(
  settings: SessionSettings,
  kind: MarkerKind,
  name: string,
  context: TurnContext,
  messages: readonly ChatMessage[],
  result: Completion,
): void {
  settings.onCall?.({
    kind,
    name,
    turn: context.turn,
    attempt: context.attempt,
    messages,
    text: result.text,
    simulated: result.simulated,
    cached: result.cached ?? false,
  });
}

/**
 * Builds the implementation object a controller calls (`impl.inCave(s)`, `impl.toCave(s)`) from
 * templates keyed by the spec's names. Plain-TypeScript terms (e.g. `safeCount + 1`) can be spread
 * in beside it: `{ ...llmImplementation(session, {...}), increment: (n: number) => n + 1 }`.
 */
export function llmImplementation(
  session: LlmSession,
  terms: {
    readonly predicates?: Readonly<Record<string, PredicateTemplate>>;
    readonly functions?: Readonly<Record<string, FunctionTemplate<unknown>>>;
  },
): Record<string, LlmPredicate | LlmFunction<unknown>> {
  // From entries, so every name is an own property (assigning `implementation['__proto__']`
  // would set the prototype instead) and the result spreads like any object.
  const entries: [string, LlmPredicate | LlmFunction<unknown>][] = [
    ...Object.entries(terms.predicates ?? {}).map(([name, template]): [string, LlmPredicate] => [name, session.predicate(template)]),
    ...Object.entries(terms.functions ?? {}).map(([name, template]): [string, LlmFunction<unknown>] => [name, session.generator(template)]),
  ];
  return Object.fromEntries(entries);
}
