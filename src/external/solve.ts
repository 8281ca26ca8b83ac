/**
 * `--synthesizer builtin|ltlsynt|strix|auto` as one function the `check`, `synth` and `compile`
 * commands call, with the built-in engine passed in as a callback (this module does not know its
 * options). In `auto` mode the built-in engine and an installed external tool run concurrently;
 * the first *verified* answer wins and the other is cancelled. External REALIZABLE answers only
 * count with a controller that passed the independent check; a tool caught lying is reported as a
 * loud warning and the race continues.
 */
import type { Argv } from 'yargs';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { MealyMachine } from '../game/mealy.js';
import type { GameSpec } from '../game/spec.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { type ExternalMode, type ExternalResult, runExternal } from './run.js';
import { findTools, loadConfig, TOOL_NAMES, type ToolLocation, type ToolName } from './tools.js';
import type { ControllerVerifier } from './verifier.js';
import { nowMs } from '../diagnostics/clock.js';

export type SynthesizerChoice = 'builtin' | ToolName | 'auto';
export const SYNTHESIZER_CHOICES: readonly SynthesizerChoice[] = ['builtin', ...TOOL_NAMES, 'auto'];
export type Backend = 'builtin' | ToolName;

/** What the built-in engine reports to this module. */
export type BackendVerdict =
  | { readonly status: 'realizable'; readonly machine?: MealyMachine }
  | { readonly status: 'unrealizable' }
  | { readonly status: 'unknown'; readonly reason?: string }
  | { readonly status: 'error'; readonly diagnostic: Diagnostic };

/** Runs the built-in engine; should stop early when `signal` aborts (auto mode lost the race). */
export type BuiltinBackend = (signal: AbortSignal) => Promise<BackendVerdict>;

export interface SolveOptions {
  readonly synthesizer: SynthesizerChoice;
  /** `check` asks for realizability only; `synth`/`compile` need a controller. */
  readonly mode: ExternalMode;
  readonly builtin: BuiltinBackend;
  /** Per-spec limit for external tools. */
  readonly timeoutMs?: number;
  readonly verify?: ControllerVerifier;
  readonly env?: NodeJS.ProcessEnv;
}

export interface SolveResult {
  /** Which back end produced the answer. */
  readonly backend: Backend;
  readonly status: 'realizable' | 'unrealizable' | 'unknown' | 'error';
  /** For `realizable` in synthesis mode: verified if it came from an external tool. */
  readonly machine?: MealyMachine;
  /** Errors (status `error`) and warnings (e.g. an external tool caught answering wrongly). */
  readonly diagnostics: readonly Diagnostic[];
  /** Exit code the command should use for this spec. */
  readonly exitCode: number;
  readonly timeMs: number;
}

export const DEFAULT_EXTERNAL_TIMEOUT_MS = 60_000;

/** The `--synthesizer` (and optionally `--cross-check`) flags, for the commands' yargs builders. */
export function addSynthesizerOptions(y: Argv, options: { crossCheck?: boolean } = {}): Argv {
  let out = y
    .option('synthesizer', {
      choices: SYNTHESIZER_CHOICES as SynthesizerChoice[],
      default: 'builtin' as SynthesizerChoice,
      describe: 'back end: builtin engine, ltlsynt (Spot), strix, or auto (builtin and an installed tool race; first verified answer wins)',
    })
    .option('tool-timeout', {
      type: 'number',
      describe: `seconds per spec for an external synthesizer (default ${DEFAULT_EXTERNAL_TIMEOUT_MS / 1000}, or "timeoutSeconds" in tslc.config.json)`,
    });
  if (options.crossCheck)
    out = out.option('cross-check', {
      type: 'boolean',
      default: false,
      describe: 'run the builtin engine and every installed external synthesizer on each spec and tabulate agreement (exit 1 on disagreement)',
    });
  return out;
}

/** Read the flags added by `addSynthesizerOptions`. */
export function synthesizerFromArgs(args: Record<string, unknown>): { synthesizer: SynthesizerChoice; timeoutMs: number; crossCheck: boolean } {
  const raw = args.synthesizer ?? 'builtin';
  const synthesizer = (SYNTHESIZER_CHOICES as readonly unknown[]).includes(raw) ? (raw as SynthesizerChoice) : 'builtin';
  const seconds = typeof args['tool-timeout'] === 'number' ? (args['tool-timeout'] as number) : undefined;
  let timeoutMs = seconds !== undefined && seconds > 0 ? seconds * 1000 : undefined;
  if (timeoutMs === undefined) {
    try {
      timeoutMs = loadConfig().timeoutMs;
    } catch {
      // A broken config file is reported where tools are looked up; the default applies here.
    }
  }
  return { synthesizer, timeoutMs: timeoutMs ?? DEFAULT_EXTERNAL_TIMEOUT_MS, crossCheck: args['cross-check'] === true };
}

function fromExternal(r: ExternalResult): SolveResult {
  const base = { backend: r.tool, timeMs: r.timeMs } as const;
  switch (r.status) {
    case 'realizable':
      return { ...base, status: 'realizable', machine: r.machine, diagnostics: [], exitCode: ExitCode.ok };
    case 'unrealizable':
      return { ...base, status: 'unrealizable', diagnostics: [], exitCode: ExitCode.failure };
    case 'timeout':
      return {
        ...base,
        status: 'unknown',
        diagnostics: [{ severity: 'warning', message: `${r.tool} did not answer within the time limit (killed after ${r.timeMs} ms)`, code: 'timeout' }],
        exitCode: ExitCode.unknown,
      };
    case 'cancelled':
      return { ...base, status: 'unknown', diagnostics: [], exitCode: ExitCode.unknown };
    case 'unavailable':
      return { ...base, status: 'error', diagnostics: [r.diagnostic], exitCode: ExitCode.inputError };
    case 'error':
      return { ...base, status: 'error', diagnostics: [r.diagnostic], exitCode: ExitCode.unknown };
    case 'wrong':
      return { ...base, status: 'error', diagnostics: [r.diagnostic], exitCode: ExitCode.failure };
  }
}

function fromBuiltin(v: BackendVerdict, timeMs: number): SolveResult {
  const base = { backend: 'builtin', timeMs } as const;
  switch (v.status) {
    case 'realizable':
      return { ...base, status: 'realizable', machine: v.machine, diagnostics: [], exitCode: ExitCode.ok };
    case 'unrealizable':
      return { ...base, status: 'unrealizable', diagnostics: [], exitCode: ExitCode.failure };
    case 'unknown':
      return {
        ...base,
        status: 'unknown',
        diagnostics: v.reason ? [{ severity: 'warning', message: v.reason, code: 'timeout' }] : [],
        exitCode: ExitCode.unknown,
      };
    case 'error':
      return { ...base, status: 'error', diagnostics: [v.diagnostic], exitCode: ExitCode.inputError };
  }
}

async function timedBuiltin(builtin: BuiltinBackend, signal: AbortSignal): Promise<SolveResult> {
  const started = nowMs();
  const v = await builtin(signal);
  return fromBuiltin(v, Math.round(nowMs() - started));
}

export async function solve(spec: GameSpec, options: SolveOptions): Promise<SolveResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXTERNAL_TIMEOUT_MS;
  const env = options.env ?? process.env;
  if (options.synthesizer === 'builtin') return timedBuiltin(options.builtin, new AbortController().signal);
  if (options.synthesizer !== 'auto')
    return fromExternal(await runExternal(options.synthesizer, spec, { mode: options.mode, timeoutMs, verify: options.verify, env }));

  // auto: the builtin engine and the first installed external tool, racing.
  const installed = (await findTools({ env, probeVersion: false })).find((t) => t.available && t.location);
  if (!installed?.location) return timedBuiltin(options.builtin, new AbortController().signal);
  return race(spec, options, installed.tool, installed.location, timeoutMs, env);
}

async function race(
  spec: GameSpec,
  options: SolveOptions,
  tool: ToolName,
  location: ToolLocation,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
): Promise<SolveResult> {
  const controller = new AbortController();
  const warnings: Diagnostic[] = [];
  // The external tool always synthesizes in auto mode: a REALIZABLE answer only wins with a
  // controller that passed the independent check.
  const external = runExternal(tool, spec, { mode: 'synthesis', timeoutMs, verify: options.verify, env, location, signal: controller.signal }).then(
    (r): SolveResult | undefined => {
      if (r.status === 'realizable' || r.status === 'unrealizable') return fromExternal(r);
      if (r.status === 'wrong') warnings.push({ ...r.diagnostic, severity: 'warning' });
      return undefined;
    },
  );
  const builtinOutcome = timedBuiltin(options.builtin, controller.signal);
  const builtin = builtinOutcome.then((r): SolveResult | undefined =>
    r.status === 'realizable' || r.status === 'unrealizable' ? r : undefined,
  );
  const winner = await firstDefined([external, builtin]);
  controller.abort();
  if (winner) return { ...winner, diagnostics: [...warnings, ...winner.diagnostics] };
  // Neither decided: report the builtin engine's own outcome, plus anything learnt on the way.
  const own = await builtinOutcome;
  return { ...own, diagnostics: [...warnings, ...own.diagnostics] };
}

/** Resolves with the first promise's defined value, or undefined when all resolve undefined. */
function firstDefined<T>(promises: readonly Promise<T | undefined>[]): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    let pending = promises.length;
    for (const p of promises)
      p.then((v) => {
        if (v !== undefined) resolve(v);
        else if (--pending === 0) resolve(undefined);
      }, reject);
  });
}

