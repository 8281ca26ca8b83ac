/**
 * `tslc report <spec…> -o report.html`: a self-contained HTML page (spec with line numbers,
 * verdict, controller diagram or core + counterplay) that opens from disk with no server.
 * Exit follows `tslc check`: 0 realizable, 1 unrealizable, 3 unknown.
 */
import { writeFileSync } from 'node:fs';
import { UserError } from '../../diagnostics/diagnostic.js';
import { buildReportInput } from '../../report/build.js';
import { theoryOption } from '../../frontend/load.js';
import { renderReport } from '../../report/html.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg } from '../io.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f): f is string => typeof f === 'string');
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
  const out = typeof args.output === 'string' ? args.output : 'report.html';
  const seconds = Number(args.timeout ?? 60);
  const input = await buildReportInput(files, { timeoutMs: seconds * 1000, importRoot: importRootArg(args), theory: theoryOption(args.theory) });
  try {
    writeFileSync(out, renderReport(input));
  } catch (err) {
    throw new UserError({ severity: 'error', message: `cannot write ${out}: ${(err as Error).message}`, code: 'io' });
  }
  process.stdout.write(`${out}: ${input.verdict} (${input.files.length} file${input.files.length === 1 ? '' : 's'})\n`);
  return input.verdict === 'realizable' ? ExitCode.ok : input.verdict === 'unrealizable' ? ExitCode.failure : ExitCode.unknown;
}
