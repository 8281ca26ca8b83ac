/**
 * `synthesize`: a verified controller for one spec (or the counterstrategy that defeats every
 * controller), with the solver's time and size, and `printController` for the formats `tslc synth`
 * prints (HOA, DOT, Mermaid, JSON). The builtin engine runs in this thread under its time limit;
 * an external back end (`synthesizer`) goes through src/external, imported only then, whose
 * controllers are verified independently before they are returned.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { MealyMachine } from '../game/mealy.js';
import type { GameSpec } from '../game/spec.js';
import type { SynthesisStats } from '../synthesis/index.js';
import { catchingUserErrors, type FormulaSpec, type Outcome, type SolveOptions, type SpecSource, timeoutMsOf } from './inputs.js';
import { loadSource } from './load.js';
import { nowMs } from '../diagnostics/clock.js';

export interface SynthesizeOptions extends SolveOptions {
  /** Solver progress messages (`tslc synth --verbose`). */
  readonly onProgress?: (message: string) => void;
}

export type SynthesizeResult = Outcome & { readonly seconds: number; readonly backend: string; readonly spec?: GameSpec } & (
    | { readonly verdict: 'realizable'; readonly spec: GameSpec; readonly controller: MealyMachine; readonly stats?: SynthesisStats }
    | { readonly verdict: 'unrealizable'; readonly spec: GameSpec; readonly counterstrategy?: Counterstrategy }
    | { readonly verdict: 'unknown'; readonly reason: string }
    | { readonly verdict: 'error' }
  );

export type ControllerFormat = 'hoa' | 'dot' | 'mermaid' | 'json';

/** Synthesizes a controller; input errors come back in `errors` (verdict `error`), never thrown. */
export async function synthesize(input: SpecSource | FormulaSpec, options: SynthesizeOptions = {}): Promise<SynthesizeResult> {
  const warnings: Diagnostic[] = [];
  return catchingUserErrors(
    async (): Promise<SynthesizeResult> => {
      const timeoutMs = timeoutMsOf(options.timeout);
      // Whatever loading the spec takes comes out of the same budget (a TLSF file may expand slowly).
      const deadline = nowMs() + timeoutMs;
      const { FrontEndTimeout } = await import('../frontend/load.js');
      let spec: GameSpec;
      try {
        spec = await loadSource(input, { ...options, deadline }, (d) => warnings.push(d));
      } catch (err) {
        if (!(err instanceof FrontEndTimeout)) throw err;
        return { verdict: 'unknown', reason: 'timeout', seconds: timeoutMs / 1000, backend: 'builtin', errors: [], warnings, exitCode: ExitCode.unknown };
      }
      if (options.synthesizer !== undefined && options.synthesizer !== 'builtin') return synthesizeExternally(spec, options, timeoutMs, warnings);
      const { synthesize: solve } = await import('../synthesis/index.js');
      const r = solve(spec, { timeoutMs: Math.max(1, deadline - nowMs()), onProgress: options.onProgress });
      const base = { spec, seconds: r.seconds, backend: 'builtin', errors: [], warnings };
      if (r.verdict === 'realizable') return { ...base, verdict: 'realizable', controller: r.controller, stats: r.stats, exitCode: ExitCode.ok };
      if (r.verdict === 'unrealizable') return { ...base, verdict: 'unrealizable', counterstrategy: r.counterstrategy, exitCode: ExitCode.failure };
      return { ...base, verdict: 'unknown', reason: r.reason, exitCode: ExitCode.unknown };
    },
    (errors) => ({ verdict: 'error', seconds: 0, backend: 'builtin', errors, warnings, exitCode: ExitCode.inputError }),
  );
}

async function synthesizeExternally(spec: GameSpec, options: SynthesizeOptions, timeoutMs: number, warnings: Diagnostic[]): Promise<SynthesizeResult> {
  const { solve, synthesizerFromArgs } = await import('../external/solve.js');
  const { builtinBackend } = await import('../external/builtin.js');
  const { synthesizer, timeoutMs: toolTimeoutMs } = synthesizerFromArgs({ synthesizer: options.synthesizer, 'tool-timeout': options.toolTimeout });
  const r = await solve(spec, { synthesizer, mode: 'synthesis', builtin: builtinBackend(spec, 'synthesis', { timeoutMs }), timeoutMs: toolTimeoutMs });
  const base = {
    spec,
    seconds: r.timeMs / 1000,
    backend: r.backend,
    errors: r.diagnostics.filter((d) => d.severity === 'error'),
    warnings: [...warnings, ...r.diagnostics.filter((d) => d.severity !== 'error')],
  };
  // solve() only returns external controllers that passed the independent check.
  if (r.status === 'realizable' && r.machine) return { ...base, verdict: 'realizable', controller: r.machine, exitCode: ExitCode.ok };
  if (r.status === 'realizable') return { ...base, verdict: 'unknown', reason: `${r.backend} answered realizable without a controller`, exitCode: ExitCode.unknown };
  if (r.status === 'unrealizable') return { ...base, verdict: 'unrealizable', exitCode: ExitCode.failure };
  if (r.status === 'unknown') return { ...base, verdict: 'unknown', reason: `${r.backend}: no answer`, exitCode: ExitCode.unknown };
  return { ...base, verdict: 'error', exitCode: r.exitCode as SynthesizeResult['exitCode'] };
}

/** The controller in one of `tslc synth`'s formats; the diagrams speak in the spec's terms. */
export async function printController(controller: MealyMachine, spec: GameSpec, format: ControllerFormat): Promise<string> {
  const { controllerToHoa, controllerToJson } = await import('../synthesis/print.js');
  if (format === 'hoa') return controllerToHoa(controller, spec.name);
  if (format === 'json') return controllerToJson(controller, spec.name);
  const { buildDiagram, toDot, toMermaid } = await import('../explain/diagram.js');
  return format === 'dot' ? toDot(buildDiagram(controller, spec)) : toMermaid(buildDiagram(controller, spec));
}
