/**
 * `judge`: the LLM-as-judge baseline scored against the runtime monitor on a labelled log — what
 * `tslc judge` prints (precision, recall and F1 per property; src/audit/judge.ts). Bad input is
 * an input error in `errors` (the CLI's exit 2); a judge or labelling model that cannot finish
 * (budget, provider failure) is exit 3 with its reason, and no report.
 */
import type { JudgeReport } from '../audit/judge.js';
import type { AuditMissingPolicy } from '../audit/audit.js';
import type { LogFormat } from '../audit/logs.js';
import { type Diagnostic, error, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { errorAtLine, readUserFile } from '../diagnostics/sources.js';
import type { Model } from '../../runtime/llm/model.js';
import { catchingUserErrors, type Outcome, pathOf, type SpecSource, textOf } from './inputs.js';

export interface JudgeOptions {
  /** Rules: `rules.ltl` (the English above a rule is given to the judge) or `rules.json`; several combine. */
  readonly rules: SpecSource | readonly SpecSource[];
  /** labels.json: proposition → condition (the ground truth's labels), `columns`, `missing`, `groupBy`, `prompts`. */
  readonly labels?: SpecSource;
  /** The field naming the run an event belongs to. */
  readonly groupBy?: string;
  /** End of log for the monitor's ground truth: LTL3 (default) or LTLf. */
  readonly semantics?: 'ltl3' | 'ltlf';
  /** Log format (default: from the log's name; JSONL for lines in memory). */
  readonly format?: LogFormat;
  /**
   * The judge: a model (`sim`, the default, is simulated and says so; `sim:<seed>?evaluatorError=p`,
   * `openai:<model>`, `openai-compatible:<url>#<model>`) or a `Model` object.
   */
  readonly judgeModel?: string | Model;
  /** At most this many judge requests; past it the harness stops: exit 3. */
  readonly judgeBudget?: number;
  /** Label the propositions that have a prompt with this model instead of the labels' conditions. */
  readonly labelModel?: string;
  /** At most this many labelling requests (needs `labelModel`). */
  readonly labelBudget?: number;
  /** The log's name in diagnostics (default: its path, `<log>` for lines in memory). */
  readonly logName?: string;
}

export interface JudgeResult extends Outcome {
  /** Precision, recall and F1 per property (absent when the harness could not finish). */
  readonly report?: JudgeReport;
}

/** Scores a judge on `log`: a path or the log's text (one string or chunks). Exit 0 with a report. */
export async function judge(log: string | AsyncIterable<Buffer | string> | { readonly text: string; readonly path?: string }, options: JudgeOptions): Promise<JudgeResult> {
  return catchingUserErrors(
    () => judgeOrThrow(log, options),
    (errors) => ({ errors, warnings: [], exitCode: ExitCode.inputError }),
  );
}

function positiveWhole(value: number | undefined, flag: string): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
    throw new UserError(error(`${flag} must be a positive whole number, not '${String(value)}'`, undefined, 'usage'));
  }
}

async function judgeOrThrow(log: string | AsyncIterable<Buffer | string> | { readonly text: string; readonly path?: string }, options: JudgeOptions): Promise<JudgeResult> {
  const { FieldCheckError, MalformedLineError } = await import('../audit/audit.js');
  const { judgeAgainstMonitor, LabelModelError, ruleCommentDescriptions } = await import('../audit/judge.js');
  const { formatOf, readLog } = await import('../audit/logs.js');
  const { combineRules, parseLabelsFile, parseRules } = await import('../audit/rules.js');
  const { LabelRuleError } = await import('../../runtime/monitor/label.js');
  const { isLlmError } = await import('../../runtime/llm/errors.js');
  const ruleSources: readonly SpecSource[] = Array.isArray(options.rules) ? options.rules : [options.rules as SpecSource];
  if (ruleSources.length === 0) throw new UserError(error('name at least one rules file', undefined, 'usage'));
  const texts = ruleSources.map((s) => [pathOf(s), textOf(s) ?? readUserFile(pathOf(s))] as const);
  const rules = combineRules(texts.map(([p, t]) => parseRules(t, p)));
  // The Appendix D rule files keep the paper's English above each rule: the judge is told that.
  const descriptions = new Map(texts.flatMap(([p, t]) => (/\.json$/i.test(p) ? [] : [...ruleCommentDescriptions(t)])));
  const labelsName = options.labels ? pathOf(options.labels) : undefined;
  const labelCfg = options.labels ? parseLabelsFile(textOf(options.labels) ?? readUserFile(pathOf(options.labels)), pathOf(options.labels)) : {};
  const semantics = options.semantics ?? 'ltl3';
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${String(semantics)}'`, undefined, 'usage'));
  positiveWhole(options.judgeBudget, '--judge-budget');
  positiveWhole(options.labelBudget, '--label-budget');
  if (options.labelBudget !== undefined && options.labelModel === undefined) throw new UserError(error('--label-budget needs --label-model', undefined, 'usage'));
  // The judge needs each run as a whole, so the log is read up front: a missing file is an input
  // error, not a failure half-way.
  const path = typeof log === 'string' ? log : 'text' in log ? log.path : undefined;
  const logName = options.logName ?? path ?? '<log>';
  const lines: AsyncIterable<Buffer | string> =
    typeof log === 'string'
      ? (async function* () {
          yield readUserFile(log);
        })()
      : 'text' in log
        ? (async function* () {
            yield log.text;
          })()
        : log;
  const format: LogFormat = options.format ?? (path !== undefined ? formatOf(path) : 'jsonl');
  const groupBy = options.groupBy ?? labelCfg.groupBy ?? rules.groupBy;
  const labels = rules.labels || labelCfg.labels ? { ...rules.labels, ...labelCfg.labels } : undefined;
  const missing: AuditMissingPolicy = labelCfg.missing ?? rules.missing ?? 'check';
  try {
    const report = await judgeAgainstMonitor(readLog(lines, { format, ...(labelCfg.columns ? { columns: labelCfg.columns } : {}) }), {
      properties: rules.properties,
      ...(labels ? { labels } : {}),
      prompts: { ...rules.prompts, ...labelCfg.prompts },
      descriptions,
      ...(groupBy !== undefined ? { groupBy } : {}),
      semantics,
      missing,
      model: options.judgeModel ?? 'sim',
      ...(options.judgeBudget !== undefined ? { maxCalls: options.judgeBudget } : {}),
      ...(options.labelModel !== undefined ? { labelModel: options.labelModel } : {}),
      ...(options.labelBudget !== undefined ? { labelBudget: options.labelBudget } : {}),
    });
    return { report, errors: [], warnings: [], exitCode: ExitCode.ok };
  } catch (err) {
    const unfinished = (flag: string, message: string, code: string): JudgeResult => {
      const d: Diagnostic = error(`${flag}: ${message}; the harness did not finish`, undefined, code);
      return { errors: [d], warnings: [], exitCode: ExitCode.unknown };
    };
    const labelErr = err instanceof LabelModelError ? err.cause : undefined;
    if (labelErr) {
      if (labelErr.kind === 'config') throw new UserError(error(`--label-model: ${labelErr.message}`, undefined, 'config'));
      return unfinished('--label-model', labelErr.message, 'label-model');
    }
    if (isLlmError(err)) {
      if (err.kind === 'config') throw new UserError(error(`--judge-model: ${err.message}`, undefined, 'config'));
      return unfinished('--judge-model', err.message, 'judge-model');
    }
    if (err instanceof MalformedLineError) {
      throw new UserError(errorAtLine(`malformed line: ${err.reason}`, { file: logName, line: err.line, text: err.text, col: err.col }, 'malformed'));
    }
    if (err instanceof FieldCheckError) throw new UserError(error(err.detail, { file: logName, line: err.line, col: err.col }, 'missing-field'));
    if (err instanceof LabelRuleError) throw new UserError(error(`${labelsName ?? texts.map(([p]) => p).join(', ')}: labels.${err.message}`, undefined, 'labels'));
    throw err;
  }
}
