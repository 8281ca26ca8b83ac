/**
 * `tslc check <files…>` / `tslc check --ltl '<formula>' --ins … --outs …`: realizability per spec,
 * one stable line (or JSON object) each. Exit: 2 if any input error, else 1 if any spec is
 * unrealizable, else 3 if any is unknown, else 0; 70 for an internal error.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import { ExitCode } from '../exit-codes.js';
import { readFileSync } from 'node:fs';
import { diagnosticsToJson, registerSource, renderDiagnostics, useColor } from '../io.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { canIsolate, type IsolatedRequest, type IsolatedResult, runInProcess, runIsolated } from '../../synthesis/isolated.js';

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean);

export async function run(args: Record<string, unknown>): Promise<number> {
  const files = list(args.files);
  const json = Boolean(args.json);
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: `--timeout expects a positive number of seconds`, code: 'usage' });
  const withStates = args.states !== false;
  const params = await parseParams(list(args.param));
  const requests: Array<{ label: string; request: IsolatedRequest }> = [];
  if (args.ltl !== undefined) {
    requests.push({
      label: '<formula>',
      request: {
        ltl: { formula: String(args.ltl), ins: list(args.ins), outs: list(args.outs) },
        timeoutMs: timeoutSeconds * 1000,
        synthesize: withStates,
      },
    });
  }
  for (const file of files) requests.push({ label: file, request: { file, params, timeoutMs: timeoutSeconds * 1000, synthesize: withStates } });
  if (requests.length === 0)
    throw new UserError({ severity: 'error', message: 'name at least one spec file, or give --ltl with --ins/--outs', code: 'usage' });

  const color = !json && useColor(process.stdout);
  const progress = requests.length > 1 && Boolean(process.stderr.isTTY);
  let sawInputError = false;
  let sawUnrealizable = false;
  let sawUnknown = false;
  let sawInternal = false;
  for (const [i, { label, request }] of requests.entries()) {
    if (progress) process.stderr.write(`[${i + 1}/${requests.length}] ${label}\n`);
    const result: IsolatedResult = canIsolate() ? await runIsolated(request) : await runInProcess(request);
    if (result.verdict === 'error') {
      if (result.userError) {
        sawInputError = true;
        const diagnostics = result.userError as Diagnostic[];
        if (json) process.stdout.write(JSON.stringify({ file: label, verdict: 'error', errors: diagnosticsToJson(diagnostics) }) + '\n');
        else process.stderr.write(renderWithSource(diagnostics) + '\n');
      } else {
        sawInternal = true;
        if (json) process.stdout.write(JSON.stringify({ file: label, verdict: 'error', seconds: round(result.seconds) }) + '\n');
        process.stderr.write(`tslc: internal error while checking ${label} (please report this with the input):\n${result.message}\n`);
      }
      continue;
    }
    if (result.verdict === 'unrealizable') sawUnrealizable = true;
    if (result.verdict === 'unknown') sawUnknown = true;
    if (json) {
      const obj: Record<string, unknown> = { file: label, verdict: result.verdict, seconds: round(result.seconds) };
      if (result.states !== undefined) obj.states = result.states;
      if (result.reason) obj.reason = result.reason;
      process.stdout.write(JSON.stringify(obj) + '\n');
    } else process.stdout.write(`${label}: ${describe(result, color)}\n`);
  }
  if (sawInternal) return ExitCode.internal;
  if (sawInputError) return ExitCode.inputError;
  if (sawUnrealizable) return ExitCode.failure;
  if (sawUnknown) return ExitCode.unknown;
  return ExitCode.ok;
}

const round = (s: number) => Math.round(s * 100) / 100;

function describe(r: Exclude<IsolatedResult, { verdict: 'error' }>, color: boolean): string {
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const time = `${r.seconds.toFixed(2)} s`;
  if (r.verdict === 'realizable')
    return `${paint(32, 'realizable')} (${time}${r.states !== undefined ? `, ${r.states} state${r.states === 1 ? '' : 's'}` : ''})`;
  if (r.verdict === 'unrealizable') return `${paint(31, 'unrealizable')} (${time})`;
  return `${paint(33, `unknown (${r.reason ?? 'timeout'})`)} (${time})`;
}

function renderWithSource(diagnostics: Diagnostic[]): string {
  // Worker results come without the source registry; re-read the files to show carets.
  for (const d of diagnostics) {
    const file = d.span?.file;
    if (!file) continue;
    try {
      registerSource(file, readFileSync(file, 'utf8'));
    } catch {
      // The file vanished or is unreadable: print without the source line.
    }
  }
  return renderDiagnostics(diagnostics);
}

async function parseParams(assignments: string[]): Promise<Record<string, number> | undefined> {
  if (assignments.length === 0) return undefined;
  const { parseParamAssignments } = await import('../../tlsf/index.js');
  return parseParamAssignments(assignments);
}
