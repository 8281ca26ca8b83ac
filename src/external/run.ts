/**
 * `runExternal`: one spec through ltlsynt or Strix, end to end — rename propositions, print the
 * spec formula in Spot syntax, run the tool (with timeout and cancellation), read its verdict and
 * HOA controller, map names back, and put the controller through the independent checker.
 * A controller that fails the check is returned as `wrong` (the tool lied), never as an answer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { HoaAutomaton } from '../automata/hoa.js';
import { hoaToMealy } from '../automata/hoa-convert.js';
import type { MealyMachine } from '../game/mealy.js';
import { type GameSpec, inputNames, outputNames, specFormula } from '../game/spec.js';
import { toSpot } from '../ltl/print.js';
import { minimizeMealy } from '../synthesis/extract.js';
import { makeRenaming, renameFormula, type Renaming } from './names.js';
import { parseToolOutput } from './output.js';
import { runProcess } from './process.js';
import { locateTool, missingToolMessage, type ToolLocation, type ToolName } from './tools.js';
import { type ControllerVerifier, describeCounterexample, loadDefaultVerifier } from './verifier.js';
import { nowMs } from '../diagnostics/clock.js';

export type ExternalMode = 'realizability' | 'synthesis';

export interface ExternalOptions {
  readonly mode: ExternalMode;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Defaults to the project's independent checker. */
  readonly verify?: ControllerVerifier;
  /** Use this binary instead of looking the tool up. */
  readonly location?: ToolLocation;
  readonly env?: NodeJS.ProcessEnv;
  /** Minimize a verified controller as the builtin engine does (default true). */
  readonly minimize?: boolean;
}

interface Common {
  readonly tool: ToolName;
  readonly timeMs: number;
}
export type ExternalResult =
  /** `machine` is present (and verified) in synthesis mode; realizability mode has no witness. */
  | (Common & { readonly status: 'realizable'; readonly machine?: MealyMachine; readonly verified: boolean })
  | (Common & { readonly status: 'unrealizable' })
  | (Common & { readonly status: 'timeout' })
  | (Common & { readonly status: 'cancelled' })
  /** The tool is not installed or not runnable. */
  | (Common & { readonly status: 'unavailable'; readonly diagnostic: Diagnostic })
  /** Crash, bad exit status, garbage output, malformed HOA, unsupported spec. */
  | (Common & { readonly status: 'error'; readonly diagnostic: Diagnostic })
  /** The tool answered with a controller that fails the independent check. */
  | (Common & {
      readonly status: 'wrong';
      readonly diagnostic: Diagnostic;
      readonly machine: MealyMachine;
      readonly counterexample?: unknown;
    });

/** Formulas longer than this go through a temp file (`-F`): argv strings are capped at 128 KiB. */
const MAX_INLINE_FORMULA = 100_000;

/** The command line for a tool (exported for tests and `--verbose` output). */
export function toolArguments(tool: ToolName, formulaArg: readonly string[], renaming: Renaming, mode: ExternalMode): string[] {
  const args = [...formulaArg];
  if (tool === 'ltlsynt') {
    if (renaming.inputs.length > 0) args.push(`--ins=${renaming.inputs.join(',')}`);
    if (renaming.outputs.length > 0) args.push(`--outs=${renaming.outputs.join(',')}`);
    if (mode === 'realizability') args.push('--realizability');
  } else {
    args.push(`--ins=${renaming.inputs.join(',')}`, `--outs=${renaming.outputs.join(',')}`);
    if (mode === 'realizability') args.push('--realizability');
  }
  return args;
}

function diag(message: string, code: string): Diagnostic {
  return { severity: 'error', message, code };
}

export async function runExternal(tool: ToolName, spec: GameSpec, options: ExternalOptions): Promise<ExternalResult> {
  const started = nowMs();
  const since = () => Math.round(nowMs() - started);
  let location = options.location;
  if (!location) {
    const found = locateTool(tool, options.env ?? process.env);
    if (!found.location)
      return { tool, status: 'unavailable', timeMs: 0, diagnostic: diag(found.problem ?? missingToolMessage(tool), 'tool-missing') };
    location = found.location;
  }
  if (spec.semantics === 'moore')
    return {
      tool,
      status: 'error',
      timeMs: 0,
      diagnostic: diag(`${tool} is run with Mealy semantics; spec '${spec.name}' uses Moore semantics (use --synthesizer builtin)`, 'unsupported'),
    };

  const renaming = makeRenaming(inputNames(spec), outputNames(spec));
  let formulaText: string;
  try {
    formulaText = toSpot(renameFormula(specFormula(spec), renaming));
  } catch (err) {
    return { tool, status: 'error', timeMs: 0, diagnostic: diag(`${spec.name}: ${(err as Error).message}`, 'unsupported') };
  }
  let tempDir: string | undefined;
  let formulaArg: string[];
  if (formulaText.length > MAX_INLINE_FORMULA) {
    tempDir = mkdtempSync(join(tmpdir(), 'tslc-'));
    const file = join(tempDir, 'spec.ltl');
    writeFileSync(file, formulaText + '\n');
    formulaArg = ['-F', file];
  } else formulaArg = ['-f', formulaText];

  try {
    const args = [...location.extraArgs, ...toolArguments(tool, formulaArg, renaming, options.mode)];
    const out = await runProcess(location.path, args, { timeoutMs: options.timeoutMs, signal: options.signal });
    switch (out.kind) {
      case 'timeout':
        return { tool, status: 'timeout', timeMs: out.timeMs };
      case 'cancelled':
        return { tool, status: 'cancelled', timeMs: out.timeMs };
      case 'spawn-error':
        return { tool, status: 'unavailable', timeMs: out.timeMs, diagnostic: diag(`cannot run ${tool} (${location.path}): ${out.message}`, 'tool-missing') };
      case 'signalled':
        return { tool, status: 'error', timeMs: out.timeMs, diagnostic: diag(`${tool} was killed by ${out.signal}${stderrTail(out.stderr)}`, 'tool-crash') };
      case 'exited':
        break;
    }
    // ltlsynt: 0 realizable, 1 unrealizable, 2 error. SYNTCOMP tools: 10 / 20.
    if (![0, 1, 10, 20].includes(out.exitCode))
      return {
        tool,
        status: 'error',
        timeMs: out.timeMs,
        diagnostic: diag(`${tool} exited with status ${out.exitCode}${stderrTail(out.stderr)}`, 'tool-failed'),
      };
    let parsed;
    try {
      parsed = parseToolOutput(tool, out.stdout, options.mode === 'synthesis');
    } catch (err) {
      if (err instanceof UserError) return { tool, status: 'error', timeMs: out.timeMs, diagnostic: err.diagnostics[0] };
      throw err;
    }
    if (parsed.verdict === 'unrealizable') return { tool, status: 'unrealizable', timeMs: out.timeMs };
    if (!parsed.hoa) return { tool, status: 'realizable', timeMs: out.timeMs, verified: false };

    let machine: MealyMachine;
    try {
      machine = machineInSpecNames(tool, spec, renaming, parsed.hoa);
    } catch (err) {
      if (err instanceof UserError) return { tool, status: 'error', timeMs: out.timeMs, diagnostic: err.diagnostics[0] };
      throw err;
    }
    const verify = options.verify ?? (await loadDefaultVerifier());
    const verdict = await verify(spec, machine);
    if (verdict.ok) {
      // The same minimization as our own controllers; the result is checked again, and the
      // tool's (verified) machine is kept should minimization ever break it.
      if (options.minimize === false) return { tool, status: 'realizable', timeMs: since(), machine, verified: true };
      const small = minimizeMealy(machine);
      if (small.stateCount === machine.stateCount) return { tool, status: 'realizable', timeMs: since(), machine, verified: true };
      const smallOk = await verify(spec, small);
      return { tool, status: 'realizable', timeMs: since(), machine: smallOk.ok ? small : machine, verified: true };
    }
    const cex = await describeCounterexample(verdict.counterexample);
    return {
      tool,
      status: 'wrong',
      timeMs: since(),
      machine,
      counterexample: verdict.counterexample,
      diagnostic: diag(
        `${tool} answered REALIZABLE for '${spec.name}' but its controller FAILS independent verification (${verdict.kind}): ${verdict.message}${cex ? `\ncounterexample:\n${cex}` : ''}`,
        'tool-wrong',
      ),
    };
  } finally {
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  }
}

function stderrTail(stderr: string): string {
  const lines = stderr.trim().split('\n').filter(Boolean);
  if (lines.length === 0) return '';
  return `: ${lines.slice(-3).join(' | ').slice(0, 300)}`;
}

/**
 * The tool's controller over the spec's proposition names and full input/output lists (tools drop
 * propositions the formula does not constrain). An AP the tool invented, or one whose side
 * (input/output) it swapped, is an error rather than something to guess about.
 */
function machineInSpecNames(tool: ToolName, spec: GameSpec, renaming: Renaming, hoa: HoaAutomaton): MealyMachine {
  const fail = (message: string): never => {
    throw new UserError({ severity: 'error', message: `${tool}: ${message}`, code: 'external-output' });
  };
  const controllable = new Set(hoa.controllableAps ?? []);
  hoa.aps.forEach((name, i) => {
    const original = renaming.fromSafe.get(name);
    if (original === undefined) fail(`its controller mentions proposition "${name}", which tslc did not pass to it`);
    const isOutput = name.startsWith('o');
    if (hoa.controllableAps && isOutput !== controllable.has(i))
      fail(`its controller treats ${isOutput ? 'output' : 'input'} "${original}" as ${isOutput ? 'an input' : 'an output'}`);
  });
  const m = hoaToMealy(hoa, { file: `<${tool} output>`, rename: (n) => renaming.fromSafe.get(n) ?? n });
  return { ...m, inputs: inputNames(spec), outputs: outputNames(spec) };
}
