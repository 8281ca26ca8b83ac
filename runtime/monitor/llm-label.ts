/**
 * An LLM labeling function (the paper's LLM-as-judge labeler): one request per event asks the
 * model whether each proposition holds, answers are parsed line by line, and responses are cached
 * by prompt so re-auditing a log costs nothing. Written against the runtime `Model` interface, so
 * any backend (or a fake in tests) plugs in.
 */
import { type ResponseCache, MemoryCache, cacheKey } from '../llm/cache.js';
import type { ChatMessage, GenerateOptions, Model } from '../llm/model.js';
import { system, user } from '../llm/model.js';
import type { EventRecord, MissingPolicy } from './label.js';
import { dict } from '../dict.js';

export interface LlmLabelerOptions {
  readonly model: Model;
  /** Proposition name → plain-English description of when it holds. */
  readonly propositions: Readonly<Record<string, string>>;
  /** How an event is shown to the model; default: its JSON. */
  readonly render?: (event: EventRecord) => string;
  /** Answer missing from the model's reply: treat as false, or fail. Default false. */
  readonly missing?: MissingPolicy;
  readonly cache?: ResponseCache;
  readonly generate?: GenerateOptions;
}

export type AsyncLabeler = (event: EventRecord) => Promise<Record<string, boolean>>;

export class LlmLabelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmLabelError';
  }
}

export function llmLabelerPrompt(propositions: Readonly<Record<string, string>>, text: string): ChatMessage[] {
  const lines = Object.entries(propositions).map(([name, desc]) => `- ${name}: ${desc}`);
  return [
    system(
      'You label events for a compliance monitor. For each proposition, decide whether it is true of the event. ' +
        'Answer with one line per proposition, exactly `name: true` or `name: false`, and nothing else.',
    ),
    user(`Propositions:\n${lines.join('\n')}\n\nEvent:\n${text}`),
  ];
}

/** Parse `name: true|false` lines (also yes/no, 1/0, [True]); later lines win. */
export function parseLabelAnswer(reply: string, names: readonly string[]): Map<string, boolean> {
  const wanted = new Set(names);
  const out = new Map<string, boolean>();
  for (const raw of reply.split(/\r?\n/)) {
    const m = /^[\s\-*`]*([^:\s`]+)`?\s*[:=]\s*\[?\s*(true|false|yes|no|1|0)\b/i.exec(raw);
    if (!m || !wanted.has(m[1])) continue;
    out.set(m[1], /^(true|yes|1)$/i.test(m[2]));
  }
  return out;
}

export function llmLabeler(options: LlmLabelerOptions): AsyncLabeler {
  const names = Object.keys(options.propositions);
  const render = options.render ?? ((e: EventRecord) => JSON.stringify(e));
  const cache = options.cache ?? new MemoryCache();
  const gen: GenerateOptions = { temperature: 0, ...options.generate };
  return async (event) => {
    const messages = llmLabelerPrompt(options.propositions, render(event));
    const key = cacheKey(options.model.id, messages, gen);
    let text = (await cache.get(key))?.text;
    if (text === undefined) {
      const c = await options.model.complete(messages, gen);
      text = c.text;
      await cache.set(key, { text: c.text, usage: c.usage });
    }
    const answers = parseLabelAnswer(text, names);
    const out = dict<boolean>();
    for (const n of names) {
      const v = answers.get(n);
      if (v === undefined && options.missing === 'error') throw new LlmLabelError(`the model gave no answer for proposition '${n}'`);
      out[n] = v ?? false;
    }
    return out;
  };
}
