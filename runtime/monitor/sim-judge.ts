/**
 * The simulated judge model: an offline stand-in for an LLM-as-judge auditor, for tests, `tslc
 * judge --judge-model sim` and the README figures. It reads the `<!-- tslc:judge -->` requests
 * `judgePrompt` builds, looks up what a perfect auditor would report for the quoted actions (the
 * `truth` callback; the harness answers it from the TRAC monitor with rule-based labels), and gets
 * each (rule, violation/satisfaction) decision wrong with probability `errorRate`: a miss when the
 * truth has the finding, a false alarm at a random action when it has not. Its figures therefore
 * measure the harness and the error rate it was given, not any real model. Deterministic from
 * (seed, prompt); labelled everywhere as simulated (id `sim:judge#<seed>`, replies `[simulated]`).
 */
import { LlmError } from '../llm/errors.js';
import { type ChatMessage, type Completion, estimateTokens, type GenerateOptions, type Model } from '../llm/model.js';
import { createRng, seedFrom } from '../llm/sim/rng.js';
import { parseMarker } from '../llm/template.js';

/** What a perfect judge reports for one rule on one run. */
export interface JudgeTruth {
  /** 0-based action at which the rule is violated (first time), when it is. */
  readonly violatedAt?: number;
  /** 0-based action at which the rule is satisfied, when it is. */
  readonly satisfiedAt?: number;
}

export interface SimJudgeOptions {
  /** Rule name → the truth for the quoted actions (as numbered in the request, without numbers); undefined: unknown run. */
  readonly truth: (actions: readonly string[]) => ReadonlyMap<string, JudgeTruth> | undefined;
  readonly seed?: number;
  /** Probability that one (rule, kind) decision of a run is wrong (default 0). */
  readonly errorRate?: number;
}

export interface SimulatedJudgeModel extends Model {
  /** Requests answered so far. */
  readonly calls: number;
}

/** Rule names of a judge request (`Rule N (name): …` lines), in order. */
export function judgeRequestRules(text: string): string[] {
  return [...text.matchAll(/^Rule \d+ \(([^)\n]*)\):/gm)].map((m) => m[1]);
}

/** The numbered actions of a judge request, without their numbers. */
export function judgeRequestActions(text: string): string[] | undefined {
  const m = /<actions>\n([\s\S]*?)\n<\/actions>/.exec(text);
  if (!m) return undefined;
  return m[1].split('\n').map((line) => line.replace(/^\d+\. /, ''));
}

export function simulatedJudgeModel(options: SimJudgeOptions): SimulatedJudgeModel {
  const seed = options.seed ?? 0;
  const errorRate = options.errorRate ?? 0;
  if (!(errorRate >= 0 && errorRate <= 1)) throw new LlmError('config', `errorRate must be between 0 and 1, got ${errorRate}`);
  const id = `sim:judge#${seed}`;
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
      if (kind !== 'judge') throw unsupported('only judge requests (judgePrompt, <!-- tslc:judge -->) are understood');
      const request = messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      const rules = judgeRequestRules(request);
      const actions = judgeRequestActions(request);
      if (!actions) throw unsupported('the request quotes no <actions> block');
      const truth = options.truth(actions);
      if (!truth) throw unsupported('the quoted actions are not a run this simulation knows');
      calls++;
      const rng = createRng(seedFrom(seed, call.seed ?? null, messages.map((m) => [m.role, m.content])));
      const perAction: string[][] = actions.map(() => []);
      rules.forEach((name, i) => {
        const t = truth.get(name) ?? {};
        const place = (label: string, at: number | undefined) => {
          const correct = at !== undefined;
          const wrong = rng.chance(errorRate);
          if (correct === wrong) return; // absent and right, or present and missed
          const step = correct ? at : Math.floor(rng.next() * actions.length);
          perAction[Math.min(Math.max(0, step), actions.length - 1)]?.push(`${label}: Rule ${i + 1}`);
        };
        place('VIOLATION', t.violatedAt);
        place('SATISFACTION', t.satisfiedAt);
      });
      const lines = ['[simulated]', ...perAction.map((f, i) => `Action ${i + 1}: ${f.length === 0 ? 'COMPLIANT' : f.join(' - ')}`)];
      const text = lines.join('\n');
      const input = messages.reduce((sum, m) => sum + estimateTokens(m.content), 0);
      return { text, model: id, simulated: true, usage: { inputTokens: input, outputTokens: estimateTokens(text) } };
    },
  };
}
