/**
 * `check` with `synthesizer: ltlsynt|strix|auto`: each spec through src/external's `solve`
 * (realizability only), with the front end's warnings and the tool's own diagnostics (a tool caught
 * answering wrongly is a loud warning). Imported only when an external back end is asked for.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode, type ExitCodeValue } from '../diagnostics/exit-codes.js';
import type { GameSpec } from '../game/spec.js';
import { pathOf, type SpecSource, textOf, timeoutMsOf } from './inputs.js';
import type { CheckOptions, SpecVerdict } from './verdict.js';

/** `synthesizer: ltlsynt|strix|auto`: each spec through src/external's `solve` (realizability only). */
export async function* checkEachExternally(sources: readonly SpecSource[], options: CheckOptions): AsyncGenerator<SpecVerdict> {
  const timeoutMs = timeoutMsOf(options.timeout);
  if (sources.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file', code: 'usage' });
  const { loadGame } = await import('../frontend/load.js');
  const { solve, synthesizerFromArgs } = await import('../external/solve.js');
  const { builtinBackend } = await import('../external/builtin.js');
  const { synthesizer, timeoutMs: toolTimeoutMs } = synthesizerFromArgs({ synthesizer: options.synthesizer, 'tool-timeout': options.toolTimeout });
  for (const [i, source] of sources.entries()) {
    const label = pathOf(source);
    options.onStart?.(label, `${i + 1}/${sources.length}`);
    const warnings: Diagnostic[] = [];
    let spec: GameSpec;
    try {
      spec = await loadGame(label, { importRoot: options.importRoot, params: options.params, theory: options.theory, text: textOf(source), onWarning: (d) => warnings.push(d) });
    } catch (err) {
      // One bad file is reported and the others are still checked, as with the builtin engine.
      if (!(err instanceof UserError)) throw err;
      yield { spec: label, verdict: 'error', seconds: 0, errors: err.diagnostics, warnings, notes: [], exitCode: ExitCode.inputError };
      continue;
    }
    const r = await solve(spec, { synthesizer, mode: 'realizability', builtin: builtinBackend(spec, 'realizability', { timeoutMs }), timeoutMs: toolTimeoutMs });
    yield {
      spec: label,
      verdict: r.status,
      seconds: r.timeMs / 1000,
      backend: r.backend,
      errors: r.diagnostics.filter((d) => d.severity === 'error'),
      warnings: [...warnings, ...r.diagnostics.filter((d) => d.severity === 'warning')],
      notes: r.diagnostics.filter((d) => d.severity === 'note'),
      exitCode: r.exitCode as ExitCodeValue,
    };
  }
}
