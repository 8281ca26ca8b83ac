/**
 * Writing the check command's output. By default through `process.stdout`/`process.stderr`; the
 * `check` fast path (fast-check.ts) switches to direct writes on the file descriptors, because
 * creating Node's stream object for a pipe loads the `net` and `stream` modules, about 3 ms of a
 * small spec's 80 ms, and a check writes one line.
 *
 * Direct writes are synchronous, as Node's own stdout and stderr are for pipes and files on Linux
 * and macOS. A descriptor that would block (a non-blocking pipe the parent handed down) falls back
 * to the stream for good, so nothing is written out of order; a reader that went away (EPIPE) ends
 * the process quietly with the exit code so far, as the full CLI does.
 */
import { writeSync } from 'node:fs';

let direct = false;
/** Descriptors that had to fall back to their stream; later writes keep to the stream. */
const onStream = new Set<1 | 2>();

/** Direct descriptor writes from now on (the fast path; the full CLI keeps Node's streams). */
export function useDirectOutput(): void {
  direct = true;
}

export function writeStdout(text: string): void {
  write(1, text);
}

export function writeStderr(text: string): void {
  write(2, text);
}

/**
 * Whether stdout (1) or stderr (2) is a terminal, without creating its stream. `node:tty` is
 * loaded only when asked (it brings `net`), which a `--json` check of one spec never does.
 */
export function isTerminal(fd: 1 | 2): boolean {
  if (!direct || onStream.has(fd)) return Boolean(stream(fd).isTTY);
  return process.getBuiltinModule('node:tty').isatty(fd);
}

/** True when no output is still queued in a stream (so `process.exit` loses nothing). */
export function allOutputWritten(): boolean {
  return [...onStream].every((fd) => stream(fd).writableLength === 0);
}

function stream(fd: 1 | 2): NodeJS.WriteStream {
  return fd === 1 ? process.stdout : process.stderr;
}

function write(fd: 1 | 2, text: string): void {
  if (!direct || onStream.has(fd)) {
    stream(fd).write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    if (code !== 'EAGAIN') throw err;
    onStream.add(fd);
    const fallback = stream(fd);
    fallback.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw e;
    });
    fallback.write(bytes.subarray(done));
  }
}
