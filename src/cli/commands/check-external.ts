/**
 * The external half of `tslc check`: `--synthesizer ltlsynt|strix|auto` and `--cross-check`.
 * `check.ts` delegates here when either flag asks for more than the builtin engine, so the
 * builtin path (worker isolation, output format) stays untouched. Same line format and exit codes.
 * `--synthesizer` prints what the library's external check (src/api/check-external.ts) yields;
 * `--cross-check` (a table of every back end's answer) is the CLI's own.
 */
import { checkEachExternally } from '../../api/check-external.js';
import { combinedExitCode } from '../../api/verdict.js';
import { ExitCode } from '../exit-codes.js';
import { diagnosticsToJson, importRootArg, renderDiagnostics } from '../io.js';
import { builtinBackend } from '../../external/builtin.js';
import { crossCheck, crossCheckDiagnostics, formatCrossCheckTable, type CrossCheckRow } from '../../external/cross-check.js';
import { synthesizerFromArgs, type SynthesizerChoice } from '../../external/solve.js';
import { findTools } from '../../external/tools.js';
import { UserError } from '../../diagnostics/diagnostic.js';

/** True when `check` should hand over to `runExternalCheck`. */
export function wantsExternalCheck(args: Record<string, unknown>): boolean {
  const { synthesizer, crossCheck: cc } = synthesizerFromArgs(args);
  return synthesizer !== 'builtin' || cc;
}

export interface CheckIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

export async function runExternalCheck(
  files: readonly string[],
  args: Record<string, unknown>,
  io: CheckIo = { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) },
): Promise<number> {
  const { synthesizer, crossCheck: cc } = synthesizerFromArgs(args);
  if (cc) return runCrossCheck(files, args, io);
  const json = Boolean(args.json);
  const codes: number[] = [];
  const verdicts = checkEachExternally(files, {
    synthesizer: synthesizer as Exclude<SynthesizerChoice, 'builtin'>,
    timeout: Number(args.timeout ?? 60),
    toolTimeout: typeof args['tool-timeout'] === 'number' ? args['tool-timeout'] : undefined,
    importRoot: importRootArg(args),
  });
  for await (const v of verdicts) {
    codes.push(v.exitCode);
    if (v.warnings.length > 0 && !json) io.err(renderDiagnostics(v.warnings) + '\n');
    if (v.verdict === 'error' && v.backend === undefined) {
      // The spec itself could not be read: reported as the builtin check reports it.
      if (json) io.out(JSON.stringify({ file: v.spec, verdict: 'error', errors: diagnosticsToJson(v.errors) }) + '\n');
      else io.err(renderDiagnostics(v.errors) + '\n');
      continue;
    }
    const seconds = Math.round(v.seconds * 100) / 100;
    const warnings = json && v.warnings.length > 0 ? { warnings: diagnosticsToJson(v.warnings) } : {};
    if (json) io.out(JSON.stringify({ file: v.spec, verdict: v.verdict, seconds, backend: v.backend, ...warnings }) + '\n');
    else io.out(`${v.spec}: ${v.verdict} (${seconds.toFixed(2)} s, ${v.backend})\n`);
    const toolDiagnostics = [...v.errors, ...v.notes];
    if (toolDiagnostics.length > 0) io.err(renderDiagnostics(toolDiagnostics) + '\n');
  }
  return combinedExitCode(codes);
}

/** `--cross-check`: the builtin engine and every installed tool on each spec; a table of agreement. */
async function runCrossCheck(files: readonly string[], args: Record<string, unknown>, io: CheckIo): Promise<number> {
  const { timeoutMs } = synthesizerFromArgs(args);
  const builtinTimeoutMs = Number(args.timeout ?? 60) * 1000;
  const { loadGame } = await import('../../frontend/load.js');
  const codes: number[] = [];
  const rows: CrossCheckRow[] = [];
  const tools = await findTools();
  for (const file of files) {
    let spec: Awaited<ReturnType<typeof loadGame>>;
    try {
      spec = await loadGame(file, { importRoot: importRootArg(args), onWarning: (d) => io.err(renderDiagnostics([d]) + '\n') });
    } catch (err) {
      // One bad file is reported and the others are still checked, as with the builtin engine.
      if (!(err instanceof UserError)) throw err;
      io.err(renderDiagnostics(err.diagnostics) + '\n');
      codes.push(ExitCode.inputError);
      continue;
    }
    rows.push(await crossCheck(spec, { builtin: builtinBackend(spec, 'synthesis', { timeoutMs: builtinTimeoutMs }), tools, timeoutMs, label: file }));
  }
  if (tools.every((t) => !t.available)) io.err('note: no external synthesizer is installed; `tslc doctor` says how to add one\n');
  io.out(formatCrossCheckTable(rows) + '\n');
  const problems = crossCheckDiagnostics(rows);
  if (problems.length > 0) io.err(renderDiagnostics(problems) + '\n');
  if (rows.some((r) => r.agreement === 'disagree')) return ExitCode.failure;
  return codes.includes(ExitCode.inputError) ? ExitCode.inputError : ExitCode.ok;
}
