/**
 * `tslc check` with the builtin engine: realizability per spec, one stable line (or JSON object)
 * each. Exit: 2 if any input error, else 1 if any spec is unrealizable, else 3 if any is unknown,
 * else 0; 70 for an internal error.
 *
 * An unrealizable spec is explained under its verdict line (core by file:line, counterplay);
 * `--compose` also checks the conjunction of all files. Explanations are imported only when used,
 * so a plain `tslc check` on realizable specs does not load them. External back ends are
 * check.ts's business: nothing here imports src/external.
 *
 * Specs are solved by one IsolatedChecker (src/synthesis/isolated.ts): each is tried in this
 * thread for half a second, and one that needs longer moves to a worker thread (shared by the
 * rest of the run) where the hard time limit and a separate heap protect this process.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import { ExitCode } from '../exit-codes.js';
import { diagnosticsToJson, importRootArg, loadSourceFor, readUserFile, renderDiagnostics, useColor } from '../io.js';
import { isStreamInput } from '../../frontend/read-input.js';
import { isTerminal, writeStderr, writeStdout } from '../out.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { UnrealizableExplanation } from '../../explain/explain.js';
import type { GameSpec } from '../../game/spec.js';
import { canIsolate, IsolatedChecker, type IsolatedRequest, type IsolatedResult, runInProcess } from '../../synthesis/isolated.js';

export const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean);

/** `--timeout` in seconds, validated (a usage error unless positive). */
export function timeoutSecondsOf(args: Record<string, unknown>): number {
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: `--timeout expects a positive number of seconds`, code: 'usage' });
  return timeoutSeconds;
}

/** Checks the specs of `args` with the builtin engine and prints one verdict each. */
export async function runBuiltinCheck(args: Record<string, unknown>, timeoutSeconds = timeoutSecondsOf(args)): Promise<number> {
  const files = list(args.files);
  const formula = args.ltl !== undefined ? [{ ltl: { formula: String(args.ltl), ins: list(args.ins), outs: list(args.outs) } }] : [];
  const upcoming = [...formula, ...files.map((file) => ({ file }))];
  const checker = canIsolate() ? new IsolatedChecker({ deferOptimization: true, inProcessMs: inProcessMsFromEnv() }).warm(upcoming) : undefined;
  try {
    return await checkBuiltin(args, files, timeoutSeconds, checker);
  } finally {
    await checker?.close();
  }
}

/**
 * `TSLC_IN_PROCESS_MS`: how long each spec is tried in the CLI's own thread before it moves to a
 * worker (default 500; 0 sends every spec to a worker at once).
 */
function inProcessMsFromEnv(): number | undefined {
  const raw = process.env.TSLC_IN_PROCESS_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0)
    throw new UserError({ severity: 'error', message: `TSLC_IN_PROCESS_MS expects a number of milliseconds ≥ 0, not '${raw}'`, code: 'usage' });
  return ms;
}

async function checkBuiltin(args: Record<string, unknown>, files: string[], timeoutSeconds: number, checker: IsolatedChecker | undefined): Promise<number> {
  const json = Boolean(args.json);
  // The registry's default (true) turns explanations on for the CLI; in-process callers that pass
  // no `explain` keep the one-line-per-spec output they were written against.
  const explain = args.explain === true;
  const withStates = args.states !== false;
  const params = await parseParams(list(args.param));
  const importRoot = importRootArg(args);
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
  for (const file of files) {
    // Standard input and pipes are read here, once: the check (in a worker) and the explanation
    // (here) both need the text.
    const text = isStreamInput(file) ? readUserFile(file) : undefined;
    requests.push({ label: file, request: { file, text, params, importRoot, timeoutMs: timeoutSeconds * 1000, synthesize: withStates } });
  }
  if (requests.length === 0)
    throw new UserError({ severity: 'error', message: 'name at least one spec file, or give --ltl with --ins/--outs', code: 'usage' });

  const color = !json && useColor(isTerminal(1));
  const progress = requests.length > 1 && isTerminal(2);
  let sawInputError = false;
  let sawUnrealizable = false;
  let sawUnknown = false;
  let sawInternal = false;
  const report = (label: string, result: Exclude<IsolatedResult, { verdict: 'error' }>, explanation: UnrealizableExplanation | undefined): void => {
    if (json) {
      const obj: Record<string, unknown> = { file: label, verdict: result.verdict, seconds: round(result.seconds) };
      if (result.states !== undefined) obj.states = result.states;
      if (result.reason) obj.reason = result.reason;
      if (explanation) obj.explanation = explanationToJson(explanation);
      writeStdout(JSON.stringify(obj) + '\n');
      return;
    }
    // The verdict line comes first, so scripts grepping `file: verdict` keep working.
    writeStdout(`${label}: ${describe(result, color)}\n`);
    if (explanation) writeStdout(formatExplanationText(explanation) + '\n');
  };
  for (const [i, { label, request }] of requests.entries()) {
    if (progress) writeStderr(`[${i + 1}/${requests.length}] ${label}\n`);
    const result: IsolatedResult = checker ? await checker.check(request) : await runInProcess(request);
    if (result.verdict === 'error') {
      if (result.userError) {
        sawInputError = true;
        const diagnostics = result.userError as Diagnostic[];
        if (json) writeStdout(JSON.stringify({ file: label, verdict: 'error', errors: diagnosticsToJson(diagnostics) }) + '\n');
        else writeStderr(renderWithSource(diagnostics) + '\n');
      } else {
        sawInternal = true;
        if (json) writeStdout(JSON.stringify({ file: label, verdict: 'error', seconds: round(result.seconds) }) + '\n');
        writeStderr(`tslc: internal error while checking ${label} (please report this with the input):\n${result.message}\n`);
      }
      continue;
    }
    if (result.verdict === 'unrealizable') sawUnrealizable = true;
    if (result.verdict === 'unknown') sawUnknown = true;
    const explanation =
      result.verdict === 'unrealizable' && explain ? await explainSafely(label, () => specOf(request), timeoutSeconds * 1000) : undefined;
    report(label, result, explanation);
  }
  // The worker's part is done: free its core for the composed check.
  await checker?.close();
  if (args.compose && files.length > 1) {
    // The composed spec has no file of its own, so it is solved in-process (no worker isolation).
    const label = files.join(' + ');
    if (progress) writeStderr(`[composed] ${label}\n`);
    const { loadSpecs } = await import('../../report/build.js');
    const { synthesizeController, checkRealizability } = await import('../../synthesis/index.js');
    const spec = await loadSpecs(files, { importRoot });
    const started = performance.now();
    let solved: { verdict: 'realizable' | 'unrealizable' | 'unknown'; reason?: string; states?: number };
    if (withStates) {
      const r = synthesizeController(spec, { timeoutMs: timeoutSeconds * 1000 });
      solved = r.verdict === 'realizable' ? { verdict: r.verdict, states: r.controller.stateCount } : r;
    } else solved = checkRealizability(spec, { timeoutMs: timeoutSeconds * 1000 });
    const seconds = (performance.now() - started) / 1000;
    const result: Exclude<IsolatedResult, { verdict: 'error' }> = { verdict: solved.verdict, seconds, states: solved.states, reason: solved.reason };
    if (result.verdict === 'unrealizable') sawUnrealizable = true;
    if (result.verdict === 'unknown') sawUnknown = true;
    const explanation = result.verdict === 'unrealizable' && explain ? await explainSafely(label, async () => spec, timeoutSeconds * 1000) : undefined;
    report(label, result, explanation);
  }
  if (sawInternal) return ExitCode.internal;
  if (sawInputError) return ExitCode.inputError;
  if (sawUnrealizable) return ExitCode.failure;
  if (sawUnknown) return ExitCode.unknown;
  return ExitCode.ok;
}

const round = (s: number) => Math.round(s * 100) / 100;

let explainModule: typeof import('../../explain/explain.js') | undefined;
let wordsModule: typeof import('../../explain/words.js') | undefined;

/** The spec behind a request, loaded again in this process (the check itself ran in a worker). */
async function specOf(request: IsolatedRequest): Promise<GameSpec> {
  if (request.ltl) {
    const { loadLtlGame } = await import('../../frontend/load.js');
    return loadLtlGame(request.ltl.formula, [...request.ltl.ins], [...request.ltl.outs]);
  }
  const { loadGame } = await import('../../frontend/load.js');
  return loadGame(String(request.file), { params: request.params, importRoot: request.importRoot, text: request.text });
}

/**
 * The explanation is extra information: if it cannot be produced (time budget, a solver error)
 * the verdict and exit code stand, and a note says why it is missing.
 */
async function explainSafely(label: string, load: () => Promise<GameSpec>, budgetMs: number): Promise<UnrealizableExplanation | undefined> {
  try {
    explainModule ??= await import('../../explain/explain.js');
    wordsModule ??= await import('../../explain/words.js');
    const e = explainModule.explainUnrealizable(await load(), { knownUnrealizable: true, budgetMs });
    if (e.verdict === 'unrealizable') return e;
    writeStderr(`${label}: note: no explanation (${e.verdict === 'unknown' ? e.reason : 'the explainer found it realizable'})\n`);
  } catch (err) {
    writeStderr(`${label}: note: no explanation (${(err as Error).message})\n`);
  }
  return undefined;
}

function formatExplanationText(e: UnrealizableExplanation): string {
  const text = explainModule!.formatExplanation(e);
  return text.split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n');
}

function explanationToJson(e: UnrealizableExplanation): Record<string, unknown> {
  const words = wordsModule!;
  const part = (p: Parameters<typeof words.partText>[0]) => ({ location: words.partLocation(p), file: p.span?.file, line: p.span?.line, text: words.partText(p) });
  return {
    headline: explainModule!.coreHeadline(e.core),
    core: e.core.members.map((m) => ({ kind: m.kind, ...part(m.part) })),
    assumptions: e.core.context.map(part),
    minimal: e.core.minimal,
  };
}

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
  const files = new Set(diagnostics.flatMap((d) => [d, ...(d.notes ?? [])]).flatMap((d) => (d.span ? [d.span.file] : [])));
  for (const file of files) loadSourceFor(file);
  return renderDiagnostics(diagnostics);
}

async function parseParams(assignments: string[]): Promise<Record<string, number> | undefined> {
  if (assignments.length === 0) return undefined;
  const { parseParamAssignments } = await import('../../tlsf/index.js');
  return parseParamAssignments(assignments);
}
