/**
 * `import "PATH"` reads only small regular `.tsl` files, resolved against the importing file, and
 * with an import root only inside it (symlinks followed). Everything else — devices, pipes,
 * directories, system files, huge files — is one error at our own `import` line, never a hang,
 * unbounded memory, or a line of the other file's content in the message.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, UserError } from '../../src/diagnostics/diagnostic.js';
import { loadTslGame, tslSymbols, type TslLoadOptions } from '../../src/tsl/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-imports-'));
const write = (path: string, text: string | Buffer): string => {
  const full = join(dir, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
  return full;
};

/** A spec at `at` whose first line imports `path`; the rendered errors (with source lines) or 'ok'. */
function importing(path: string, options: TslLoadOptions = {}, at = 'main.tsl'): string {
  const source = `import "${path}" as P\nguarantee { F p(x); }\n`;
  const file = write(at, source);
  try {
    tslSymbols(file, source, options);
    return 'ok';
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return err.diagnostics.map((d) => formatDiagnostic(d, d.span?.file === file ? source : undefined)).join('\n');
  }
}

/** The error at the import line (line 1, column 8, the path underlined), as rendered. */
const atImportLine = (main: string, path: string, reason: string) =>
  [`${main}:1:8: error: cannot import "${path}": ${reason}`, `  import "${path}" as P`, `         ${'^'.repeat(path.length + 2)}`].join('\n');

const main = join(dir, 'main.tsl');
const linux = process.platform === 'linux';

describe('what an import reads', () => {
  it.skipIf(!existsSync('/dev/zero'))('not /dev/zero (a device: it grew the process to 16.8 GB)', () => {
    expect(importing('/dev/zero')).toBe(atImportLine(main, '/dev/zero', 'it is a device, not a regular file'));
  });

  it.skipIf(!existsSync('/dev/stdin'))('not /dev/stdin (it hung, waiting for input)', { timeout: 10_000 }, () => {
    expect(importing('/dev/stdin')).toMatch(/^\S+main\.tsl:1:8: error: cannot import "\/dev\/stdin": (it is a (device|named pipe|socket), not a regular file|not a \.tsl file|.*which is not a \.tsl file)\n/);
  });

  it.skipIf(!linux)('not a named pipe (it hung: nothing ever writes to it)', { timeout: 10_000 }, () => {
    execFileSync('mkfifo', [join(dir, 'pipe.tsl')]);
    expect(importing('pipe.tsl')).toBe(atImportLine(main, 'pipe.tsl', 'it is a named pipe, not a regular file'));
  });

  it('not a directory', () => {
    mkdirSync(join(dir, 'folder.tsl'), { recursive: true });
    expect(importing('folder.tsl')).toBe(atImportLine(main, 'folder.tsl', 'it is a directory'));
  });

  /** Every line of `path` that could identify its content, for "not one of them was printed". */
  const linesOf = (path: string) =>
    readFileSync(path, 'latin1')
      .split(/[\n\0]/)
      .map((l) => l.trim())
      .filter((l) => l.length >= 4);

  it.skipIf(!existsSync('/etc/passwd'))('not /etc/passwd, and nothing of it is printed (it printed its first line)', () => {
    const out = importing('/etc/passwd');
    expect(out).toBe(atImportLine(main, '/etc/passwd', 'not a .tsl file'));
    for (const line of linesOf('/etc/passwd')) expect(out).not.toContain(line);
  });

  it.skipIf(!existsSync('/proc/self/environ'))('not /proc/self/environ (it printed the environment, secrets included)', () => {
    const out = importing('/proc/self/environ');
    expect(out).toMatch(/^\S+main\.tsl:1:8: error: cannot import "\/proc\/self\/environ": it resolves to \/proc\/\d+\/environ, which is not a \.tsl file\n/);
    for (const line of linesOf('/proc/self/environ')) expect(out).not.toContain(line);
  });

  it.skipIf(!existsSync('/etc/passwd'))('not a .tsl symlink to a system file', () => {
    symlinkSync('/etc/passwd', join(dir, 'users.tsl'));
    const out = importing('users.tsl');
    expect(out).toBe(atImportLine(main, 'users.tsl', 'it resolves to /etc/passwd, which is not a .tsl file'));
    for (const line of linesOf('/etc/passwd')) expect(out).not.toContain(line);
  });

  it('not more than 1 MiB (or maxImportBytes), and not binary', () => {
    write('huge.tsl', `// ${'x'.repeat(1024 * 1024)}\nok = a;\n`);
    expect(importing('huge.tsl')).toBe(atImportLine(main, 'huge.tsl', 'larger than the import size limit (1 MiB)'));
    write('small.tsl', 'ok = a;\nalso = b;\n');
    expect(importing('small.tsl')).toBe('ok');
    expect(importing('small.tsl', { maxImportBytes: 10 })).toBe(atImportLine(main, 'small.tsl', 'larger than the import size limit (10 bytes)'));
    write('binary.tsl', Buffer.from([0x6f, 0x6b, 0x00, 0x3d, 0x3b]));
    expect(importing('binary.tsl')).toBe(atImportLine(main, 'binary.tsl', 'not a text file'));
  });

  it('a missing file keeps its message', () => {
    expect(importing('nowhere.tsl')).toMatch(/^\S+:1:8: error: unknown import "nowhere\.tsl": no such file\n/);
  });

  it('a .tsl import with a syntax error shows it in that file (once), and where it was imported', () => {
    const lib = write('broken/lib.tsl', 'ok x = p x &&\n  ;\n');
    const source = 'import "broken/lib.tsl" as L\nimport "./broken/lib.tsl" as M\nguarantee { L.ok y; }\n';
    try {
      tslSymbols(main, source);
      expect.unreachable();
    } catch (err) {
      const errors = (err as UserError).diagnostics.filter((d) => d.span?.file === lib);
      expect(errors).toHaveLength(1);
      const [d] = errors;
      expect(d.span).toMatchObject({ file: lib, line: 2, col: 3 });
      expect(d.notes?.at(-1)).toMatchObject({ message: 'imported here', span: { file: main, line: 1, col: 8 } });
    }
  });
});

describe('where an import is found', () => {
  it('relative paths are resolved against the importing file, at every level', () => {
    write('rel/sub/lib.tsl', 'import "../shared/base.tsl" as B\nready = B.flag && p s;\n');
    write('rel/shared/base.tsl', 'flag = q s;\n');
    const file = write('rel/spec.tsl', 'import "sub/lib.tsl" as L\nguarantee { L.ready; }\n');
    const { game } = loadTslGame(file, readFileSync(file, 'utf8'));
    expect(game.inputs.map((p) => p.term)).toEqual(['q s', 'p s']);
  });

  it('a file imported along several paths is read once; a cycle through a symlink is still a cycle', () => {
    write('diamond/d.tsl', 'base = p s;\n');
    write('diamond/b.tsl', 'import "d.tsl" as D\nb = D.base;\n');
    write('diamond/c.tsl', 'import "./d.tsl" as D\nc = D.base;\n');
    const file = write('diamond/a.tsl', 'import "b.tsl" as B\nimport "c.tsl" as C\nguarantee { B.b && C.c; }\n');
    const read: string[] = [];
    loadTslGame(file, readFileSync(file, 'utf8'), { onImport: (path) => read.push(path) });
    expect(read.map((p) => p.slice(dir.length))).toEqual(['/diamond/b.tsl', '/diamond/d.tsl', '/diamond/c.tsl']);

    symlinkSync(join(dir, 'cycle/a.tsl'), join(dir, 'cycle-a-link.tsl'));
    write('cycle/b.tsl', 'import "../cycle-a-link.tsl" as A\nb = p s;\n');
    const a = write('cycle/a.tsl', 'import "b.tsl" as B\nguarantee { B.b; }\n');
    expect(() => loadTslGame(a, readFileSync(a, 'utf8'))).toThrow(/import cycle: "\.\.\/cycle-a-link\.tsl" imports itself/);
  });
});

describe('importRoot (--import-root)', () => {
  const root = join(dir, 'root');
  write('root/lib/ok.tsl', 'ok = p s;\n');
  write('outside/secret.tsl', 'secret = q s;\n');
  symlinkSync(join(dir, 'outside/secret.tsl'), join(root, 'lib/escape.tsl'));
  symlinkSync(join(root, 'lib/ok.tsl'), join(dir, 'outside/inward.tsl'));
  symlinkSync(root, join(dir, 'root-link'));
  const inRoot = join(root, 'main.tsl');

  it('allows what resolves inside it', () => {
    expect(importing('lib/ok.tsl', { importRoot: root }, 'root/main.tsl')).toBe('ok');
    // The root itself may be given through a symlink; it is resolved the same way.
    expect(importing('lib/ok.tsl', { importRoot: join(dir, 'root-link') }, 'root/main.tsl')).toBe('ok');
    // A link outside the root to a file inside it is inside.
    expect(importing('inward.tsl', { importRoot: root }, 'outside/main.tsl')).toBe('ok');
  });

  it('refuses what resolves outside it: "..", absolute paths, symlinks out', () => {
    expect(importing('../outside/secret.tsl', { importRoot: root }, 'root/main.tsl')).toBe(
      atImportLine(inRoot, '../outside/secret.tsl', `it is outside the import root ${root}`),
    );
    expect(importing(join(dir, 'outside/secret.tsl'), { importRoot: root }, 'root/main.tsl')).toBe(
      atImportLine(inRoot, join(dir, 'outside/secret.tsl'), `it is outside the import root ${root}`),
    );
    expect(importing('lib/escape.tsl', { importRoot: root }, 'root/main.tsl')).toBe(
      atImportLine(inRoot, 'lib/escape.tsl', `it is outside the import root ${root} (it resolves to ${join(dir, 'outside/secret.tsl')})`),
    );
    // Outside the root nothing is read, not even a device's type.
    expect(importing('/dev/zero', { importRoot: root }, 'root/main.tsl')).toBe(atImportLine(inRoot, '/dev/zero', `it is outside the import root ${root}`));
  });

  it('a root that is not a directory is an error', () => {
    expect(() => tslSymbols(inRoot, 'guarantee { a; }', { importRoot: join(dir, 'no-such-dir') })).toThrow(/import root .*no-such-dir: no such directory/);
  });

  it('applies to in-memory readers too (on the path as written)', () => {
    const readFile = (path: string) => (path.endsWith('.tsl') ? 'x = a;\n' : '');
    expect(importing('../outside/secret.tsl', { importRoot: root, readFile }, 'root/main.tsl')).toBe(
      atImportLine(inRoot, '../outside/secret.tsl', `it is outside the import root ${root}`),
    );
    expect(importing('lib/any.tsl', { importRoot: root, readFile }, 'root/main.tsl')).toBe('ok');
  });
});
