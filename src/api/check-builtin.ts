/**
 * `check` with the builtin engine: each spec under one IsolatedChecker (src/synthesis/isolated.ts)
 * — tried in this thread for half a second, then moved to a worker thread with a hard time limit —
 * with the front end's warnings and, for an unrealizable spec, its explanation (imported only
 * then). The CLI's check fast path bundles this module, so it never reaches src/external.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { GameSpec } from '../game/spec.js';
import type { IsolatedChecker, IsolatedRequest, IsolatedResult } from '../synthesis/isolated.js';
import type { Explanation } from './explanation.js';
import type { TheoryListing } from './theory-listing.js';
import { isFormula, pathOf, type SpecSource, textOf, timeoutMsOf } from './inputs.js';
import { type CheckInput, type CheckOptions, type CheckTuning, inputList, type SpecVerdict, type Verdict, verdictExitCode } from './verdict.js';
import { nowMs } from '../diagnostics/clock.js';

/**
 * The builtin engine's verdicts one by one, in input order (then the composition). Throws `UserError` for unusable
 * options (no inputs, a bad timeout) before checking anything.
 */
export async function* checkEachBuiltin(
  inputs: CheckInput | readonly CheckInput[],
  options: CheckOptions = {},
  tuning: CheckTuning = {},
): AsyncGenerator<SpecVerdict> {
  const list = inputList(inputs);
  const timeoutMs = timeoutMsOf(options.timeout);
  if (list.length === 0) throw new UserError({ severity: 'error', message: 'name at least one spec file, or give --ltl with --ins/--outs', code: 'usage' });
  const { canIsolate, IsolatedChecker, runInProcess } = await import('../synthesis/isolated.js');
  const requests = list.map((input): { label: string; request: IsolatedRequest } =>
    isFormula(input)
      ? { label: '<formula>', request: { ltl: { formula: input.ltl, ins: input.ins, outs: input.outs }, timeoutMs, synthesize: options.states !== false } }
      : {
          label: pathOf(input),
          request: {
            file: pathOf(input),
            text: textOf(input),
            params: options.params,
            importRoot: options.importRoot,
            theory: options.theory,
            timeoutMs,
            synthesize: options.states !== false,
          },
        },
  );
  const checker: IsolatedChecker | undefined = canIsolate()
    ? new IsolatedChecker({ deferOptimization: tuning.deferOptimization, inProcessMs: tuning.inProcessMs }).warm(requests.map((r) => r.request))
    : undefined;
  try {
    for (const [i, { label, request }] of requests.entries()) {
      options.onStart?.(label, `${i + 1}/${requests.length}`);
      const result: IsolatedResult = checker ? await checker.check(request) : await runInProcess(request);
      yield await verdictOf(label, result, () => specOf(request), options, timeoutMs, request.file === undefined ? undefined : { path: request.file, text: request.text });
    }
    // The worker's part is done: free its core for the composed check.
    await checker?.close();
    const sources = list.filter((i): i is SpecSource => !isFormula(i));
    if (options.compose && sources.length > 1) yield await checkComposed(sources, options, timeoutMs);
  } finally {
    await checker?.close();
  }
}

async function verdictOf(
  label: string,
  result: IsolatedResult,
  load: () => Promise<GameSpec>,
  options: CheckOptions,
  timeoutMs: number,
  theoryFile?: { readonly path: string; readonly text?: string },
): Promise<SpecVerdict> {
  const none = { errors: [], warnings: [], notes: [] };
  if (result.verdict === 'error') {
    if (result.userError)
      return { ...none, spec: label, verdict: 'error', seconds: result.seconds, errors: result.userError as Diagnostic[], exitCode: ExitCode.inputError };
    return { ...none, spec: label, verdict: 'error', seconds: result.seconds, internalError: result.message, exitCode: ExitCode.internal };
  }
  const notes: Diagnostic[] = [];
  // The explanation and the theory listing both need the spec again: load it once.
  let loaded: Promise<GameSpec> | undefined;
  const loadOnce = () => (loaded ??= load());
  const explanation =
    result.verdict === 'unrealizable' && options.explain !== false ? await explainSafely(loadOnce, timeoutMs, notes) : undefined;
  const theory = theoryFile === undefined ? undefined : await theoryOf(theoryFile, loadOnce, options);
  return {
    spec: label,
    verdict: result.verdict,
    seconds: result.seconds,
    ...(result.states !== undefined ? { states: result.states } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
    ...(explanation ? { explanation } : {}),
    ...(theory ? { theory } : {}),
    errors: [],
    warnings: result.warnings ?? [],
    notes,
    exitCode: verdictExitCode(result.verdict),
  };
}

/** The spec behind a request, loaded again in this process (the check itself may have run in a worker). */
async function specOf(request: IsolatedRequest): Promise<GameSpec> {
  const { loadGame, loadLtlGame } = await import('../frontend/load.js');
  if (request.ltl) return loadLtlGame(request.ltl.formula, [...request.ltl.ins], [...request.ltl.outs]);
  return loadGame(String(request.file), { params: request.params, importRoot: request.importRoot, text: request.text, theory: request.theory });
}

/**
 * The theory facts of a TSL file read under a theory: its header's, or `theory`'s. The spec is
 * loaded again here only for such files (the check itself may have run in a worker).
 */
async function theoryOf(
  file: { readonly path: string; readonly text?: string },
  load: () => Promise<GameSpec>,
  options: CheckOptions,
): Promise<TheoryListing | undefined> {
  if (!file.path.toLowerCase().endsWith('.tsl')) return undefined;
  const { hasTheoryHeader, theoryListing } = await import('./theory-listing.js');
  if (options.theory === undefined) {
    let text = file.text;
    if (text === undefined) {
      try {
        const { readUserFile } = await import('../diagnostics/sources.js');
        text = readUserFile(file.path);
      } catch {
        return undefined;
      }
    }
    if (!hasTheoryHeader(text)) return undefined;
  }
  try {
    return theoryListing(await load());
  } catch {
    // The verdict stands; a spec that no longer loads has nothing to list.
    return undefined;
  }
}

/**
 * The explanation is extra information: if it cannot be produced (time budget, a solver error)
 * the verdict and exit code stand, and a note says why it is missing.
 */
async function explainSafely(load: () => Promise<GameSpec>, budgetMs: number, notes: Diagnostic[]): Promise<Explanation | undefined> {
  try {
    const { explainUnrealizable } = await import('../explain/explain.js');
    const e = explainUnrealizable(await load(), { knownUnrealizable: true, budgetMs });
    if (e.verdict === 'unrealizable') {
      const { summarizeExplanation } = await import('./explanation.js');
      return await summarizeExplanation(e);
    }
    notes.push({ severity: 'note', message: `no explanation (${e.verdict === 'unknown' ? e.reason : 'the explainer found it realizable'})`, code: 'no-explanation' });
  } catch (err) {
    notes.push({ severity: 'note', message: `no explanation (${(err as Error).message})`, code: 'no-explanation' });
  }
  return undefined;
}

/** The conjunction of all sources, solved in this thread (it has no file a worker could load). */
async function checkComposed(sources: readonly SpecSource[], options: CheckOptions, timeoutMs: number): Promise<SpecVerdict> {
  const label = sources.map(pathOf).join(' + ');
  options.onStart?.(label, 'composed');
  const { loadComposed } = await import('./load.js');
  const { FrontEndTimeout } = await import('../frontend/load.js');
  const { synthesizeController, checkRealizability } = await import('../synthesis/index.js');
  const started = nowMs();
  // Loading the files again counts against the composed check's time (a TLSF file may expand slowly).
  const deadline = started + timeoutMs;
  let spec: GameSpec | undefined;
  try {
    // Each file's warnings were reported with its own verdict.
    spec = await loadComposed(sources, { ...options, deadline }, () => undefined);
  } catch (err) {
    if (!(err instanceof FrontEndTimeout)) throw err;
  }
  const remainingMs = Math.max(1, deadline - nowMs());
  let solved: { verdict: Verdict; reason?: string; states?: number };
  if (!spec) solved = { verdict: 'unknown', reason: 'timeout' };
  else if (options.states !== false) {
    const r = synthesizeController(spec, { timeoutMs: remainingMs });
    solved = r.verdict === 'realizable' ? { verdict: r.verdict, states: r.controller.stateCount } : r;
  } else solved = checkRealizability(spec, { timeoutMs: remainingMs });
  const seconds = (nowMs() - started) / 1000;
  const composed = spec;
  return verdictOf(label, { verdict: solved.verdict, seconds, states: solved.states, reason: solved.reason }, async () => composed!, options, timeoutMs);
}
