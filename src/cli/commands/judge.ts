/**
 * `tslc judge --spec rules.ltl --labels labels.json <log>`: the LLM-as-judge baseline of paper 002
 * scored against the TRAC monitor (src/audit/judge.ts): precision, recall and F1 per property.
 * Exit 0 when the table was produced, 2 for input errors, 3 when the judge could not finish
 * (budget, provider failure). `--judge-model sim` is the simulated judge and says so in every output.
 */
import { FieldCheckError, MalformedLineError } from '../../audit/audit.js';
import { judgeAgainstMonitor, LabelModelError, renderJudgeReport, ruleCommentDescriptions, type JudgeReport } from '../../audit/judge.js';
import { formatOf, readLog, type LogFormat } from '../../audit/logs.js';
import { combineRules, parseLabelsFile, parseRules } from '../../audit/rules.js';
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { isLlmError } from '../../../runtime/llm/errors.js';
import { LabelRuleError } from '../../../runtime/monitor/label.js';
import type { EndSemantics } from '../../../runtime/monitor/progression.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile, renderDiagnostics } from '../io.js';
import { registerSource, showableLine } from '../../diagnostics/sources.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const specPaths = (Array.isArray(args.spec) ? args.spec : [args.spec]).map(String);
  const logPath = String(args.log ?? '');
  if (logPath === '') throw new UserError(error('no log given: name a labelled log file', undefined, 'usage'));
  const texts = specPaths.map((p) => [p, readUserFile(p)] as const);
  const rules = combineRules(texts.map(([p, t]) => parseRules(t, p)));
  // The Appendix D rule files keep the paper's English above each rule: the judge is told that.
  const descriptions = new Map(texts.flatMap(([p, t]) => (/\.json$/i.test(p) ? [] : [...ruleCommentDescriptions(t)])));
  const labelsPath = typeof args.labels === 'string' ? args.labels : undefined;
  const labelCfg = labelsPath ? parseLabelsFile(readUserFile(labelsPath), labelsPath) : {};
  const semantics = String(args.semantics ?? 'ltl3') as EndSemantics;
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${semantics}'`, undefined, 'usage'));
  const budgetArg = args['judge-budget'];
  const maxCalls = budgetArg === undefined ? undefined : Number(budgetArg);
  if (maxCalls !== undefined && !(Number.isInteger(maxCalls) && maxCalls >= 1)) {
    throw new UserError(error(`--judge-budget must be a positive whole number, not '${String(budgetArg)}'`, undefined, 'usage'));
  }
  const labelBudgetArg = args['label-budget'];
  const labelBudget = labelBudgetArg === undefined ? undefined : Number(labelBudgetArg);
  if (labelBudget !== undefined && !(Number.isInteger(labelBudget) && labelBudget >= 1)) {
    throw new UserError(error(`--label-budget must be a positive whole number, not '${String(labelBudgetArg)}'`, undefined, 'usage'));
  }
  const labelModel = typeof args['label-model'] === 'string' ? args['label-model'] : undefined;
  if (labelBudget !== undefined && labelModel === undefined) throw new UserError(error('--label-budget needs --label-model', undefined, 'usage'));
  // Read up front so a missing file is an input error, not a failure half-way.
  const text = readUserFile(logPath);
  const format: LogFormat = args.format === 'csv' || args.format === 'jsonl' ? args.format : formatOf(logPath);
  const groupBy = typeof args['group-by'] === 'string' ? args['group-by'] : (labelCfg.groupBy ?? rules.groupBy);
  const labels = rules.labels || labelCfg.labels ? { ...rules.labels, ...labelCfg.labels } : undefined;
  const prompts = { ...rules.prompts, ...labelCfg.prompts };
  const model = typeof args['judge-model'] === 'string' ? args['judge-model'] : 'sim';
  let report: JudgeReport;
  try {
    report = await judgeAgainstMonitor(readLog((async function* () { yield text; })(), { format, ...(labelCfg.columns ? { columns: labelCfg.columns } : {}) }), {
      properties: rules.properties,
      ...(labels ? { labels } : {}),
      prompts,
      descriptions,
      ...(groupBy !== undefined ? { groupBy } : {}),
      semantics,
      missing: labelCfg.missing ?? rules.missing ?? 'check',
      model,
      ...(maxCalls !== undefined ? { maxCalls } : {}),
      ...(labelModel !== undefined ? { labelModel } : {}),
      ...(labelBudget !== undefined ? { labelBudget } : {}),
    });
  } catch (err) {
    const labelErr = err instanceof LabelModelError ? err.cause : undefined;
    if (labelErr) {
      if (labelErr.kind === 'config') throw new UserError(error(`--label-model: ${labelErr.message}`, undefined, 'config'));
      process.stderr.write(renderDiagnostics([error(`--label-model: ${labelErr.message}; the harness did not finish`, undefined, 'label-model')]) + '\n');
      return ExitCode.unknown;
    }
    if (isLlmError(err)) {
      const flag = '--judge-model';
      if (err.kind === 'config') throw new UserError(error(`${flag}: ${err.message}`, undefined, 'config'));
      process.stderr.write(renderDiagnostics([error(`${flag}: ${err.message}; the harness did not finish`, undefined, 'judge-model')]) + '\n');
      return ExitCode.unknown;
    }
    if (err instanceof MalformedLineError) {
      const shown = showableLine(err.text, err.col);
      if (shown) registerSource(logPath, '\n'.repeat(err.line - 1) + shown.text);
      throw new UserError(error(`malformed line: ${err.reason}`, { file: logPath, line: err.line, col: shown?.col ?? 1 }, 'malformed'));
    }
    if (err instanceof FieldCheckError) throw new UserError(error(err.detail, { file: logPath, line: err.line, col: err.col }, 'missing-field'));
    if (err instanceof LabelRuleError) throw new UserError(error(`${labelsPath ?? specPaths.join(', ')}: labels.${err.message}`, undefined, 'labels'));
    throw err;
  }
  process.stdout.write((args.json ? JSON.stringify(report, null, 2) : renderJudgeReport(report)) + '\n');
  return ExitCode.ok;
}
