/**
 * `tslc synth <file> --format hoa|dot|json`: synthesize and print a verified controller. An
 * unrealizable spec prints a note (and with `--format json` the counterstrategy) and exits 1.
 */
import { writeFileSync } from 'node:fs';
import { UserError } from '../../diagnostics/diagnostic.js';
import { loadGame, loadLtlGame } from '../../frontend/load.js';
import { InternalSynthesisError, synthesize } from '../../synthesis/index.js';
import { controllerToDot, controllerToHoa, controllerToJson, counterstrategyToJson } from '../../synthesis/print.js';
import { ExitCode } from '../exit-codes.js';
import { renderDiagnostics } from '../io.js';

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean);

export async function run(args: Record<string, unknown>): Promise<number> {
  const format = String(args.format ?? 'hoa');
  if (!['hoa', 'dot', 'json'].includes(format))
    throw new UserError({ severity: 'error', message: `--format must be hoa, dot or json, not '${format}'`, code: 'usage' });
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: `--timeout expects a positive number of seconds`, code: 'usage' });
  const file = args.file === undefined ? undefined : String(args.file);
  let spec;
  if (args.ltl !== undefined) spec = await loadLtlGame(String(args.ltl), list(args.ins), list(args.outs));
  else if (file) {
    const params = list(args.param);
    const { parseParamAssignments } = await import('../../tlsf/index.js');
    spec = await loadGame(file, {
      params: params.length > 0 ? parseParamAssignments(params) : undefined,
      onWarning: (d) => process.stderr.write(renderDiagnostics([d]) + '\n'),
    });
  } else throw new UserError({ severity: 'error', message: 'name a spec file, or give --ltl with --ins/--outs', code: 'usage' });

  let result;
  try {
    result = synthesize(spec, {
      timeoutMs: timeoutSeconds * 1000,
      onProgress: args.verbose ? (m) => process.stderr.write(`${m}\n`) : undefined,
    });
  } catch (err) {
    if (err instanceof InternalSynthesisError) {
      process.stderr.write(`tslc: internal error (please report this with the input): ${err.message}\n`);
      return ExitCode.internal;
    }
    throw err;
  }
  const emit = (text: string) => {
    if (args.output) writeFileSync(String(args.output), text);
    else process.stdout.write(text);
  };
  if (result.verdict === 'unknown') {
    process.stderr.write(`${spec.name}: unknown (${result.reason}) after ${result.seconds.toFixed(2)} s\n`);
    return ExitCode.unknown;
  }
  if (result.verdict === 'unrealizable') {
    process.stderr.write(`${spec.name}: unrealizable (${result.seconds.toFixed(2)} s)\n`);
    if (format === 'json') emit(counterstrategyToJson(result.counterstrategy, spec.name));
    return ExitCode.failure;
  }
  const m = result.controller;
  emit(format === 'hoa' ? controllerToHoa(m, spec.name) : format === 'dot' ? controllerToDot(m, spec.name) : controllerToJson(m, spec.name));
  process.stderr.write(`${spec.name}: realizable, ${m.stateCount} state${m.stateCount === 1 ? '' : 's'} (${result.seconds.toFixed(2)} s)\n`);
  return ExitCode.ok;
}
