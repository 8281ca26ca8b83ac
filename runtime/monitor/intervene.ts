/**
 * Predictive and intervening monitors (TRAC_P+I: Definition 4.7, Algorithm 3 of Alamdari et al.).
 *
 * Prediction estimates the probability that a monitoring pattern (by default: any violation)
 * shows up within the next k steps, by sampling k-step continuations and progressing a fork of
 * the monitor through each. Intervention wraps a `generate(history, input) → output` function and,
 * when the predicted risk reaches τ, resamples (best of n), injects a plain-English reminder of the
 * property at risk into the input, or switches to an alternative generator. Every intervention is
 * recorded in the trace.
 */
import { dict } from '../dict.js';
import type { LtlNode } from '../ltl/syntax.js';
import { type Labels, type MonitorOptions, type PropertySpec, type Verdict, ProgressionMonitor } from './progression.js';

/** Verdicts reached at each of the k predicted steps. */
export type StepVerdicts = readonly (readonly { readonly name: string; readonly verdict: Verdict }[])[];
/** A monitoring pattern π over the predicted verdict sequence. */
export type Pattern = (steps: StepVerdicts) => boolean;

/** π = "some property (of `names`, default all) is violated within the horizon". */
export function anyViolation(names?: readonly string[]): Pattern {
  const wanted = names ? new Set(names) : undefined;
  return (steps) => steps.some((s) => s.some((v) => v.verdict === 'violated' && (!wanted || wanted.has(v.name))));
}

export interface Prediction {
  /** Estimated probability that the pattern is observed within k steps. */
  readonly probability: number;
  /** Per property: share of sampled continuations in which it was violated. */
  readonly risk: Readonly<Record<string, number>>;
  readonly samples: number;
}

/**
 * Sampling estimate of f̂^k_π: `continuation()` draws one k-step sequence of label sets (e.g. by
 * calling the model k times); the monitor is forked, never changed.
 */
export function predict(
  monitor: ProgressionMonitor,
  continuation: () => readonly Labels[],
  options: { samples: number; pattern?: Pattern },
): Prediction {
  const pattern = options.pattern ?? anyViolation();
  const risk = dict(monitor.propertyNames.map((n) => [n, 0]));
  let hits = 0;
  const m = Math.max(1, options.samples);
  for (let j = 0; j < m; j++) {
    const fork = monitor.fork({ keepWitness: false });
    const steps: (readonly { name: string; verdict: Verdict }[])[] = [];
    for (const labels of continuation()) steps.push(fork.step(labels));
    if (pattern(steps)) hits++;
    const violated = new Set(steps.flatMap((s) => s.filter((v) => v.verdict === 'violated').map((v) => v.name)));
    for (const n of violated) risk[n]++;
  }
  for (const n of Object.keys(risk)) risk[n] /= m;
  return { probability: hits / m, risk, samples: m };
}

export interface Turn<I, O> {
  readonly input: I;
  readonly output: O;
}

export type Generate<I, O> = (history: readonly Turn<I, O>[], input: I) => O | Promise<O>;

export type Intervention<I> =
  | { readonly kind: 'resample'; readonly candidates: number; readonly chosenRisk: number }
  | { readonly kind: 'inject'; readonly properties: readonly string[]; readonly originalInput: I; readonly text: string }
  | { readonly kind: 'switch'; readonly properties: readonly string[] };

export interface TraceEntry<I, O> extends Turn<I, O> {
  readonly step: number;
  /** Predicted probability of the pattern before this step. */
  readonly risk: number;
  readonly intervention?: Intervention<I>;
  /** Verdicts reached at this step (after recovery resets, violations are counted per occurrence). */
  readonly verdicts: readonly { readonly name: string; readonly verdict: Verdict }[];
}

export interface PropertyWithDescription extends PropertySpec {
  /** Plain-English statement used in constraint-guided prompts; default: generated from the formula. */
  readonly description?: string;
}

export interface InterveneOptions<I, O> {
  readonly properties: readonly PropertyWithDescription[];
  readonly generate: Generate<I, O>;
  /** Labels of a turn (the labeling function L). */
  readonly label: (turn: Turn<I, O>, history: readonly Turn<I, O>[]) => Labels;
  readonly strategy: 'none' | 'resample' | 'inject' | 'switch';
  /** Threshold τ: intervene when the predicted probability is at least this; default 0.5. */
  readonly threshold?: number;
  /** Horizon k; default 1. */
  readonly horizon?: number;
  /** Samples m for the estimate; default 3 (the paper's choice). */
  readonly samples?: number;
  /** Input of predicted steps after the first (the paper's ∅). */
  readonly emptyInput: I;
  /** Resample: candidates n; default 5. */
  readonly candidates?: number;
  /** Inject: how the reminder is added to the input; default for strings: appended on a new line. */
  readonly inject?: (input: I, reminder: string) => I;
  /** Switch: the alternative (safer) generator M'. */
  readonly alternative?: Generate<I, O>;
  readonly pattern?: Pattern;
  readonly monitor?: MonitorOptions;
}

/** An agent loop with a TRAC_P+I monitor around it. */
export class InterveningMonitor<I, O> {
  readonly monitor: ProgressionMonitor;
  readonly history: Turn<I, O>[] = [];
  readonly trace: TraceEntry<I, O>[] = [];
  private readonly o: InterveneOptions<I, O>;

  constructor(options: InterveneOptions<I, O>) {
    if (options.strategy === 'switch' && !options.alternative) throw new Error("strategy 'switch' needs an alternative generator");
    this.o = options;
    this.monitor = new ProgressionMonitor(options.properties, { recovery: true, ...options.monitor });
  }

  /** Total violations observed so far, per property. */
  violations(): Record<string, number> {
    return Object.fromEntries(this.monitor.status().map((s) => [s.name, s.violations]));
  }

  /** Risk of the pattern within k steps if `first` (when given) is the next output for `input`. */
  private async estimate(input: I, first?: O): Promise<Prediction> {
    const k = Math.max(1, this.o.horizon ?? 1);
    const m = Math.max(1, this.o.samples ?? 3);
    // Continuations are generated ahead of time because `predict` is synchronous.
    const conts: Labels[][] = [];
    for (let j = 0; j < m; j++) {
      const hist = [...this.history];
      const labels: Labels[] = [];
      for (let s = 0; s < k; s++) {
        const inp = s === 0 ? input : this.o.emptyInput;
        const out = s === 0 && first !== undefined ? first : await this.o.generate(hist, inp);
        const turn = { input: inp, output: out };
        labels.push(this.o.label(turn, hist));
        hist.push(turn);
      }
      conts.push(labels);
    }
    let j = 0;
    return predict(this.monitor, () => conts[j++], { samples: m, pattern: this.o.pattern });
  }

  async step(input: I): Promise<TraceEntry<I, O>> {
    const tau = this.o.threshold ?? 0.5;
    let output: O | undefined;
    let intervention: Intervention<I> | undefined;
    let usedInput = input;
    let risk = 0;
    if (this.o.strategy !== 'none') {
      const before = await this.estimate(input);
      risk = before.probability;
      if (risk >= tau) {
        const atRisk = Object.entries(before.risk)
          .filter(([, r]) => r > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([n]) => n);
        switch (this.o.strategy) {
          case 'resample': {
            const n = Math.max(1, this.o.candidates ?? 5);
            let best: { out: O; risk: number } | undefined;
            for (let c = 0; c < n; c++) {
              const out = await this.o.generate(this.history, input);
              const r = (await this.estimate(input, out)).probability;
              if (!best || r < best.risk) best = { out, risk: r };
              if (r === 0) break;
            }
            output = best!.out;
            intervention = { kind: 'resample', candidates: n, chosenRisk: best!.risk };
            break;
          }
          case 'inject': {
            const text = this.reminder(atRisk);
            const inject = this.o.inject ?? defaultInject<I>;
            usedInput = inject(input, text);
            output = await this.o.generate(this.history, usedInput);
            intervention = { kind: 'inject', properties: atRisk, originalInput: input, text };
            break;
          }
          case 'switch':
            output = await this.o.alternative!(this.history, input);
            intervention = { kind: 'switch', properties: atRisk };
            break;
        }
      }
    }
    if (output === undefined) output = await this.o.generate(this.history, usedInput);
    const turn = { input: usedInput, output };
    const verdicts = this.monitor.step(this.o.label(turn, this.history));
    this.history.push(turn);
    const entry: TraceEntry<I, O> = { step: this.trace.length, ...turn, risk, ...(intervention ? { intervention } : {}), verdicts };
    this.trace.push(entry);
    return entry;
  }

  /** The constraint-guided prompt text naming the properties at risk. */
  reminder(names: readonly string[]): string {
    const props = this.o.properties.filter((p) => names.includes(p.name));
    const lines = (props.length > 0 ? props : this.o.properties).map(
      (p) => `- ${p.description ?? describeLtl(p.formula)} (rule "${p.name}")`,
    );
    return `Important: your next output is likely to break ${lines.length === 1 ? 'this rule' : 'these rules'}; follow ${lines.length === 1 ? 'it' : 'them'}:\n${lines.join('\n')}`;
  }
}

function defaultInject<I>(input: I, reminder: string): I {
  if (typeof input === 'string') return `${input}\n\n${reminder}` as I;
  throw new Error("strategy 'inject' on non-string inputs needs an `inject(input, reminder)` function");
}

/** A plain-English reading of a formula, for reminders ("always, if req then in the next step ack"). */
export function describeLtl(n: LtlNode): string {
  const d = (x: LtlNode): string => {
    const s = describeLtl(x);
    return x.op === 'ap' || x.op === 'true' || x.op === 'false' || x.op === '!' ? s : `(${s})`;
  };
  switch (n.op) {
    case 'true':
      return 'true';
    case 'false':
      return 'false';
    case 'ap':
      return n.name;
    case '!':
      return n.arg.op === 'ap' ? `not ${n.arg.name}` : `it is not the case that ${d(n.arg)}`;
    case 'X':
      return `in the next step ${d(n.arg)}`;
    case 'F':
      return `eventually ${d(n.arg)}`;
    case 'G':
      return `always ${d(n.arg)}`;
    case '&':
      return n.args.map(d).join(' and ');
    case '|':
      return n.args.map(d).join(' or ');
    case '->':
      return `if ${d(n.left)} then ${d(n.right)}`;
    case '<->':
      return `${d(n.left)} exactly when ${d(n.right)}`;
    case 'xor':
      return `either ${d(n.left)} or ${d(n.right)} but not both`;
    case 'U':
      return `${d(n.left)} until ${d(n.right)} (which must happen)`;
    case 'W':
      return `${d(n.left)} unless ${d(n.right)}`;
    case 'R':
      return `${d(n.right)} until and including when ${d(n.left)}, or forever`;
    case 'M':
      return `${d(n.right)} until and including when ${d(n.left)} (which must happen)`;
  }
}
