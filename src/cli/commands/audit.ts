/**
 * `tslc audit --spec rules.ltl[.json] <log.jsonl|log.csv|->`: check a finished log against temporal
 * rules, per run and per property. Exit 0 when nothing is violated, 1 when something is, 2 for
 * input errors (bad rules, unreadable log, a column or field the rules read that the log lacks,
 * malformed line under --strict). The log is streamed (a file, a FIFO, or stdin), and so is the
 * `--json` output: memory stays bounded however long the log or however many its runs.
 */
import { statSync } from 'node:fs';
import { FieldCheckError, MalformedLineError, auditLog, type AuditMissingPolicy, type AuditReport } from '../../audit/audit.js';
import { JsonReportWriter } from '../../audit/json-report.js';
import { formatOf, readLog, type LogFormat } from '../../audit/logs.js';
import { ViolationSample, closedEarlyNote, renderReport } from '../../audit/report.js';
import { combineRules, parseLabelsFile, parseRules } from '../../audit/rules.js';
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { LabelRuleError } from '../../../runtime/monitor/label.js';
import { type EndSemantics, MonitorLimitError } from '../../../runtime/monitor/progression.js';
import { propositionsOf } from '../../audit/fields.js';
import { modelLabels, type ModelLabels } from '../../audit/llm-labels.js';
import { isLlmError } from '../../../runtime/llm/errors.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile, registerSource, renderDiagnostics } from '../io.js';

/** Paths that name this process's standard input (opened as such: a socket cannot be reopened by path). */
const STDIN_PATHS = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/**
 * The log argument. yargs turns a lone `-` positional into '' (yargs/yargs-parser#381), so an
 * empty value with `-` on the command line is stdin.
 */
function logArgument(value: unknown): string {
  const text = value === undefined ? '' : String(value);
  if (text === '' && process.argv.slice(2).includes('-')) return '-';
  if (text === '') throw new UserError(error('no log given: name a file, or - for standard input', undefined, 'usage'));
  return text;
}

/** Regular files, FIFOs and terminals can be streamed; say why anything else cannot. */
function checkReadable(path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(error(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`, undefined, 'io'));
  }
  if (st.isDirectory()) throw new UserError(error(`cannot read ${path}: it is a directory`, undefined, 'io'));
  if (!st.isFile() && !st.isFIFO() && !st.isCharacterDevice()) {
    throw new UserError(error(`cannot read ${path}: not a file, pipe or terminal`, undefined, 'io'));
  }
}

function positiveInteger(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UserError(error(`${flag} must be a positive whole number, not '${String(value)}'`, undefined, 'usage'));
  return n;
}

/** `--label-model`: the propositions with a prompt are labelled by the model (see src/audit/llm-labels.ts). */
function labelModel(
  args: Record<string, unknown>,
  properties: readonly { readonly formula: Parameters<typeof propositionsOf>[0] }[],
  labels: Parameters<typeof modelLabels>[0]['rules'],
  prompts: Readonly<Record<string, string>>,
  labelsFile: string,
): ModelLabels | undefined {
  const model = typeof args['label-model'] === 'string' ? args['label-model'] : undefined;
  const budget = positiveInteger(args['label-budget'], '--label-budget');
  const cacheDir = typeof args['label-cache'] === 'string' ? args['label-cache'] : undefined;
  if (model === undefined) {
    if (budget !== undefined || cacheDir !== undefined) throw new UserError(error('--label-budget and --label-cache need --label-model', undefined, 'usage'));
    return undefined;
  }
  const used = new Set(properties.flatMap((p) => [...propositionsOf(p.formula)]));
  const asked = Object.keys(prompts).filter((p) => used.has(p));
  if (asked.length === 0) {
    throw new UserError(
      error(
        `--label-model needs prompts: ${labelsFile} has no "prompts" for the propositions the rules use (${[...used].sort().join(', ')}); ` +
          'add "prompts": { "<proposition>": "<when it holds, in plain English>" } to the labels file',
        undefined,
        'usage',
      ),
    );
  }
  try {
    return modelLabels({ model, prompts, used, ...(labels ? { rules: labels } : {}), ...(budget !== undefined ? { maxCalls: budget } : {}), ...(cacheDir ? { cacheDir } : {}) });
  } catch (err) {
    if (isLlmError(err)) throw new UserError(error(`--label-model: ${err.message}`, undefined, 'config'));
    throw err;
  }
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const specPaths = (Array.isArray(args.spec) ? args.spec : [args.spec]).map(String);
  const specPath = specPaths.join(', ');
  const logArg = logArgument(args.log);
  const stdin = STDIN_PATHS.has(logArg);
  const logName = stdin ? (logArg === '-' ? '<stdin>' : logArg) : logArg;
  const rules = combineRules(specPaths.map((p) => parseRules(readUserFile(p), p)));
  const labelsPath = typeof args.labels === 'string' ? args.labels : undefined;
  const labelCfg = labelsPath ? parseLabelsFile(readUserFile(labelsPath), labelsPath) : {};
  const semantics = String(args.semantics ?? 'ltl3') as EndSemantics;
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${semantics}'`, undefined, 'usage'));
  const maxOpenRuns = positiveInteger(args['max-open-runs'], '--max-open-runs');
  if (!stdin) checkReadable(logArg);
  const format: LogFormat = args.format === 'csv' || args.format === 'jsonl' ? args.format : formatOf(logArg);
  const columnsFlag = typeof args.columns === 'string' ? args.columns.split(',').map((c) => c.trim()) : undefined;
  const columns = columnsFlag ?? labelCfg.columns ?? rules.columns;
  const missingFlag: AuditMissingPolicy | undefined = args.missing === 'check' || args.missing === 'error' || args.missing === 'false' ? args.missing : undefined;
  const groupBy = typeof args['group-by'] === 'string' ? args['group-by'] : (labelCfg.groupBy ?? rules.groupBy);
  const labels = rules.labels || labelCfg.labels ? { ...rules.labels, ...labelCfg.labels } : undefined;
  const models = labelModel(args, rules.properties, labels, { ...rules.prompts, ...labelCfg.prompts }, labelsPath ?? specPath);

  // Complete LTL3 verdicts need the automata layer; load it only when asked.
  const automata = args.complete
    ? await import('../../audit/automaton.js').then((m) => rules.properties.map((p) => m.buildMonitorAutomaton(p.formula)))
    : undefined;
  // Outcomes are streamed out (JSON) or sampled (text) as runs close; none is kept.
  const json = args.json ? new JsonReportWriter(process.stdout, { spec: specPath, log: logName }) : undefined;
  const sample = new ViolationSample(rules.properties.length);
  let report: AuditReport;
  try {
    report = await auditLog(readLog(stdin ? '-' : logArg, { format, ...(columns ? { columns } : {}) }), {
      properties: rules.properties,
      labels,
      missing: missingFlag ?? labelCfg.missing ?? rules.missing ?? 'check',
      groupBy,
      contiguous: typeof args.contiguous === 'boolean' ? args.contiguous : (labelCfg.contiguous ?? rules.contiguous ?? false),
      semantics,
      recovery: args.recovery !== false,
      strict: Boolean(args.strict),
      ...(maxOpenRuns !== undefined ? { maxOpenRuns } : {}),
      keepRuns: false,
      onRun: json ? (r) => json.run(r) : (r) => sample.add(r),
      ...(automata ? { automata } : {}),
      ...(models ? { delegate: models } : {}),
    });
  } catch (err) {
    if (isLlmError(err)) {
      // The audit stopped part-way (budget, provider failure): its verdicts are unknown, not clean.
      const d = error(`--label-model: ${err.message}${models ? ` (after ${models.budget.calls} labelling request(s))` : ''}; the audit did not finish`, undefined, 'label-model');
      process.stderr.write(renderDiagnostics([d]) + '\n');
      return ExitCode.unknown;
    }
    if (err instanceof MalformedLineError) {
      throw new UserError(error(`malformed line (--strict): ${err.reason}`, { file: logName, line: err.line, col: 1 }, 'malformed'));
    }
    if (err instanceof FieldCheckError) {
      // Show the header line under the message when we have it.
      if (err.text !== undefined) registerSource(logName, '\n'.repeat(err.line - 1) + err.text);
      throw new UserError(error(err.detail, { file: logName, line: err.line, col: err.col, ...(err.length !== undefined ? { length: err.length } : {}) }, 'missing-field'));
    }
    if (err instanceof MonitorLimitError) throw new UserError(error(err.message, undefined, 'limit'));
    if (err instanceof LabelRuleError) {
      throw new UserError(error(`${labelsPath ?? specPath}: labels.${err.message}`, undefined, 'labels'));
    }
    throw err;
  }

  if (json) await json.end(report);
  else process.stdout.write(renderReport(report, { witnesses: Boolean(args.witness), logName, listed: sample }) + '\n');
  if (models) {
    const u = models.model.usage.total();
    process.stderr.write(
      `labels of ${models.propositions.join(', ')} by ${models.model.id}${models.model.simulated ? ' (simulated)' : ''}: ${u.calls} request(s), ${u.cachedCalls} cached, budget ${models.budget.limits.maxCalls}\n`,
    );
  }
  if (report.closedEarly.count > 0 && json) process.stderr.write(closedEarlyNote(report) + '\n');
  // Nothing in the log could be read (binary file, wrong --format): an input error, not a clean
  // audit, so CI does not pass on a log it never looked at.
  if (report.malformed.count > 0 && report.events === 0) {
    const d = error(`every line of ${logName} was malformed; check --format and --columns`, undefined, 'malformed');
    if (!args.json) process.stderr.write(renderDiagnostics([d]) + '\n');
    return ExitCode.inputError;
  }
  return report.violatedRuns > 0 ? ExitCode.failure : ExitCode.ok;
}


