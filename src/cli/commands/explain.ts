/**
 * `tslc explain <spec…>`: why the (composed) spec is unrealizable — the core by file:line, the
 * assumptions it is stated against, and the counterplay story. Several files are composed (their
 * conjunction), so a conflict between two developers' specs shows up as a core across files.
 * Exit: 1 unrealizable (explained), 0 realizable, 3 unknown, 2 input error. The work is the
 * library's `explain` (src/api/explain.ts).
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import { explain } from '../../api/explain.js';
import { diagnosticsToJson, importRootArg, renderDiagnostics } from '../io.js';
import { theoryOption } from '../../frontend/load.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f): f is string => typeof f === 'string');
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
  const seconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UserError({ severity: 'error', message: '--timeout expects a positive number of seconds', code: 'usage' });
  const verbose = Boolean(args.verbose);
  const result = await explain(files, {
    timeout: seconds,
    importRoot: importRootArg(args),
    theory: theoryOption(args.theory),
    onProgress: verbose ? (m) => process.stderr.write(`${m}\n`) : undefined,
  });
  if (result.verdict === 'error') throw new UserError(result.errors);
  const warnings = result.warnings.length > 0 ? { warnings: diagnosticsToJson(result.warnings) } : {};
  if (args.json) {
    let out: Record<string, unknown>;
    if (result.verdict === 'unrealizable') {
      const e = result.explanation;
      out = {
        verdict: result.verdict,
        core: e.core.map(({ kind, location, file, line, text }) => ({ kind, location, file, line, text })),
        context: e.assumptions,
        minimal: e.minimal,
        solverCalls: e.solverCalls,
        seconds: e.seconds,
        budgetSeconds: e.budgetSeconds,
        story: e.story,
      };
    } else out = result.verdict === 'unknown' ? { verdict: result.verdict, reason: result.reason } : { verdict: result.verdict };
    process.stdout.write(JSON.stringify({ ...out, ...warnings }, null, 2) + '\n');
    return result.exitCode;
  }
  if (result.warnings.length > 0) process.stderr.write(renderDiagnostics(result.warnings) + '\n');
  if (result.verdict === 'unrealizable') process.stdout.write(result.explanation.text + '\n');
  else if (result.verdict === 'realizable') process.stdout.write(`${result.spec}: realizable — nothing to explain\n`);
  else process.stdout.write(`${result.spec}: unknown (${result.reason}) — no explanation within ${seconds} s\n`);
  return result.exitCode;
}
