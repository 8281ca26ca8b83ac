/**
 * The LLM-as-judge baseline and its F1 harness (paper 002, Sec. 5.1 and Table 2): audit labelled
 * runs with the TRAC monitor (rule-based labels: the ground truth), give every run to a judge model
 * with the rules in English (runtime/monitor/llm-judge.ts), and score the judge against the monitor
 * with precision, recall and F1 per property and over all properties.
 *
 * What counts as one instance: a (run, property, kind) triple, kind being "violated" or
 * "satisfied" — the paper scores the detection of both. The monitor has the instance when its
 * verdict for the run reached that kind at least once; the judge has it when it names that rule
 * with that kind on any action of the run. A judge reply with no readable action line counts as no
 * findings (and is counted as unreadable): the baseline's failures are its own, never the monitor's.
 */
import { isLlmError, type LlmError } from '../../runtime/llm/errors.js';
import type { Model } from '../../runtime/llm/model.js';
import { createModel, parseModelSpec } from '../../runtime/llm/config.js';
import { type ReliableModel, withReliability } from '../../runtime/llm/reliable.js';
import { CallBudget } from '../../runtime/llm/usage.js';
import type { EventRecord, LabelRules } from '../../runtime/monitor/label.js';
import { describeLtl } from '../../runtime/monitor/intervene.js';
import { type JudgeRule, judgePrompt, parseJudgeAnswer, renderAction } from '../../runtime/monitor/llm-judge.js';
import type { EndSemantics } from '../../runtime/monitor/progression.js';
import { type JudgeTruth, simulatedJudgeModel } from '../../runtime/monitor/sim-judge.js';
import { auditLog, type AuditMissingPolicy, type RunOutcome } from './audit.js';
import { propositionsOf } from './fields.js';
import { modelLabels } from './llm-labels.js';
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { LogItem } from './logs.js';
import type { AuditRule } from './rules.js';

/** Default `--judge-budget`: judge requests (one per run). */
export const DEFAULT_JUDGE_BUDGET = 500;

export interface JudgeHarnessOptions {
  readonly properties: readonly AuditRule[];
  /** Rule-based labels: the monitor's (ground-truth) labelling function. */
  readonly labels?: LabelRules;
  /** Rule name → English statement, for rules without a `description` (see `ruleCommentDescriptions`). */
  readonly descriptions?: ReadonlyMap<string, string>;
  /** Proposition → plain English; shown to the judge as a glossary under the rules. */
  readonly prompts?: Readonly<Record<string, string>>;
  readonly groupBy?: string;
  readonly semantics?: EndSemantics;
  readonly missing?: AuditMissingPolicy;
  /**
   * The judge: a model, or a model string (`sim`, `sim:<seed>?evaluatorError=p`, `openai:…`). The
   * simulated judge answers from the monitor's verdicts with each decision wrong with probability p.
   */
  readonly model: Model | string;
  /** Maximum judge requests (default 500); an exhausted budget stops the harness. */
  readonly maxCalls?: number;
  /** Fields not shown to the judge (default: the group-by field and `step`). */
  readonly hide?: readonly string[];
  /**
   * Also score TRAC_R with model labels (the paper's third approach): the propositions with a
   * prompt are labelled by this model (`sim?evaluatorError=p` flips each label with probability p),
   * and the monitor's verdicts on those labels are scored against the rule-based ground truth.
   */
  readonly labelModel?: string;
  /** Maximum labelling requests (one per event; default 1000). */
  readonly labelBudget?: number;
}

/** One approach's scores: per property, over all, and per kind. */
export interface ApproachScores {
  readonly rows: readonly F1Row[];
  readonly total: F1Row;
  readonly byKind: { readonly violation: F1Row; readonly satisfaction: F1Row };
}

/** Precision, recall and F1 of one property (or of all, in `total`). */
export interface F1Row {
  readonly property: string;
  /** Instances the monitor found (the ground truth). */
  readonly monitor: number;
  /** Instances the judge reported. */
  readonly judge: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  /** null when undefined (0/0): the judge reported nothing, or there was nothing to find. */
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
}

export interface JudgeReport {
  readonly model: string;
  readonly simulated: boolean;
  readonly runs: number;
  readonly events: number;
  /** Runs whose judge reply had no readable action line. */
  readonly unreadable: number;
  /** Judge requests sent. */
  readonly calls: number;
  readonly semantics: EndSemantics;
  readonly rows: readonly F1Row[];
  /** All properties together (micro-averaged). */
  readonly total: F1Row;
  /** All properties, violations only and satisfactions only. */
  readonly byKind: { readonly violation: F1Row; readonly satisfaction: F1Row };
  /** With `labelModel`: TRAC_R on the model's labels, scored the same way. */
  readonly monitorWithModelLabels?: ApproachScores & { readonly labelModel: string; readonly simulated: boolean; readonly requests: number };
}

type Kind = 'violation' | 'satisfaction';
type Cell = { tp: number; fp: number; fn: number };

/** Counts true/false positives and misses per property and per kind. */
class Scorer {
  private readonly counts: Cell[];
  private readonly kinds: Record<Kind, Cell> = { violation: { tp: 0, fp: 0, fn: 0 }, satisfaction: { tp: 0, fp: 0, fn: 0 } };
  constructor(private readonly names: readonly string[]) {
    this.counts = names.map(() => ({ tp: 0, fp: 0, fn: 0 }));
  }
  add(property: number, kind: Kind, inTruth: boolean, found: boolean): void {
    const cell = inTruth && found ? 'tp' : found ? 'fp' : inTruth ? 'fn' : undefined;
    if (cell === undefined) return;
    this.counts[property][cell]++;
    this.kinds[kind][cell]++;
  }
  scores(): ApproachScores {
    const sum = (k: keyof Cell) => this.counts.reduce((s, c) => s + c[k], 0);
    const { violation, satisfaction } = this.kinds;
    return {
      rows: this.names.map((name, i) => f1Row(name, this.counts[i].tp, this.counts[i].fp, this.counts[i].fn)),
      total: f1Row('(all properties)', sum('tp'), sum('fp'), sum('fn')),
      byKind: {
        violation: f1Row('(violations only)', violation.tp, violation.fp, violation.fn),
        satisfaction: f1Row('(satisfactions only)', satisfaction.tp, satisfaction.fp, satisfaction.fn),
      },
    };
  }
}

/** Precision TP/(TP+FP), recall TP/(TP+FN), F1 their harmonic mean; null where a ratio is 0/0. */
export function f1Row(property: string, tp: number, fp: number, fn: number): F1Row {
  const precision = tp + fp === 0 ? null : tp / (tp + fp);
  const recall = tp + fn === 0 ? null : tp / (tp + fn);
  // With both defined, F1 = 2TP / (2TP + FP + FN); it is 0 when either is 0.
  const f1 = precision === null || recall === null ? (tp + fp + fn === 0 ? null : 0) : (2 * tp) / (2 * tp + fp + fn);
  return { property, monitor: tp + fn, judge: tp + fp, tp, fp, fn, precision, recall, f1 };
}

/**
 * `# Rule N: <English>` comments right above a rule of a text rule file (the Appendix D files keep
 * the paper's English statement there): rule name → that English. Other comments are ignored.
 */
export function ruleCommentDescriptions(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let statement: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const comment = /^\s*(?:#|\/\/)\s*(.*)$/.exec(line);
    if (comment) {
      const m = /^Rule\s+\d+\s*:\s*(.+)$/i.exec(comment[1]);
      if (m) statement = m[1].trim();
      continue;
    }
    const rule = /^([A-Za-z_][\w.-]*)\s*:(?!=)/.exec(line);
    if (rule && statement !== undefined) out.set(rule[1], statement);
    if (!/^\s/.test(line) || line.trim() === '') statement = undefined;
  }
  return out;
}

/** The English a judge is given for a rule: its description, else its `# Rule N:` comment, else a reading of its formula. */
export function judgeRules(properties: readonly AuditRule[], prompts?: Readonly<Record<string, string>>, descriptions?: ReadonlyMap<string, string>): JudgeRule[] {
  const glossary = prompts ? Object.entries(prompts) : [];
  return properties.map((p) => {
    const english = p.description ?? descriptions?.get(p.name) ?? describeLtl(p.formula);
    const used = glossary.filter(([name]) => new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(english));
    const where = used.length > 0 ? ` (where ${used.map(([n, t]) => `${n}: ${t}`).join('; ')})` : '';
    return { name: p.name, text: `${english}${where}` };
  });
}

interface Run {
  readonly outcome: RunOutcome;
  readonly events: EventRecord[];
}

/** Groups events as the audit does (the group-by field's text, or its JSON) and pairs them with outcomes. */
function runsOf(items: readonly LogItem[], outcomes: readonly RunOutcome[], groupBy: string | undefined): Run[] {
  const events = items.filter((i): i is Extract<LogItem, { kind: 'event' }> => i.kind === 'event');
  const keyOf = (e: EventRecord): string | undefined => {
    if (groupBy === undefined) return '';
    const v = Object.hasOwn(e, groupBy) ? e[groupBy] : undefined;
    return v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
  };
  return outcomes.map((outcome) => {
    // A reused id is audited as `id@lineN`; its events are those of the id in the run's line range.
    const key = outcome.run.replace(/@line\d+$/, '');
    const mine = events.filter((e) => e.line >= outcome.firstLine && e.line <= outcome.lastLine && keyOf(e.event) === key).map((e) => e.event);
    return { outcome, events: mine };
  });
}

function monitorTruth(outcome: RunOutcome): Map<string, JudgeTruth> {
  const last = Math.max(0, outcome.events - 1);
  return new Map(
    outcome.properties.map((p) => {
      const violated = p.violations > 0 || p.verdict === 'violated';
      const satisfied = p.satisfactions > 0 || p.verdict === 'satisfied';
      return [p.name, { ...(violated ? { violatedAt: p.firstViolationStep ?? last } : {}), ...(satisfied ? { satisfiedAt: last } : {}) }];
    }),
  );
}

export async function judgeAgainstMonitor(input: AsyncIterable<LogItem> | Iterable<LogItem>, options: JudgeHarnessOptions): Promise<JudgeReport> {
  // The judge needs each run's events as a whole, so the log is held in memory (harness logs are small).
  const items: LogItem[] = [];
  for await (const item of input) items.push(item);
  const semantics = options.semantics ?? 'ltl3';
  const audit = await auditLog(items, monitorOptions(options, semantics));
  const runs = runsOf(items, audit.runs, options.groupBy);
  const hide = options.hide ?? [...(options.groupBy !== undefined ? [options.groupBy] : []), 'step'];
  const actionsOf = (run: Run) => run.events.map((e) => renderAction(e, hide));
  const rules = judgeRules(options.properties, options.prompts, options.descriptions);

  let inner: Model;
  if (typeof options.model !== 'string') inner = options.model;
  else {
    const spec = parseModelSpec(options.model);
    if (spec.kind === 'sim') {
      const truths = new Map(runs.map((r) => [actionsOf(r).join('\n'), monitorTruth(r.outcome)]));
      inner = simulatedJudgeModel({ truth: (actions) => truths.get(actions.join('\n')), seed: spec.seed, errorRate: spec.evaluatorErrorRate ?? 0 });
    } else inner = createModel(spec);
  }
  const budget = new CallBudget({ maxCalls: options.maxCalls ?? DEFAULT_JUDGE_BUDGET });
  const model: ReliableModel = withReliability(inner, { budget, timeoutMs: 120_000 });

  const names = options.properties.map((p) => p.name);
  const scorer = new Scorer(names);
  let unreadable = 0;
  for (const run of runs) {
    const actions = actionsOf(run);
    const reply = await model.complete(judgePrompt(rules, actions), { temperature: 0 });
    const answer = parseJudgeAnswer(reply.text, rules, actions.length);
    if (!answer.readable) unreadable++;
    const judged = new Set(answer.findings.map((f) => `${f.rule}:${f.kind}`));
    const truth = monitorTruth(run.outcome);
    names.forEach((name, i) => {
      const t = truth.get(name) ?? {};
      scorer.add(i, 'violation', t.violatedAt !== undefined, judged.has(`${i}:violation`));
      scorer.add(i, 'satisfaction', t.satisfiedAt !== undefined, judged.has(`${i}:satisfaction`));
    });
  }
  const labelled = options.labelModel === undefined ? undefined : await scoreModelLabels(items, audit.runs, options, semantics);
  return {
    model: inner.id,
    simulated: inner.simulated,
    runs: runs.length,
    events: audit.events,
    unreadable,
    calls: model.usage.total().calls,
    semantics,
    ...scorer.scores(),
    ...(labelled ? { monitorWithModelLabels: labelled } : {}),
  };
}

/** A failure of the label model, said to be one (the judge model fails with plain `LlmError`s). */
export class LabelModelError extends Error {
  constructor(override readonly cause: LlmError) {
    super(cause.message);
    this.name = 'LabelModelError';
  }
}

function labelling(err: unknown): unknown {
  return isLlmError(err) ? new LabelModelError(err) : err;
}

/** The monitor both scorings run: TRAC_R (with recovery) on the harness's rules and labels. */
function monitorOptions(options: JudgeHarnessOptions, semantics: EndSemantics) {
  return {
    properties: options.properties,
    ...(options.labels ? { labels: options.labels } : {}),
    ...(options.groupBy !== undefined ? { groupBy: options.groupBy } : {}),
    missing: options.missing ?? 'check',
    semantics,
    recovery: true,
  } as const;
}

/** TRAC_R on model labels (paper 002's "TRAC_R + LLM labeling"), scored against the rule-based verdicts. */
async function scoreModelLabels(
  items: readonly LogItem[],
  truthRuns: readonly RunOutcome[],
  options: JudgeHarnessOptions,
  semantics: EndSemantics,
): Promise<NonNullable<JudgeReport['monitorWithModelLabels']>> {
  const used = new Set(options.properties.flatMap((p) => [...propositionsOf(p.formula)]));
  const prompts = options.prompts ?? {};
  if (!Object.keys(prompts).some((p) => used.has(p))) {
    throw new UserError(error('--label-model needs "prompts" in the labels file for the propositions the rules use', undefined, 'usage'));
  }
  let models: ReturnType<typeof modelLabels>;
  try {
    models = modelLabels({
    model: options.labelModel as string,
    prompts,
    used,
    ...(options.labels ? { rules: options.labels } : {}),
    ...(options.labelBudget !== undefined ? { maxCalls: options.labelBudget } : {}),
    });
  } catch (err) {
    throw labelling(err);
  }
  const audit = await auditLog(items, { ...monitorOptions(options, semantics), delegate: models }).catch((err: unknown) => {
    throw labelling(err);
  });
  const found = new Map(audit.runs.map((r) => [r.run, monitorTruth(r)]));
  const names = options.properties.map((p) => p.name);
  const scorer = new Scorer(names);
  for (const run of truthRuns) {
    const truth = monitorTruth(run);
    const mine = found.get(run.run);
    names.forEach((name, i) => {
      const t = truth.get(name) ?? {};
      const f = mine?.get(name) ?? {};
      scorer.add(i, 'violation', t.violatedAt !== undefined, f.violatedAt !== undefined);
      scorer.add(i, 'satisfaction', t.satisfiedAt !== undefined, f.satisfiedAt !== undefined);
    });
  }
  return { ...scorer.scores(), labelModel: models.model.id, simulated: models.model.simulated, requests: models.model.usage.total().calls };
}

const ratio = (x: number | null) => (x === null ? '–' : x.toFixed(2));
const row = (r: F1Row) => `| ${r.property} | ${r.monitor} | ${r.judge} | ${r.tp} | ${r.fp} | ${r.fn} | ${ratio(r.precision)} | ${ratio(r.recall)} | ${ratio(r.f1)} |`;

/** The report as a table in the shape of the paper's Table 2 (per property rather than per environment). */
export function renderJudgeReport(report: JudgeReport): string {
  const head = `LLM-as-judge vs. TRAC monitor (rule-based labels = ground truth), judge ${report.model}${report.simulated ? ' — SIMULATED judge: figures measure the harness, not a real LLM' : ''}`;
  const lines = [
    head,
    `${report.runs} run(s), ${report.events} event(s), ${report.calls} judge request(s), ${report.unreadable} unreadable reply(ies); semantics ${report.semantics}`,
    '',
    '| property | monitor | judge | TP | FP | FN | precision | recall | F1 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[...report.rows, report.total, report.byKind.violation, report.byKind.satisfaction].map(row),
    '',
    'An instance is a (run, property, violated|satisfied) pair; "monitor" and "judge" count the instances each found.',
  ];
  const m = report.monitorWithModelLabels;
  if (m) {
    lines.push(
      '',
      `TRAC_R monitor on model labels (label model ${m.labelModel}${m.simulated ? ', SIMULATED' : ''}, ${m.requests} request(s)) vs. the same ground truth:`,
      '',
      '| property | ground truth | monitor on model labels | TP | FP | FN | precision | recall | F1 |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...[...m.rows, m.total, m.byKind.violation, m.byKind.satisfaction].map(row),
    );
  }
  return lines.join('\n');
}
