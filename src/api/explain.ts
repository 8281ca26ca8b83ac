/**
 * `explain`: why specs (several are composed: their conjunction) are unrealizable — the core by
 * file:line, the assumptions it is stated against, and the counterplay story — or that they are
 * realizable after all, or that the budget ran out. What `tslc explain` prints.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Explanation } from './explanation.js';
import { catchingUserErrors, type Outcome, type ReadOptions, type SpecSource, timeoutMsOf } from './inputs.js';
import { loadComposed } from './load.js';

export interface ExplainOptions extends ReadOptions {
  /** Total solver budget in seconds (default 60). */
  readonly timeout?: number;
  /** Core search progress (`tslc explain --verbose`). */
  readonly onProgress?: (message: string) => void;
}

export type ExplainResult = Outcome & { readonly spec?: string } & (
    | { readonly verdict: 'unrealizable'; readonly spec: string; readonly explanation: Explanation }
    | { readonly verdict: 'realizable'; readonly spec: string }
    | { readonly verdict: 'unknown'; readonly spec: string; readonly reason: string }
    | { readonly verdict: 'error' }
  );

export async function explain(specs: SpecSource | readonly SpecSource[], options: ExplainOptions = {}): Promise<ExplainResult> {
  const list: readonly SpecSource[] = Array.isArray(specs) ? specs : [specs as SpecSource];
  const warnings: Diagnostic[] = [];
  return catchingUserErrors(
    async (): Promise<ExplainResult> => {
      const budgetMs = timeoutMsOf(options.timeout);
      if (list.length === 0) return { verdict: 'error', errors: [{ severity: 'error', message: 'name at least one spec file', code: 'usage' }], warnings, exitCode: ExitCode.inputError };
      const game = await loadComposed(list, options, (d) => warnings.push(d));
      const { explainUnrealizable } = await import('../explain/explain.js');
      const r = explainUnrealizable(game, { budgetMs, onProgress: options.onProgress });
      const base = { spec: game.name, errors: [], warnings };
      if (r.verdict === 'realizable') return { ...base, verdict: 'realizable', exitCode: ExitCode.ok };
      if (r.verdict === 'unknown') return { ...base, verdict: 'unknown', reason: r.reason, exitCode: ExitCode.unknown };
      const { summarizeExplanation } = await import('./explanation.js');
      return { ...base, verdict: 'unrealizable', explanation: await summarizeExplanation(r), exitCode: ExitCode.failure };
    },
    (errors) => ({ verdict: 'error', errors, warnings, exitCode: ExitCode.inputError }),
  );
}
