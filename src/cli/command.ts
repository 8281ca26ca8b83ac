import type { Argv } from 'yargs';

/** A command: describes its options eagerly, imports its implementation only when it runs. */
export interface CommandSpec {
  readonly command: string | readonly string[];
  readonly describe: string;
  readonly builder: (y: Argv) => Argv;
  /** Lazily imported implementation; `run` returns the exit code. */
  readonly load: () => Promise<{ run: (args: Record<string, unknown>) => Promise<number> }>;
}
