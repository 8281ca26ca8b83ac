/**
 * Turning an error that escaped a command into output and an exit code: a `UserError` becomes
 * diagnostics (or JSON), a file-system error about the user's paths becomes one too, anything
 * else is an internal error with its stack. Shared by the full CLI and the `check` fast path.
 */
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from './exit-codes.js';
import { diagnosticsToJson, renderDiagnostics } from './io.js';
import { writeStderr, writeStdout } from './out.js';

/** Reports `err` (stdout as JSON with `json`, else stderr) and returns the exit code. */
export function reportError(err: unknown, json: boolean): number {
  if (err instanceof UserError) {
    if (json) writeStdout(JSON.stringify({ errors: diagnosticsToJson(err.diagnostics) }) + '\n');
    else writeStderr(renderDiagnostics(err.diagnostics) + '\n');
    return ExitCode.inputError;
  }
  const fsProblem = fileSystemDiagnostic(err);
  if (fsProblem) return reportError(new UserError(fsProblem), json);
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  writeStderr(`tslc: internal error (please report this with the input that caused it):\n${message}\n`);
  return ExitCode.internal;
}

const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EEXIST: 'already exists (and is not a directory)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ENAMETOOLONG: 'name too long',
};
const FS_VERBS: Readonly<Record<string, string>> = { open: 'open', mkdir: 'create directory', scandir: 'list', read: 'read', write: 'write', rename: 'rename' };

/**
 * A file-system error that escaped a command (e.g. `-o` naming a directory) is about the user's
 * paths, not a bug in tslc: say which path and why, exit 2, no stack trace.
 */
function fileSystemDiagnostic(err: unknown): Diagnostic | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, path, syscall } = err as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof path !== 'string' || !(code in FS_REASONS)) return undefined;
  const verb = (syscall !== undefined && FS_VERBS[syscall]) || 'access';
  return { severity: 'error', message: `cannot ${verb} ${path}: ${FS_REASONS[code]}`, code: 'io' };
}
