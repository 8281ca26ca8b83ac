/**
 * The exit codes of every front door: the CLI's process exit status and the `exitCode` of each
 * library result (src/api), so a build script can `process.exit(result.exitCode)` and mean the
 * same as `tslc`. They are a contract with CI scripts; never renumber them.
 */
export const ExitCode = {
  ok: 0,
  /** Some spec is unrealizable, a committed module is stale, or a check found a violation. */
  failure: 1,
  /** The user's input is wrong: bad syntax, unknown names, bad flags. */
  inputError: 2,
  /** Some verdict is unknown (timeout). */
  unknown: 3,
  /** A bug in tslc (e.g. a controller failed independent verification). */
  internal: 70,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
