/**
 * The simulated label model: an offline stand-in for an LLM that labels events, for tests, the
 * audit's `--label-model sim` and the judge harness. It reads the `<!-- tslc:label -->` requests
 * `llmLabeler` sends, takes the propositions and the quoted event from them, answers from a
 * ground-truth labeler (e.g. the symbolic rules of the same propositions), and flips each answer
 * with probability `errorRate` — the paper's "an auditor is only as good as its labeling
 * function", made measurable. Deterministic from (seed, prompt); labelled everywhere as simulated
 * (id `sim:label#<seed>`, `simulated: true`, replies starting `[simulated]`).
 */
import { probability, simulatedRequestModel, type SimulatedRequestModel } from '../llm/sim/request-model.js';
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

/** Counts the requests it answered (`calls`). */
export type SimulatedLabelModel = SimulatedRequestModel;

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
  return simulatedRequestModel({
    id: `sim:label#${seed}`,
    seed,
    kind: 'label',
    understood: 'labelling requests (llmLabeler, <!-- tslc:label -->)',
    read: (request, unsupported) => {
      const names = labelRequestNames(request);
      const event = labelRequestEvent(request);
      if (event === undefined) throw unsupported('the quoted event is not a JSON object (the default render of llmLabeler)');
      return (rng) => {
        const truth = options.truth(event);
        const lines = ['[simulated]'];
        for (const name of names) {
          const wrong = rng.chance(errorRate);
          if (rng.chance(omitRate)) continue;
          const value = Object.hasOwn(truth, name) && truth[name] === true;
          lines.push(`${name}: ${wrong ? !value : value}`);
        }
        return lines.join('\n');
      };
    },
  });
}
