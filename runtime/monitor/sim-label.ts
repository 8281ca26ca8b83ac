/**
 * The simulated label model: an offline stand-in for an LLM that labels events, for tests, the
 * audit's `--label-model sim` and the judge harness. It reads the `<!-- tslc:label -->` requests
 * `llmLabeler` sends, takes the propositions and the quoted event from them, answers from a
 * ground-truth labeler (e.g. the symbolic rules of the same propositions), and flips each answer
 * with probability `errorRate` — the paper's "an auditor is only as good as its labeling
 * function", made measurable. Deterministic from (seed, prompt); labelled everywhere as simulated
 * (id `sim:label#<seed>`, `simulated: true`, replies starting `[simulated]`).
 */
import { LlmError } from '../llm/errors.js';
import { type ChatMessage, type Completion, estimateTokens, type GenerateOptions, type Model } from '../llm/model.js';
import { createRng, seedFrom } from '../llm/sim/rng.js';
import { parseMarker } from '../llm/template.js';
import type { EventRecord, Labeler } from './label.js';

export interface SimLabelOptions {
  /** What a perfect labeler answers (e.g. `symbolicLabeler(rules)`). */
  readonly truth: Labeler;
  readonly seed?: number;
  /** Probability that one proposition's answer is the opposite of the truth (default 0). */
  readonly errorRate?: number;
  /** Probability that one proposition's line is left out of the reply (default 0). */
  readonly omitRate?: number;
}

export interface SimulatedLabelModel extends Model {
  /** Requests answered so far (cache hits in front of the model are not seen). */
  readonly calls: number;
}

/** The proposition names listed in a labelling request (`- name: description` lines). */
export function labelRequestNames(text: string): string[] {
  const block = /Propositions:\n([\s\S]*?)\n\n/.exec(text);
  if (!block) return [];
  return block[1].split('\n').flatMap((line) => {
    const m = /^- ([^:\s]+):/.exec(line);
    return m ? [m[1]] : [];
  });
}

/** The event quoted in a labelling request, parsed as JSON; undefined when it is not JSON. */
export function labelRequestEvent(text: string): EventRecord | undefined {
  const m = /<event>\n([\s\S]*)\n<\/event>/.exec(text);
  if (!m) return undefined;
  try {
    const value: unknown = JSON.parse(m[1]);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as EventRecord) : undefined;
  } catch {
    return undefined;
  }
}

export function simulatedLabelModel(options: SimLabelOptions): SimulatedLabelModel {
  const seed = options.seed ?? 0;
  const errorRate = probability(options.errorRate ?? 0, 'errorRate');
  const omitRate = probability(options.omitRate ?? 0, 'omitRate');
  const id = `sim:label#${seed}`;
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
      if (kind !== 'label') throw unsupported('only labelling requests (llmLabeler, <!-- tslc:label -->) are understood');
      const request = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      const names = labelRequestNames(request);
      const event = labelRequestEvent(request);
      if (event === undefined) throw unsupported('the quoted event is not a JSON object (the default render of llmLabeler)');
      calls++;
      const truth = options.truth(event);
      const rng = createRng(seedFrom(seed, call.seed ?? null, messages.map((m) => [m.role, m.content])));
      const lines = ['[simulated]'];
      for (const name of names) {
        const wrong = rng.chance(errorRate);
        if (rng.chance(omitRate)) continue;
        const value = Object.hasOwn(truth, name) && truth[name] === true;
        lines.push(`${name}: ${wrong ? !value : value}`);
      }
      const text = lines.join('\n');
      const input = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
      return { text, model: id, simulated: true, usage: { inputTokens: input, outputTokens: estimateTokens(text) } };
    },
  };
}

function probability(value: number, name: string): number {
  if (!(value >= 0 && value <= 1)) throw new LlmError('config', `${name} must be between 0 and 1, got ${value}`);
  return value;
}
