/**
 * `tslc judge --spec rules.ltl --labels labels.json <log>`: the LLM-as-judge baseline of paper 002
 * scored against the TRAC monitor (src/audit/judge.ts): precision, recall and F1 per property.
 * Exit 0 when the table was produced, 2 for input errors, 3 when the judge could not finish
 * (budget, provider failure). `--judge-model sim` is the simulated judge and says so in every output.
 */
import { renderJudgeReport } from '../../audit/judge.js';
import { judge } from '../../api/judge.js';
import { UserError, error } from '../../diagnostics/diagnostic.js';
import { ExitCode } from '../exit-codes.js';
import { renderDiagnostics } from '../io.js';

const count = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));

export async function run(args: Record<string, unknown>): Promise<number> {
  const specPaths = (Array.isArray(args.spec) ? args.spec : [args.spec]).map(String);
  const logPath = String(args.log ?? '');
  if (logPath === '') throw new UserError(error('no log given: name a labelled log file', undefined, 'usage'));
  const result = await judge(logPath, {
    rules: specPaths,
    ...(typeof args.labels === 'string' ? { labels: args.labels } : {}),
    ...(typeof args['group-by'] === 'string' ? { groupBy: args['group-by'] } : {}),
    semantics: String(args.semantics ?? 'ltl3') as 'ltl3' | 'ltlf',
    ...(args.format === 'csv' || args.format === 'jsonl' ? { format: args.format } : {}),
    judgeModel: typeof args['judge-model'] === 'string' ? args['judge-model'] : 'sim',
    ...(args['judge-budget'] !== undefined ? { judgeBudget: count(args['judge-budget']) } : {}),
    ...(typeof args['label-model'] === 'string' ? { labelModel: args['label-model'] } : {}),
    ...(args['label-budget'] !== undefined ? { labelBudget: count(args['label-budget']) } : {}),
  });
  if (result.exitCode === ExitCode.inputError) throw new UserError([...result.errors]);
  if (!result.report) {
    process.stderr.write(renderDiagnostics(result.errors) + '\n');
    return result.exitCode;
  }
  process.stdout.write((args.json ? JSON.stringify(result.report, null, 2) : renderJudgeReport(result.report)) + '\n');
  return ExitCode.ok;
}
