/**
 * Finding and reading the file an `import "PATH" as X` names — and refusing everything that is
 * not a small, regular `.tsl` file.
 *
 * A spec is input, possibly hostile (a pull request checked in CI): `import "/dev/zero"` must not
 * grow the process without bound, `import "/dev/stdin"` or a named pipe must not hang it, and
 * `import "/proc/self/environ"` must not print a secret in a syntax error. So, in this order:
 * the path is resolved against the importing file's directory and through every symlink; with an
 * import root, the result must lie inside the root (itself resolved the same way); it must be a
 * regular file (checked before opening, and again on the open descriptor, which is opened
 * non-blocking); its real name must end in `.tsl`, so no system file is ever read; it may have at
 * most `maxImportBytes` bytes (the read stops there even if the file grows or, like files under
 * /proc, reports size 0); and it must be text without NUL bytes.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The default limit on an imported file's size: far above any hand-written spec. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

export interface ImportAccess {
  /** When set, every import must resolve (symlinks followed) to a file inside this directory. */
  readonly importRoot?: string;
  /** The largest file an import may read, in bytes; default MAX_IMPORT_BYTES (1 MiB). */
  readonly maxImportBytes?: number;
  /**
   * Reads imports from somewhere else than the file system (tests, editors with unsaved buffers).
   * Paths are then checked as written (resolved, not followed through symlinks): the reader owns
   * its files.
   */
  readonly readFile?: (path: string) => string;
}

export type ImportRead =
  /** `path`: the resolved path (for diagnostics); `key`: the file's identity (real path). */
  | { readonly ok: true; readonly path: string; readonly key: string; readonly text: string }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string };

const refuse = (reason: string): ImportRead => ({ ok: false, missing: false, reason });
const MISSING: ImportRead = { ok: false, missing: true, reason: 'no such file' };

/** The file's identity, for import cycles and for reading a file imported twice only once. */
export function importKey(path: string, access: ImportAccess): string {
  if (access.readFile) return resolve(path);
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The import root, resolved; throws a message when it is not a directory. */
export function resolvedImportRoot(root: string, access: ImportAccess): string {
  if (access.readFile) return resolve(root);
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    throw new Error(`import root ${root}: no such directory`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`import root ${root}: not a directory`);
  return real;
}

/** Reads the file `spec` names, imported from `importer`; `root` is the resolved import root. */
export function readImport(importer: string, spec: string, access: ImportAccess, root: string | undefined): ImportRead {
  const path = resolve(dirname(importer), spec);
  const limit = access.maxImportBytes ?? MAX_IMPORT_BYTES;
  if (access.readFile) {
    if (root !== undefined && !inside(root, path)) return refuse(`it is outside the import root ${root}`);
    if (!isTslName(path)) return refuse('not a .tsl file');
    let text: string;
    try {
      text = access.readFile(path);
    } catch {
      return MISSING;
    }
    if (text.length > limit) return refuse(`larger than the import size limit (${limitText(limit)})`);
    return { ok: true, path, key: path, text };
  }

  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? MISSING : refuse(reasonOf(err));
  }
  if (root !== undefined && !inside(root, real)) return refuse(`it is outside the import root ${root}${real !== path ? ` (it resolves to ${real})` : ''}`);
  let stats: Stats;
  try {
    // A pipe's "real path" (`/proc/self/fd/pipe:[…]`) names nothing: then the path as written.
    stats = statSync(real, { throwIfNoEntry: false }) ?? statSync(path);
  } catch (err) {
    return refuse(reasonOf(err));
  }
  if (!stats.isFile()) return refuse(notRegular(stats));
  if (!isTslName(real)) return refuse(real !== path ? `it resolves to ${real}, which is not a .tsl file` : 'not a .tsl file');
  if (stats.size > limit) return refuse(`larger than the import size limit (${limitText(limit)})`);

  let bytes: Buffer;
  try {
    bytes = readRegularFile(real, stats, limit);
  } catch (err) {
    return refuse(err instanceof ImportRefusal ? err.message : reasonOf(err));
  }
  if (bytes.includes(0)) return refuse('not a text file');
  return { ok: true, path, key: real, text: bytes.toString('utf8') };
}

class ImportRefusal extends Error {}

/**
 * At most `limit` bytes of a regular file. Opened non-blocking (a FIFO swapped in after the
 * check cannot hang the open) and checked again on the descriptor: still the same regular file.
 */
function readRegularFile(path: string, expected: Stats, limit: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new ImportRefusal(notRegular(opened));
    if (opened.ino !== expected.ino || opened.dev !== expected.dev) throw new ImportRefusal('it changed while it was being read');
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, limit + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > limit) throw new ImportRefusal(`larger than the import size limit (${limitText(limit)})`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function isTslName(path: string): boolean {
  return path.toLowerCase().endsWith('.tsl');
}

function notRegular(stats: Stats): string {
  if (stats.isDirectory()) return 'it is a directory';
  if (stats.isFIFO()) return 'it is a named pipe, not a regular file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'it is a device, not a regular file';
  if (stats.isSocket()) return 'it is a socket, not a regular file';
  return 'not a regular file';
}

function limitText(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'too many symbolic links';
  return 'it cannot be read';
}
