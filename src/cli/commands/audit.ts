/**
 * `tslc audit --spec rules.ltl[.json] <log.jsonl|log.csv|->`: check a finished log against temporal
 * rules, per run and per property. Exit 0 when nothing is violated, 1 when something is, 2 for
 * input errors (bad rules, unreadable log, a column or field the rules read that the log lacks,
 * malformed line under --strict). The log is streamed (a file, a FIFO, or stdin), and so is the
 * `--json` output: memory stays bounded however long the log or however many its runs. The work
 * is the library's `audit` (src/api/audit.ts); this module reads flags and prints.
 */
import type { AuditMissingPolicy } from '../../audit/audit.js';
import { JsonReportWriter } from '../../audit/json-report.js';
import { ViolationSample, closedEarlyNote, renderReport } from '../../audit/report.js';
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { audit } from '../../api/audit.js';
import { renderDiagnostics } from '../io.js';
import { isStdinPath, STDIN_PATH } from '../../diagnostics/read-input.js';

/** The log argument (a lone `-` arrives as STDIN_PATH: see markStdinArguments). */
function logArgument(value: unknown): string {
  const text = value === undefined ? '' : String(value);
  if (text === '') throw new UserError(error('no log given: name a file, or - for standard input', undefined, 'usage'));
  return text;
}

function positiveInteger(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UserError(error(`${flag} must be a positive whole number, not '${String(value)}'`, undefined, 'usage'));
  return n;
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const specPaths = (Array.isArray(args.spec) ? args.spec : [args.spec]).map(String);
  const logArg = logArgument(args.log);
  // Opened as this process's stdin, not by path: a socket cannot be reopened by path.
  const stdin = isStdinPath(logArg);
  const logName = stdin ? (logArg === '-' ? STDIN_PATH : logArg) : logArg;
  const specsOnStdin = [...specPaths, ...(typeof args.labels === 'string' ? [args.labels] : [])].filter(isStdinPath).length;
  if (specsOnStdin > 0 && (stdin || specsOnStdin > 1)) throw new UserError(error('standard input (-) can be given only once', undefined, 'usage'));
  const semantics = String(args.semantics ?? 'ltl3');
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${semantics}'`, undefined, 'usage'));
  const maxOpenRuns = positiveInteger(args['max-open-runs'], '--max-open-runs');
  const missing: AuditMissingPolicy | undefined = args.missing === 'check' || args.missing === 'error' || args.missing === 'false' ? args.missing : undefined;
  // Outcomes are streamed out (JSON) or sampled (text) as runs close; none is kept.
  let json: JsonReportWriter | undefined;
  let sample: ViolationSample | undefined;
  const result = await audit(stdin ? '-' : logArg, {
    rules: specPaths,
    labels: typeof args.labels === 'string' ? args.labels : undefined,
    logName,
    semantics,
    ...(maxOpenRuns !== undefined ? { maxOpenRuns } : {}),
    ...(missing ? { missing } : {}),
    format: args.format === 'csv' || args.format === 'jsonl' ? args.format : undefined,
    columns: typeof args.columns === 'string' ? args.columns.split(',').map((c) => c.trim()) : undefined,
    groupBy: typeof args['group-by'] === 'string' ? args['group-by'] : undefined,
    contiguous: typeof args.contiguous === 'boolean' ? args.contiguous : undefined,
    recovery: args.recovery !== false,
    strict: Boolean(args.strict),
    complete: Boolean(args.complete),
    keepRuns: false,
    onRun: (r) => {
      if (args.json) {
        json ??= new JsonReportWriter(process.stdout, { spec: specPaths.join(', '), log: logName });
        return json.run(r);
      }
      sample ??= new ViolationSample(r.properties.length);
      sample.add(r);
    },
  });
  const report = result.report;
  if (!report) throw new UserError(result.errors);
  if (args.json) {
    json ??= new JsonReportWriter(process.stdout, { spec: specPaths.join(', '), log: logName });
    await json.end(report);
  } else process.stdout.write(renderReport(report, { witnesses: Boolean(args.witness), logName, listed: sample }) + '\n');
  if (report.closedEarly.count > 0 && args.json) process.stderr.write(closedEarlyNote(report) + '\n');
  if (result.errors.length > 0 && !args.json) process.stderr.write(renderDiagnostics(result.errors) + '\n');
  return result.exitCode;
}
