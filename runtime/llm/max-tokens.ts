/**
 * runtime/llm/max-tokens — how many tokens each kind of call may generate.
 *
 * A predicate needs one token (`0`/`1`), a passage a few hundred, a summary a few hundred more.
 * Without a limit a local model (llama.cpp's `llama-server`, Ollama) may ramble on after its answer
 * until the call times out, so every call sends a per-kind limit (`max_tokens`). The defaults are
 * configurable in code (`createLlmSession({ maxTokens })`) and from the environment
 * (`TSLC_MAX_TOKENS`, read by `maxTokensFromEnv` the way `TSLC_MODEL` is by `modelFromEnv`).
 */
import { LlmError } from './errors.js';

/** The kinds of calls a session makes: yes/no questions, function terms (passages), summaries. */
export type CallKind = 'predicate' | 'function' | 'summary';

export const CALL_KINDS: readonly CallKind[] = ['predicate', 'function', 'summary'];

/** A limit per kind of call; `null` sends none, so the server's own default applies. */
export type MaxTokens = Readonly<Record<CallKind, number | null>>;

/**
 * What a caller may configure: one limit for every kind, `null` for none at all, or some kinds
 * (the others keep their defaults).
 */
export type MaxTokensSetting = number | null | Readonly<Partial<Record<CallKind, number | null>>>;

/**
 * Predicates answer one token, but small models like `Answer: 1` or `**1**`, which the parser
 * accepts, so there is room for a few; passages are asked for at most 100 words (~150 tokens);
 * summaries grow with the story.
 */
export const DEFAULT_MAX_TOKENS: MaxTokens = Object.freeze({ predicate: 16, function: 300, summary: 400 });

export const MAX_TOKENS_HELP =
  "expected a number of tokens for every call ('400'), 'off' (send no limit), or limits per kind " +
  "('predicate=16,function=300,summary=400'; a kind may be 'off')";

function checkedLimit(value: number | null, what: string): number | null {
  if (value === null) return null;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new LlmError('config', `maxTokens${what}: ${String(value)} is not a positive whole number of tokens (null sends no limit)`);
  return value;
}

/** The limit of every kind of call under `setting`; throws `LlmError('config')` on a bad value. */
export function resolveMaxTokens(setting?: MaxTokensSetting): MaxTokens {
  if (setting === undefined) return DEFAULT_MAX_TOKENS;
  if (setting === null || typeof setting === 'number') {
    const limit = checkedLimit(setting, '');
    return { predicate: limit, function: limit, summary: limit };
  }
  const limits: Record<CallKind, number | null> = { ...DEFAULT_MAX_TOKENS };
  for (const [key, value] of Object.entries(setting)) {
    if (!(CALL_KINDS as readonly string[]).includes(key))
      throw new LlmError('config', `maxTokens: unknown kind of call '${key}' (known: ${CALL_KINDS.join(', ')})`);
    if (value !== undefined) limits[key as CallKind] = checkedLimit(value, `.${key}`);
  }
  return limits;
}

/** Reads `400`, `off` or `predicate=16,function=off` (the `TSLC_MAX_TOKENS` syntax). */
export function parseMaxTokens(text: string): MaxTokensSetting {
  const fail = (problem: string) => new LlmError('config', `invalid TSLC_MAX_TOKENS ${JSON.stringify(text)}: ${problem}; ${MAX_TOKENS_HELP}`);
  const limit = (word: string): number | null => {
    const w = word.trim();
    if (w.toLowerCase() === 'off') return null;
    if (!/^\d+$/.test(w) || Number(w) < 1 || !Number.isSafeInteger(Number(w))) throw fail(`'${w}' is not a positive whole number or 'off'`);
    return Number(w);
  };
  const trimmed = text.trim();
  if (trimmed === '') throw fail('it is empty');
  if (!trimmed.includes('=')) return limit(trimmed);
  const setting: Partial<Record<CallKind, number | null>> = {};
  for (const item of trimmed.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) throw fail(`'${item.trim()}' is not kind=limit`);
    const kind = item.slice(0, eq).trim();
    if (!(CALL_KINDS as readonly string[]).includes(kind)) throw fail(`unknown kind of call '${kind}' (known: ${CALL_KINDS.join(', ')})`);
    setting[kind as CallKind] = limit(item.slice(eq + 1));
  }
  return setting;
}

/** `TSLC_MAX_TOKENS` when set, else undefined (the defaults). */
export function maxTokensFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): MaxTokensSetting | undefined {
  const text = env.TSLC_MAX_TOKENS;
  return text === undefined || text.trim() === '' ? undefined : parseMaxTokens(text);
}
