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
import { probability, simulatedRequestModel, type SimulatedRequestModel } from '../llm/sim/request-model.js';

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

/** Counts the requests it answered (`calls`). */
export type SimulatedJudgeModel = SimulatedRequestModel;

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
  const errorRate = probability(options.errorRate ?? 0, 'errorRate');
  return simulatedRequestModel({
    id: `sim:judge#${seed}`,
    seed,
    kind: 'judge',
    understood: 'judge requests (judgePrompt, <!-- tslc:judge -->)',
    read: (request, unsupported) => {
      const rules = judgeRequestRules(request);
      const actions = judgeRequestActions(request);
      if (!actions) throw unsupported('the request quotes no <actions> block');
      const truth = options.truth(actions);
      if (!truth) throw unsupported('the quoted actions are not a run this simulation knows');
      return (rng) => {
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
        return ['[simulated]', ...perAction.map((f, i) => `Action ${i + 1}: ${f.length === 0 ? 'COMPLIANT' : f.join(' - ')}`)].join('\n');
      };
    },
  });
}
