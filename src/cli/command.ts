import type { Argv } from 'yargs';
import type { OptionTable } from './fast-args.js';

/** A command: describes its options eagerly, imports its implementation only when it runs. */
export interface CommandSpec {
  readonly command: string | readonly string[];
  readonly describe: string;
  readonly builder: (y: Argv) => Argv;
  /**
   * The options as data, when `builder` is built from them (`declareOptions`): then a plain
   * invocation is parsed without loading yargs (see fast-args.ts).
   */
  readonly options?: OptionTable;
  /** Lazily imported implementation; `run` returns the exit code. */
  readonly load: () => Promise<{ run: (args: Record<string, unknown>) => Promise<number> }>;
}
