/**
 * Reading an input file named on the command line (a spec, a rules or labels file, a trace):
 * never more than a size limit, whatever the path names.
 *
 * A plain readFileSync grows without bound on `/dev/zero` and blocks for ever on a terminal, so:
 * a regular file is read up to `maxBytes` (checked against its size first, and again while
 * reading, since files under /proc report size 0 and a file may grow); a named pipe or standard
 * input (`-` on the command line, which the CLI passes as `STDIN_PATH`, or `/dev/stdin`) is read
 * to its end but stops with an error past the limit; directories, devices and sockets are refused
 * by name. A pipe or stdin can be read only once, so its text is kept and handed out again.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** The default limit: the largest TLSF benchmark files are about 3 MB; hand-written specs far less. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** What a lone `-` on the command line becomes (yargs cannot keep `-`); also the name diagnostics show. */
export const STDIN_PATH = '<stdin>';

/** Paths that name this process's standard input. */
const STDIN_PATHS = new Set([STDIN_PATH, '-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

export function isStdinPath(path: string): boolean {
  return STDIN_PATHS.has(path);
}

export class InputReadError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
    this.name = 'InputReadError';
  }
}

/** Texts of inputs that can be read only once (stdin, pipes), by path. */
const readOnce = new Map<string, string>();

/**
 * Is `path` something that can be read only once (stdin, a named pipe)? Such inputs must be read
 * by the process that needs them, once: callers read them up front and pass the text along.
 */
export function isStreamInput(path: string): boolean {
  if (isStdinPath(path)) return true;
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

/** The text of the input at `path`, at most `maxBytes` bytes of it; throws `InputReadError`. */
export function readInputFile(path: string, maxBytes = MAX_INPUT_BYTES): string {
  const kept = readOnce.get(isStdinPath(path) ? STDIN_PATH : path);
  if (kept !== undefined) return kept;
  if (isStdinPath(path)) {
    const text = readStream(STDIN_PATH, 0, maxBytes);
    readOnce.set(STDIN_PATH, text);
    return text;
  }
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (err) {
    throw new InputReadError(path, reasonOf(err));
  }
  if (!stats.isFile() && !stats.isFIFO()) throw new InputReadError(path, notReadable(stats));
  if (stats.isFile() && stats.size > maxBytes) throw new InputReadError(path, tooLarge(maxBytes));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (err) {
    throw new InputReadError(path, reasonOf(err));
  }
  try {
    // Swapped for something else between the check and the open: check what was opened.
    const opened = fstatSync(fd);
    if (!opened.isFile() && !opened.isFIFO()) throw new InputReadError(path, notReadable(opened));
    const text = readStream(path, fd, maxBytes);
    if (opened.isFIFO()) readOnce.set(path, text);
    return text;
  } finally {
    closeSync(fd);
  }
}

/** Everything `fd` yields until its end, failing as soon as it passes `maxBytes`. */
function readStream(path: string, fd: number, maxBytes: number): string {
  const chunks: Buffer[] = [];
  let total = 0;
  // One scratch buffer, and a copy of what each read returned: a pipe yields at most 64 KiB a
  // read, so keeping a fresh 1 MiB buffer per read held 16 times the input (1 GiB for 64 MiB),
  // enough to run a memory-limited process out of memory before the size limit was reached.
  const scratch = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1));
  for (;;) {
    const chunk = scratch.subarray(0, Math.min(scratch.length, maxBytes + 1 - total));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A non-blocking stdin (some test runners and shells leave it so) has no data yet: wait.
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if (code === 'EOF') break;
      throw new InputReadError(path, reasonOf(err));
    }
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    total += n;
    if (total > maxBytes) throw new InputReadError(path, tooLarge(maxBytes));
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

function tooLarge(maxBytes: number): string {
  const mib = maxBytes / (1024 * 1024);
  return `larger than the ${Number.isInteger(mib) ? `${mib} MiB` : `${maxBytes}-byte`} limit for input files`;
}

function notReadable(stats: Stats): string {
  if (stats.isDirectory()) return 'it is a directory';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'it is a device, not a file';
  if (stats.isSocket()) return 'it is a socket, not a file';
  return 'not a regular file';
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many symbolic links';
  if (code === 'EISDIR') return 'it is a directory';
  return (err as Error).message;
}
