/**
 * `tslc synth <file> --format hoa|dot|mermaid|json`: synthesize and print a verified controller.
 * An unrealizable spec prints a note (and with `--format json` the counterstrategy) and exits 1.
 * `--synthesizer ltlsynt|strix|auto` goes through src/external (imported only then), whose
 * controllers are independently verified before they are printed.
 */
import { writeFileSync } from 'node:fs';
import { UserError } from '../../diagnostics/diagnostic.js';
import { FrontEndTimeout, loadGame, loadLtlGame, theoryOption } from '../../frontend/load.js';
import { InternalSynthesisError, synthesize } from '../../synthesis/index.js';
import { controllerToHoa, controllerToJson, counterstrategyToJson } from '../../synthesis/print.js';
import { buildDiagram, toDot, toMermaid } from '../../explain/diagram.js';
import type { GameSpec } from '../../game/spec.js';
import type { MealyMachine } from '../../game/mealy.js';
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
  const deadlineAt = performance.now() + timeoutSeconds * 1000;
  const file = args.file === undefined ? undefined : String(args.file);
  let spec;
  if (args.ltl !== undefined) spec = await loadLtlGame(String(args.ltl), list(args.ins), list(args.outs));
  else if (file) {
    const params = list(args.param);
    const { parseParamAssignments } = await import('../../tlsf/index.js');
    try {
      spec = await loadGame(file, {
        params: params.length > 0 ? parseParamAssignments(params) : undefined,
        importRoot: importRootArg(args),
        theory: theoryOption(args.theory),
        onWarning: (d) => process.stderr.write(renderDiagnostics([d]) + '\n'),
        deadline: deadlineAt,
      });
    } catch (err) {
      if (!(err instanceof FrontEndTimeout)) throw err;
      process.stderr.write(`${file}: unknown (timeout) after ${timeoutSeconds.toFixed(2)} s\n`);
      return ExitCode.unknown;
    }
  } else throw new UserError({ severity: 'error', message: 'name a spec file, or give --ltl with --ins/--outs', code: 'usage' });

  const emit = (text: string) => {
    if (args.output) writeFileSync(String(args.output), text);
    else process.stdout.write(text);
  };
  if (args.synthesizer !== undefined && args.synthesizer !== 'builtin') return synthesizeExternally(spec, args, format, timeoutSeconds, emit);

  let result;
  try {
    result = synthesize(spec, {
      // Whatever loading the spec took comes out of the same budget.
      timeoutMs: Math.max(1, deadlineAt - performance.now()),
      onProgress: args.verbose ? (m) => process.stderr.write(`${m}\n`) : undefined,
    });
  } catch (err) {
    if (err instanceof InternalSynthesisError) {
      process.stderr.write(`tslc: internal error (please report this with the input): ${err.message}\n`);
      return ExitCode.internal;
    }
    throw err;
  }
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
  emit(printController(m, spec, format));
  process.stderr.write(`${spec.name}: realizable, ${m.stateCount} state${m.stateCount === 1 ? '' : 's'} (${result.seconds.toFixed(2)} s)\n`);
  return ExitCode.ok;
}

/** One printer per format; the diagrams merge parallel edges and speak in the spec's terms. */
function printController(m: MealyMachine, spec: GameSpec, format: string): string {
  if (format === 'hoa') return controllerToHoa(m, spec.name);
  if (format === 'dot') return toDot(buildDiagram(m, spec));
  if (format === 'mermaid') return toMermaid(buildDiagram(m, spec));
  return controllerToJson(m, spec.name);
}

async function synthesizeExternally(
  spec: GameSpec,
  args: Record<string, unknown>,
  format: string,
  timeoutSeconds: number,
  emit: (text: string) => void,
): Promise<number> {
  const { solve, synthesizerFromArgs } = await import('../../external/index.js');
  const { builtinBackend } = await import('../../external/builtin.js');
  const { synthesizer, timeoutMs } = synthesizerFromArgs(args);
  const r = await solve(spec, { synthesizer, mode: 'synthesis', builtin: builtinBackend(spec, 'synthesis', { timeoutMs: timeoutSeconds * 1000 }), timeoutMs });
  if (r.diagnostics.length > 0) process.stderr.write(renderDiagnostics([...r.diagnostics]) + '\n');
  const seconds = (r.timeMs / 1000).toFixed(2);
  if (r.status === 'realizable' && r.machine) {
    // solve() only returns external controllers that passed the independent check.
    emit(printController(r.machine, spec, format));
    process.stderr.write(`${spec.name}: realizable, ${r.machine.stateCount} state${r.machine.stateCount === 1 ? '' : 's'} (${seconds} s, ${r.backend})\n`);
    return ExitCode.ok;
  }
  if (r.status === 'realizable') {
    process.stderr.write(`${spec.name}: ${r.backend} answered realizable without a controller\n`);
    return ExitCode.unknown;
  }
  process.stderr.write(`${spec.name}: ${r.status} (${seconds} s, ${r.backend})\n`);
  return r.exitCode;
}
