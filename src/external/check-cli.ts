/**
 * The external half of `tslc check`: `--synthesizer ltlsynt|strix|auto` and `--cross-check`.
 * `check.ts` delegates here when either flag asks for more than the builtin engine, so the
 * builtin path (worker isolation, output format) stays untouched. Same line format and exit codes.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../cli/exit-codes.js';
import { importRootArg, renderDiagnostics } from '../cli/io.js';
import { builtinBackend } from './builtin.js';
import { crossCheck, crossCheckDiagnostics, formatCrossCheckTable, type CrossCheckRow } from './cross-check.js';
import { solve, synthesizerFromArgs } from './solve.js';
import { findTools } from './tools.js';

/** True when `check` should hand over to `runExternalCheck`. */
export function wantsExternalCheck(args: Record<string, unknown>): boolean {
  const { synthesizer, crossCheck: cc } = synthesizerFromArgs(args);
  return synthesizer !== 'builtin' || cc;
}

export async function runExternalCheck(
  files: readonly string[],
  args: Record<string, unknown>,
  io: { out: (s: string) => void; err: (s: string) => void } = {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  },
): Promise<number> {
  const { synthesizer, timeoutMs, crossCheck: cc } = synthesizerFromArgs(args);
  const builtinTimeoutMs = Number(args.timeout ?? 60) * 1000;
  const { loadGame } = await import('../frontend/load.js');
  const json = Boolean(args.json);
  const codes: number[] = [];
  const rows: CrossCheckRow[] = [];
  const tools = cc ? await findTools() : [];
  for (const file of files) {
    let spec: Awaited<ReturnType<typeof loadGame>>;
    try {
      spec = await loadGame(file, { importRoot: importRootArg(args) });
    } catch (err) {
      // One bad file is reported and the others are still checked, as with the builtin engine.
      if (!(err instanceof UserError)) throw err;
      io.err(renderDiagnostics(err.diagnostics) + '\n');
      codes.push(ExitCode.inputError);
      continue;
    }
    if (cc) {
      rows.push(await crossCheck(spec, { builtin: builtinBackend(spec, 'synthesis', { timeoutMs: builtinTimeoutMs }), tools, timeoutMs, label: file }));
      continue;
    }
    const r = await solve(spec, { synthesizer, mode: 'realizability', builtin: builtinBackend(spec, 'realizability', { timeoutMs: builtinTimeoutMs }), timeoutMs });
    codes.push(r.exitCode);
    const seconds = Math.round(r.timeMs / 10) / 100;
    if (json) io.out(JSON.stringify({ file, verdict: r.status, seconds, backend: r.backend }) + '\n');
    else io.out(`${file}: ${r.status} (${seconds.toFixed(2)} s, ${r.backend})\n`);
    if (r.diagnostics.length > 0) io.err(renderDiagnostics(r.diagnostics as Diagnostic[]) + '\n');
  }
  if (cc) {
    if (tools.every((t) => !t.available)) io.err('note: no external synthesizer is installed; `tslc doctor` says how to add one\n');
    io.out(formatCrossCheckTable(rows) + '\n');
    const problems = crossCheckDiagnostics(rows);
    if (problems.length > 0) io.err(renderDiagnostics(problems) + '\n');
    if (rows.some((r) => r.agreement === 'disagree')) return ExitCode.failure;
    return codes.includes(ExitCode.inputError) ? ExitCode.inputError : ExitCode.ok;
  }
  for (const code of [ExitCode.inputError, ExitCode.failure, ExitCode.unknown]) if (codes.includes(code)) return code;
  return ExitCode.ok;
}
