/**
 * What `check` answers per spec (`SpecVerdict`), its options, and how verdicts combine into the
 * exit code `tslc check` gives. Shared by the builtin and the external check, and by the CLI.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ExitCode, type ExitCodeValue } from '../diagnostics/exit-codes.js';
import type { Explanation } from './explanation.js';
import type { FormulaSpec, Outcome, SolveOptions, SpecSource } from './inputs.js';
import type { TheoryListing } from './theory-listing.js';

export interface CheckOptions extends SolveOptions {
  /** Synthesize to report controller states (default true; false: verdict only, faster). */
  readonly states?: boolean;
  /** Explain each unrealizable spec: core by file:line and counterplay (default true). */
  readonly explain?: boolean;
  /** Also check the conjunction of all spec sources (a conflict is explained across files). */
  readonly compose?: boolean;
  /** Called as each spec starts: its name and `i/n` (or `composed`). */
  readonly onStart?: (spec: string, progress: string) => void;
}

/** How a short-lived CLI process runs its checks (src/synthesis/isolated.ts explains both). */
export interface CheckTuning {
  readonly inProcessMs?: number;
  readonly deferOptimization?: boolean;
}

export type Verdict = 'realizable' | 'unrealizable' | 'unknown';

export type CheckInput = SpecSource | FormulaSpec;

export interface SpecVerdict {
  /** The spec's path, `<formula>` for an LTL formula, `a.tsl + b.tsl` for the composition. */
  readonly spec: string;
  readonly verdict: Verdict | 'error';
  readonly seconds: number;
  /** Controller states, for a realizable spec when `states` is on. */
  readonly states?: number;
  /** Why the verdict is unknown (e.g. `timeout`). */
  readonly reason?: string;
  /** Which back end answered, when `synthesizer` is not the builtin engine. */
  readonly backend?: string;
  readonly explanation?: Explanation;
  /** What a `#LIA`/`#UF` theory (header or `theory` option) added to this spec. */
  readonly theory?: TheoryListing;
  /** Input errors of this spec (verdict `error`). */
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
  /** Remarks such as why an explanation is missing; the verdict stands. */
  readonly notes: readonly Diagnostic[];
  /** A bug in tslc while checking this spec (verdict `error`, exit code 70). */
  readonly internalError?: string;
  /** This spec's part of the exit code. */
  readonly exitCode: ExitCodeValue;
}

export interface CheckResult extends Outcome {
  readonly specs: readonly SpecVerdict[];
}

/** The exit code of several verdicts: internal error, then input error, then failure, then unknown. */
export function combinedExitCode(codes: readonly number[]): ExitCodeValue {
  for (const code of [ExitCode.internal, ExitCode.inputError, ExitCode.failure, ExitCode.unknown]) if (codes.includes(code)) return code;
  return ExitCode.ok;
}

export function verdictExitCode(verdict: Verdict): ExitCodeValue {
  return verdict === 'realizable' ? ExitCode.ok : verdict === 'unrealizable' ? ExitCode.failure : ExitCode.unknown;
}

/** The inputs as a list, validated: at least one. */
export function inputList(inputs: CheckInput | readonly CheckInput[]): readonly CheckInput[] {
  const list: readonly CheckInput[] = Array.isArray(inputs) ? inputs : [inputs as CheckInput];
  return list;
}
