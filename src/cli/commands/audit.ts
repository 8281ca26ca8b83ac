/**
 * `tslc audit --spec rules.ltl[.json] <log.jsonl|log.csv>`: check a finished log against temporal
 * rules, per run and per property. Exit 0 when nothing is violated, 1 when something is, 2 for
 * input errors (bad rules, unreadable log, malformed line under --strict).
 */
import { auditLog, MalformedLineError } from '../../audit/audit.js';
import { formatOf, readLog, type LogFormat } from '../../audit/logs.js';
import { renderReport } from '../../audit/report.js';
import { combineRules, parseLabelsFile, parseRules } from '../../audit/rules.js';
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { LabelRuleError } from '../../../runtime/monitor/label.js';
import { type EndSemantics, MonitorLimitError } from '../../../runtime/monitor/progression.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile, renderDiagnostics } from '../io.js';
import { existsSync, statSync } from 'node:fs';

export async function run(args: Record<string, unknown>): Promise<number> {
  const specPaths = (Array.isArray(args.spec) ? args.spec : [args.spec]).map(String);
  const specPath = specPaths.join(', ');
  const logPath = String(args.log);
  const rules = combineRules(specPaths.map((p) => parseRules(readUserFile(p), p)));
  const labelsPath = typeof args.labels === 'string' ? args.labels : undefined;
  const labelCfg = labelsPath ? parseLabelsFile(readUserFile(labelsPath), labelsPath) : {};
  const semantics = String(args.semantics ?? 'ltl3') as EndSemantics;
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${semantics}'`, undefined, 'usage'));
  if (logPath !== '-' && (!existsSync(logPath) || !statSync(logPath).isFile())) {
    throw new UserError(error(`cannot read ${logPath}: no such file`, undefined, 'io'));
  }
  const format: LogFormat = args.format === 'csv' || args.format === 'jsonl' ? args.format : formatOf(logPath);
  const columnsFlag = typeof args.columns === 'string' ? args.columns.split(',').map((c) => c.trim()) : undefined;
  const columns = columnsFlag ?? labelCfg.columns ?? rules.columns;
  const missingFlag = args.missing === 'error' || args.missing === 'false' ? args.missing : undefined;
  const groupBy = typeof args['group-by'] === 'string' ? args['group-by'] : (labelCfg.groupBy ?? rules.groupBy);
  const labels = rules.labels || labelCfg.labels ? { ...rules.labels, ...labelCfg.labels } : undefined;

  // Complete LTL3 verdicts need the automata layer; load it only when asked.
  const automata = args.complete
    ? await import('../../audit/automaton.js').then((m) => rules.properties.map((p) => m.buildMonitorAutomaton(p.formula)))
    : undefined;
  let report;
  try {
    report = await auditLog(readLog(logPath, { format, ...(columns ? { columns } : {}) }), {
      properties: rules.properties,
      labels,
      missing: missingFlag ?? labelCfg.missing ?? rules.missing ?? 'false',
      groupBy,
      contiguous: typeof args.contiguous === 'boolean' ? args.contiguous : (labelCfg.contiguous ?? rules.contiguous ?? false),
      semantics,
      recovery: args.recovery !== false,
      strict: Boolean(args.strict),
      ...(automata ? { automata } : {}),
    });
  } catch (err) {
    if (err instanceof MalformedLineError) {
      throw new UserError(error(`malformed line (--strict): ${err.reason}`, { file: logPath, line: err.line, col: 1 }, 'malformed'));
    }
    if (err instanceof MonitorLimitError) throw new UserError(error(err.message, undefined, 'limit'));
    if (err instanceof LabelRuleError) {
      throw new UserError(error(`${labelsPath ?? specPath}: labels.${err.message}`, undefined, 'labels'));
    }
    throw err;
  }

  if (args.json) {
    process.stdout.write(JSON.stringify({ spec: specPath, log: logPath, ...report }, null, 2) + '\n');
  } else {
    process.stdout.write(renderReport(report, { witnesses: Boolean(args.witness), logName: logPath }) + '\n');
  }
  // Nothing in the log could be read (binary file, wrong --format): an input error, not a clean
  // audit, so CI does not pass on a log it never looked at.
  if (report.malformed.count > 0 && report.events === 0) {
    const d = error(`every line of ${logPath} was malformed; check --format and --columns`, undefined, 'malformed');
    if (!args.json) process.stderr.write(renderDiagnostics([d]) + '\n');
    return ExitCode.inputError;
  }
  const violated = report.summary.some((s) => s.violatedRuns > 0);
  return violated ? ExitCode.failure : ExitCode.ok;
}
