/**
 * The frame of a simulated model that understands one kind of request (the marker its prompt
 * template writes, e.g. `<!-- tslc:label -->`): it refuses aborted calls and other kinds, counts
 * the requests it answers, seeds its randomness from (seed, call seed, messages) so every answer
 * is reproducible, and estimates token usage. What it answers is the caller's `read`.
 */
import { LlmError } from '../errors.js';
import { type ChatMessage, type Completion, estimateTokens, type GenerateOptions, type Model } from '../model.js';
import { parseMarker } from '../template.js';
import { createRng, type Rng, seedFrom } from './rng.js';

export interface SimulatedRequestModel extends Model {
  /** Requests answered so far (cache hits in front of the model are not seen). */
  readonly calls: number;
}

export interface SimulatedRequestOptions {
  readonly id: string;
  readonly seed: number;
  /** The marker kind it understands (`label`, `judge`). */
  readonly kind: string;
  /** Which requests it understands, for the error on any other kind. */
  readonly understood: string;
  /**
   * Reads the user's request text: throws `unsupported(…)` for a request it cannot answer, else
   * returns the reply's text as a function of the seeded randomness (the request counts as
   * answered from then on).
   */
  readonly read: (request: string, unsupported: (message: string) => LlmError) => (rng: Rng) => string;
}

export function simulatedRequestModel(options: SimulatedRequestOptions): SimulatedRequestModel {
  const { id, seed } = options;
  let calls = 0;
  const unsupported = (message: string) => new LlmError('unsupported', `${id} (simulated): ${message}`, { model: id });
  return {
    id,
    simulated: true,
    get calls() {
      return calls;
    },
    async complete(messages: readonly ChatMessage[], call: GenerateOptions = {}): Promise<Completion> {
      if (call.signal?.aborted) throw new LlmError('aborted', 'the LLM call was aborted', { model: id });
      const kind = messages.map((m) => parseMarker(m.content)).find((m) => m !== undefined)?.kind;
      if (kind !== options.kind) throw unsupported(`only ${options.understood} are understood`);
      const reply = options.read(
        messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n'),
        unsupported,
      );
      calls++;
      const text = reply(createRng(seedFrom(seed, call.seed ?? null, messages.map((m) => [m.role, m.content]))));
      const input = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
      return { text, model: id, simulated: true, usage: { inputTokens: input, outputTokens: estimateTokens(text) } };
    },
  };
}

/** A rate option (`errorRate`, `omitRate`): a probability, else a configuration error. */
export function probability(value: number, name: string): number {
  if (!(value >= 0 && value <= 1)) throw new LlmError('config', `${name} must be between 0 and 1, got ${value}`);
  return value;
}
