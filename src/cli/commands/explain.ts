/**
 * `tslc explain <spec…>`: why the (composed) spec is unrealizable — the core by file:line, the
 * assumptions it is stated against, and the counterplay story. Several files are composed (their
 * conjunction), so a conflict between two developers' specs shows up as a core across files.
 * Exit: 1 unrealizable (explained), 0 realizable, 3 unknown, 2 input error.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import { explainUnrealizable, formatExplanation } from '../../explain/explain.js';
import { partLocation, partText } from '../../explain/words.js';
import { loadSpecs } from '../../report/build.js';
import { theoryOption } from '../../frontend/load.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg } from '../io.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f): f is string => typeof f === 'string');
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
  const seconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UserError({ severity: 'error', message: '--timeout expects a positive number of seconds', code: 'usage' });
  const spec = await loadSpecs(files, { importRoot: importRootArg(args), theory: theoryOption(args.theory) });
  const verbose = Boolean(args.verbose);
  const result = explainUnrealizable(spec, { budgetMs: seconds * 1000, onProgress: verbose ? (m) => process.stderr.write(`${m}\n`) : undefined });
  if (args.json) {
    const out =
      result.verdict === 'unrealizable'
        ? {
            verdict: result.verdict,
            core: result.core.members.map((m) => ({ kind: m.kind, location: partLocation(m.part), file: m.part.span?.file, line: m.part.span?.line, text: partText(m.part) })),
            context: result.core.context.map((p) => ({ location: partLocation(p), file: p.span?.file, line: p.span?.line, text: partText(p) })),
            minimal: result.core.minimal,
            solverCalls: result.core.solverCalls,
            seconds: result.core.seconds,
            budgetSeconds: result.core.budgetMs / 1000,
            story: result.story,
          }
        : result;
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  } else if (result.verdict === 'unrealizable') process.stdout.write(formatExplanation(result) + '\n');
  else if (result.verdict === 'realizable') process.stdout.write(`${spec.name}: realizable — nothing to explain\n`);
  else process.stdout.write(`${spec.name}: unknown (${result.reason}) — no explanation within ${seconds} s\n`);
  return result.verdict === 'unrealizable' ? ExitCode.failure : result.verdict === 'realizable' ? ExitCode.ok : ExitCode.unknown;
}
