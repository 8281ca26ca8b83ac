/**
 * What the library's functions read and share: a spec as a file path or as text in memory, an LTL
 * formula with its input/output split, the options every command has, and the base of every
 * result (errors, warnings, the CLI's exit code). Names follow the CLI's flags (`timeout` is in
 * seconds, as `--timeout`), so a build script and a CI step say the same thing.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { UserError } from '../diagnostics/diagnostic.js';
import type { ExitCodeValue } from '../diagnostics/exit-codes.js';
import type { TheoryName } from '../game/spec.js';

/**
 * A spec: the path of a `.tsl`/`.tlsf` file, or its text in memory with a path. The path names
 * the spec in diagnostics, its extension picks the front end, and TSL imports resolve relative
 * to it (so an in-memory source may import files beside its path).
 */
export type SpecSource = string | { readonly path: string; readonly text: string };

/** A Spot-syntax LTL formula and which propositions the environment and the controller own. */
export interface FormulaSpec {
  readonly ltl: string;
  readonly ins: readonly string[];
  readonly outs: readonly string[];
}

/** The back ends of `--synthesizer`. */
export type SynthesizerName = 'builtin' | 'ltlsynt' | 'strix' | 'auto';

/** Options every function that reads specs accepts. */
export interface ReadOptions {
  /** TSL imports are read only from inside this directory (symlinks followed); default: anywhere. */
  readonly importRoot?: string;
  /** TLSF GLOBAL PARAMETERS overrides (`--param n=3`). */
  readonly params?: Readonly<Record<string, number>>;
  /** Read TSL specs in this theory, overriding their `#LIA`/`#UF` header (`none`: all uninterpreted). */
  readonly theory?: TheoryName | 'none';
}

/** Options of the functions that solve a game. */
export interface SolveOptions extends ReadOptions {
  /** Seconds per spec; then the verdict is `unknown` (default 60). */
  readonly timeout?: number;
  /** The back end (default `builtin`); an external tool's controller is verified before use. */
  readonly synthesizer?: SynthesizerName;
  /** Seconds per spec for an external synthesizer (default 60, or tslc.config.json). */
  readonly toolTimeout?: number;
}

/** What every result carries: the input's errors and warnings, and the exit code `tslc` would give. */
export interface Outcome {
  /** Input errors (syntax, unknown names, unreadable files); empty when the input was usable. */
  readonly errors: readonly Diagnostic[];
  /** Warnings of the front ends, e.g. TSL's precedence warning; never a reason to fail. */
  readonly warnings: readonly Diagnostic[];
  /** 0 ok · 1 unrealizable/violation · 2 input error · 3 unknown · 70 internal error. */
  readonly exitCode: ExitCodeValue;
}

/** The path of a spec source. */
export function pathOf(source: SpecSource): string {
  return typeof source === 'string' ? source : source.path;
}

/** The in-memory text of a spec source, if it has one. */
export function textOf(source: SpecSource): string | undefined {
  return typeof source === 'string' ? undefined : source.text;
}

export function isFormula(input: SpecSource | FormulaSpec): input is FormulaSpec {
  return typeof input === 'object' && 'ltl' in input;
}

/** `timeout` in milliseconds, validated: a usage error unless a positive number of seconds. */
export function timeoutMsOf(seconds: number | undefined, flag = 'timeout'): number {
  const s = seconds ?? 60;
  if (typeof s !== 'number' || !Number.isFinite(s) || s <= 0)
    throw new UserError({ severity: 'error', message: `${flag === 'timeout' ? '--timeout' : flag} expects a positive number of seconds`, code: 'usage' });
  return s * 1000;
}

/** Runs `work`; a `UserError` it throws becomes the result `failed` builds from its diagnostics. */
export async function catchingUserErrors<T>(work: () => Promise<T>, failed: (errors: readonly Diagnostic[]) => T): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UserError) return failed(err.diagnostics);
    throw err;
  }
}
