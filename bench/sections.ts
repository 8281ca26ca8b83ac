/**
 * bench/ — the benchmark runner (`npm run bench`): each section measures one area and returns a
 * markdown fragment; `index.ts` runs them in order and writes bench/results.md.
 *
 * To add a section: write `bench/<area>.ts` exporting a `BenchSection` and add it to the array
 * below (one line).
 */
import { batchSection } from './batch.js';
import { corpusSection } from './corpus.js';
import { mcpShieldSection } from './mcp-shield.js';
import { monitorSection } from './monitor.js';
import { runtimeSection } from './runtime.js';
import { startupSection } from './startup.js';
import { syntcompSection } from './syntcomp.js';
import { theoriesSection } from './theories.js';

export interface BenchContext {
  /** Progress lines (stderr). */
  readonly log: (msg: string) => void;
  /** Command-line arguments after the section filter, e.g. `--timeout 5`. */
  readonly args: readonly string[];
}

/** A command-line option a section reads (`--name value`, or `--name` alone when `kind` is 'flag'). */
export interface BenchOption {
  readonly name: string;
  readonly kind: 'number' | 'string' | 'flag';
  readonly describe: string;
}

export interface BenchSection {
  readonly name: string;
  readonly describe: string;
  /** The options it reads: the runner refuses any other, so a typo is not silently ignored. */
  readonly options?: readonly BenchOption[];
  /** Returns markdown (a heading, a table, a summary). */
  run(ctx: BenchContext): Promise<string>;
}

export const sections: readonly BenchSection[] = [
  corpusSection,
  syntcompSection,
  startupSection,
  monitorSection,
  runtimeSection,
  batchSection,
  mcpShieldSection,
  theoriesSection,
];
