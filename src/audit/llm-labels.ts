/**
 * `tslc audit --label-model`: the propositions with a prompt in the labels file are labelled by a
 * model (the paper's LLM labeling function), one request per event, through the LLM layer's
 * reliability policies — a call budget (an exhausted budget stops the audit: its verdicts would be
 * unknown), a response cache (memory, or a directory that survives between audits), timeouts and
 * retries. A reply that leaves a proposition out makes that event a malformed line, never `false`.
 *
 * `sim` (and `sim:<seed>?evaluatorError=p`) is the simulated label model: it answers from the
 * labels file's own rules for the same propositions (or same-named fields), with each answer
 * flipped with probability p, so an audit with model labels can be run and tested offline.
 */
import { CallBudget } from '../../runtime/llm/usage.js';
import { FileCache, MemoryCache, type ResponseCache } from '../../runtime/llm/cache.js';
import { createModel, parseModelSpec } from '../../runtime/llm/config.js';
import type { Model } from '../../runtime/llm/model.js';
import { type ReliableModel, withReliability } from '../../runtime/llm/reliable.js';
import { type AnyLabeler, type LabelRules, symbolicLabeler } from '../../runtime/monitor/label.js';
import { llmLabeler } from '../../runtime/monitor/llm-label.js';
import { simulatedLabelModel } from '../../runtime/monitor/sim-label.js';

/** Default `--label-budget`: requests per audit. */
export const DEFAULT_LABEL_BUDGET = 1000;

export interface ModelLabelOptions {
  /** `sim`, `sim:<seed>?evaluatorError=p`, `openai:<model>`, `openai-compatible:<url>#<model>`. */
  readonly model: string;
  /** Proposition → prompt; only those the properties use are asked. */
  readonly prompts: Readonly<Record<string, string>>;
  /** Propositions the properties use. */
  readonly used: ReadonlySet<string>;
  /** The labels file's rules: the simulated model's ground truth. */
  readonly rules?: LabelRules;
  readonly maxCalls?: number;
  /** A directory for cached replies; default: memory (one audit). */
  readonly cacheDir?: string;
  readonly timeoutMs?: number;
  /** Tests: a model instead of the model string. */
  readonly makeModel?: () => Model;
}

export interface ModelLabels {
  readonly propositions: readonly string[];
  readonly labeler: AnyLabeler;
  readonly budget: CallBudget;
  /** The model with the budget, cache and usage meter around it. */
  readonly model: ReliableModel;
}

export function modelLabels(options: ModelLabelOptions): ModelLabels {
  const asked = Object.keys(options.prompts).filter((p) => options.used.has(p));
  const prompts = Object.fromEntries(asked.map((p) => [p, options.prompts[p]]));
  let inner: Model;
  if (options.makeModel) inner = options.makeModel();
  else {
    const spec = parseModelSpec(options.model);
    if (spec.kind === 'sim') {
      // Ground truth per asked proposition: its rule in the labels file, else its same-named field.
      const truthRules: Record<string, LabelRules[string]> = Object.create(null) as Record<string, LabelRules[string]>;
      for (const p of asked) truthRules[p] = options.rules && Object.hasOwn(options.rules, p) ? options.rules[p] : p;
      inner = simulatedLabelModel({ truth: symbolicLabeler(truthRules), seed: spec.seed, errorRate: spec.evaluatorErrorRate ?? 0 });
    } else inner = createModel(spec);
  }
  const budget = new CallBudget({ maxCalls: options.maxCalls ?? DEFAULT_LABEL_BUDGET });
  const cache: ResponseCache = options.cacheDir ? new FileCache(options.cacheDir) : new MemoryCache();
  const model = withReliability(inner, { budget, cache, timeoutMs: options.timeoutMs ?? 60_000 });
  const labeler = llmLabeler({ model, propositions: prompts, missing: 'error', cache: false });
  return { propositions: asked, labeler, budget, model };
}
