/**
 * `tslc check` with the builtin engine: realizability per spec, one stable line (or JSON object)
 * each. Exit: 2 if any input error, else 1 if any spec is unrealizable, else 3 if any is unknown,
 * else 0; 70 for an internal error.
 *
 * The work is the library's `checkEach` (src/api/check.ts): this module turns its arguments into
 * options and prints each verdict as it comes — warnings (e.g. TSL's precedence warning) on stderr
 * before the verdict line, or as `warnings` in the JSON object; an unrealizable spec's
 * explanation under its line. Nothing here imports src/external.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { checkEachBuiltin } from '../../api/check-builtin.js';
import { combinedExitCode, type CheckInput, type SpecVerdict } from '../../api/verdict.js';
import type { TheoryListing } from '../../api/theory-listing.js';
import { diagnosticsToJson, importRootArg, loadSourceFor, readUserFile, renderDiagnostics, useColor } from '../io.js';
import { isStreamInput } from '../../diagnostics/read-input.js';
import { isTerminal, writeStderr, writeStdout } from '../out.js';

export const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean);

/** `--timeout` in seconds, validated (a usage error unless positive). */
export function timeoutSecondsOf(args: Record<string, unknown>): number {
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: `--timeout expects a positive number of seconds`, code: 'usage' });
  return timeoutSeconds;
}

/** The specs `check`'s arguments name: `--ltl` first, then the files. */
export function checkInputs(args: Record<string, unknown>): CheckInput[] {
  const formula: CheckInput[] = args.ltl !== undefined ? [{ ltl: String(args.ltl), ins: list(args.ins), outs: list(args.outs) }] : [];
  // Standard input and pipes are read here, once: the check (perhaps in a worker) and the
  // explanation (here) both need the text.
  const files = list(args.files).map((file): CheckInput => (isStreamInput(file) ? { path: file, text: readUserFile(file) } : file));
  return [...formula, ...files];
}

/** Checks the specs of `args` with the builtin engine and prints one verdict each. */
export async function runBuiltinCheck(args: Record<string, unknown>, timeoutSeconds = timeoutSecondsOf(args)): Promise<number> {
  const json = Boolean(args.json);
  const inputs = checkInputs(args);
  const color = !json && useColor(isTerminal(1));
  const progress = inputs.length > 1 && isTerminal(2);
  const codes: number[] = [];
  const verdicts = checkEachBuiltin(
    inputs,
    {
      timeout: timeoutSeconds,
      params: await parseParams(list(args.param)),
      importRoot: importRootArg(args),
      theory: args.theory === undefined ? undefined : (await import('../../frontend/load.js')).theoryOption(args.theory),
      states: args.states !== false,
      // The registry's default (true) turns explanations on for the CLI; in-process callers that
      // pass no `explain` keep the one-line-per-spec output they were written against.
      explain: args.explain === true,
      compose: Boolean(args.compose),
      onStart: progress ? (spec, at) => writeStderr(`[${at}] ${spec}\n`) : undefined,
    },
    { deferOptimization: true, inProcessMs: inProcessMsFromEnv() },
  );
  const showTheory = args['show-theory'] === true;
  for await (const v of verdicts) {
    codes.push(v.exitCode);
    if (json) writeStdout(JSON.stringify(verdictJson(v, showTheory)) + '\n');
    else printVerdict(v, color, showTheory);
  }
  return combinedExitCode(codes);
}

/**
 * `TSLC_IN_PROCESS_MS`: how long each spec is at most tried in the CLI's own thread before it
 * moves to a worker (default: its whole time, unless its heap grows large; 0 sends every spec to
 * a worker at once).
 */
function inProcessMsFromEnv(): number | undefined {
  const raw = process.env.TSLC_IN_PROCESS_MS;
  if (raw === undefined || raw === '') return undefined;
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0)
    throw new UserError({ severity: 'error', message: `TSLC_IN_PROCESS_MS expects a number of milliseconds ≥ 0, not '${raw}'`, code: 'usage' });
  return ms;
}

/** The verdict line first (scripts grep `file: verdict`), warnings and notes on stderr. */
function printVerdict(v: SpecVerdict, color: boolean, showTheory: boolean): void {
  if (v.warnings.length > 0) writeStderr(renderWithSource(v.warnings) + '\n');
  if (v.verdict === 'error') {
    if (v.internalError !== undefined)
      writeStderr(`tslc: internal error while checking ${v.spec} (please report this with the input):\n${v.internalError}\n`);
    else writeStderr(renderWithSource(v.errors) + '\n');
    return;
  }
  writeStdout(`${v.spec}: ${describe(v, color)}\n`);
  for (const note of v.notes) writeStderr(`${v.spec}: note: ${note.message}\n`);
  if (v.theory) writeStdout(formatTheory(v.theory, showTheory) + '\n');
  if (v.explanation) writeStdout(v.explanation.text.split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n') + '\n');
}

/** One JSON object per spec: `{file, verdict, seconds, states?, reason?, explanation?, warnings?}`. */
function verdictJson(v: SpecVerdict, showTheory: boolean): Record<string, unknown> {
  const warnings = v.warnings.length > 0 ? { warnings: diagnosticsToJson(v.warnings) } : {};
  if (v.verdict === 'error') {
    if (v.internalError !== undefined) {
      writeStderr(`tslc: internal error while checking ${v.spec} (please report this with the input):\n${v.internalError}\n`);
      return { file: v.spec, verdict: 'error', seconds: round(v.seconds), ...warnings };
    }
    return { file: v.spec, verdict: 'error', errors: diagnosticsToJson(v.errors), ...warnings };
  }
  for (const note of v.notes) writeStderr(`${v.spec}: note: ${note.message}\n`);
  const obj: Record<string, unknown> = { file: v.spec, verdict: v.verdict, seconds: round(v.seconds) };
  if (v.states !== undefined) obj.states = v.states;
  if (v.reason) obj.reason = v.reason;
  if (v.theory) obj.theory = showTheory ? { name: v.theory.name, facts: v.theory.facts } : { name: v.theory.name, count: v.theory.facts.length };
  if (v.explanation) {
    const { headline, core, assumptions, minimal } = v.explanation;
    obj.explanation = { headline, core, assumptions, minimal };
  }
  return { ...obj, ...warnings };
}

const round = (s: number) => Math.round(s * 100) / 100;

/** The theory's facts (`--show-theory`), or how many there are. */
function formatTheory(t: TheoryListing, all: boolean): string {
  const n = t.facts.length;
  if (!all) return `  assumed from ${t.name}: ${n} fact${n === 1 ? '' : 's'} (--show-theory lists them)`;
  const lines = [`  assumed from ${t.name}${t.location ? ` (${t.location})` : ''}: ${n} fact${n === 1 ? '' : 's'}`];
  for (const f of t.facts) lines.push(`    ${f.kind.padEnd(12)} ${f.fact}`);
  return lines.join('\n');
}

function describe(v: SpecVerdict, color: boolean): string {
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const time = `${v.seconds.toFixed(2)} s`;
  if (v.verdict === 'realizable')
    return `${paint(32, 'realizable')} (${time}${v.states !== undefined ? `, ${v.states} state${v.states === 1 ? '' : 's'}` : ''})`;
  if (v.verdict === 'unrealizable') return `${paint(31, 'unrealizable')} (${time})`;
  return `${paint(33, `unknown (${v.reason ?? 'timeout'})`)} (${time})`;
}

function renderWithSource(diagnostics: readonly Diagnostic[]): string {
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
