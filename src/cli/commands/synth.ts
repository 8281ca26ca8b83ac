/**
 * `tslc synth <file> --format hoa|dot|mermaid|json`: synthesize and print a verified controller.
 * An unrealizable spec prints a note (and with `--format json` the counterstrategy) and exits 1.
 * The work is the library's `synthesize` (src/api/synthesize.ts), which also runs
 * `--synthesizer ltlsynt|strix|auto` through src/external, whose controllers are independently
 * verified before they are printed.
 */
import { writeFileSync } from 'node:fs';
import { UserError } from '../../diagnostics/diagnostic.js';
import { printController, synthesize, type ControllerFormat } from '../../api/synthesize.js';
import type { SynthesizerName } from '../../api/inputs.js';
import { InternalSynthesisError } from '../../synthesis/index.js';
import { counterstrategyToJson } from '../../synthesis/print.js';
import { theoryOption } from '../../frontend/load.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg, renderDiagnostics } from '../io.js';

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean);

export async function run(args: Record<string, unknown>): Promise<number> {
  const format = String(args.format ?? 'hoa');
  if (!['hoa', 'dot', 'mermaid', 'json'].includes(format))
    throw new UserError({ severity: 'error', message: `--format must be hoa, dot, mermaid or json, not '${format}'`, code: 'usage' });
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: `--timeout expects a positive number of seconds`, code: 'usage' });
  const file = args.file === undefined ? undefined : String(args.file);
  if (args.ltl === undefined && !file) throw new UserError({ severity: 'error', message: 'name a spec file, or give --ltl with --ins/--outs', code: 'usage' });
  const params = list(args.param);
  const input = args.ltl !== undefined ? { ltl: String(args.ltl), ins: list(args.ins), outs: list(args.outs) } : file!;
  const external = args.synthesizer !== undefined && args.synthesizer !== 'builtin';
  let result;
  try {
    result = await synthesize(input, {
      timeout: timeoutSeconds,
      importRoot: importRootArg(args),
      theory: theoryOption(args.theory),
      params: params.length > 0 ? (await import('../../tlsf/index.js')).parseParamAssignments(params) : undefined,
      synthesizer: external ? (String(args.synthesizer) as SynthesizerName) : undefined,
      toolTimeout: typeof args['tool-timeout'] === 'number' ? args['tool-timeout'] : undefined,
      onProgress: args.verbose ? (m) => process.stderr.write(`${m}\n`) : undefined,
    });
  } catch (err) {
    if (err instanceof InternalSynthesisError) {
      process.stderr.write(`tslc: internal error (please report this with the input): ${err.message}\n`);
      return ExitCode.internal;
    }
    throw err;
  }
  if (result.warnings.length > 0) process.stderr.write(renderDiagnostics(result.warnings) + '\n');
  if (result.verdict === 'error' && result.spec === undefined) throw new UserError(result.errors);
  if (result.errors.length > 0) process.stderr.write(renderDiagnostics(result.errors) + '\n');
  // A spec the front end could not finish expanding in time has no name of its own yet.
  const name = result.spec?.name ?? String(file ?? '<formula>');
  const emit = (text: string) => {
    if (args.output) writeFileSync(String(args.output), text);
    else process.stdout.write(text);
  };
  const seconds = result.seconds.toFixed(2);
  const by = external ? `, ${result.backend}` : '';
  if (result.verdict === 'realizable') {
    const m = result.controller;
    emit(await printController(m, result.spec, format as ControllerFormat));
    process.stderr.write(`${name}: realizable, ${m.stateCount} state${m.stateCount === 1 ? '' : 's'} (${seconds} s${by})\n`);
    return ExitCode.ok;
  }
  if (result.verdict === 'unrealizable') {
    process.stderr.write(`${name}: unrealizable (${seconds} s${by})\n`);
    if (format === 'json' && result.counterstrategy) emit(counterstrategyToJson(result.counterstrategy, name));
    return result.exitCode;
  }
  if (result.verdict === 'unknown') process.stderr.write(`${name}: unknown (${result.reason}) after ${seconds} s${by}\n`);
  else process.stderr.write(`${name}: error (${seconds} s${by})\n`);
  return result.exitCode;
}
