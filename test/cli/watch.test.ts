/**
 * `tslc compile --watch` survives the ways editors save: an edit in place, a new file renamed over
 * the old one (vim, IntelliJ, VS Code's safe write), the file deleted and written anew, a broken
 * save and its fix, and an edit of a file the spec imports. Each change must be compiled again
 * (the module on disk follows the spec), and a broken one reported without stopping the watch.
 * Spawns the built CLI (`npm test` builds first); skips without it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));

/** A realizable spec whose controller calls `update` (so each version's module is recognizable). */
const spec = (update: string): string => `import "lib.tsl" as Lib\nalways guarantee {\n  F Lib.go(s);\n  F [out <- ${update}(s)];\n}\n`;

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

describe.skipIf(!built)('tslc compile --watch', () => {
  it('recompiles after every kind of save, reports a broken one, and keeps watching', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-watch-'));
    const file = join(dir, 'story.tsl');
    const module = join(dir, 'out/story.ts');
    writeFileSync(join(dir, 'lib.tsl'), 'go s = [out <- walk s];\n');
    writeFileSync(file, spec('first'));
    const proc = spawn(process.execPath, [join(root, 'bin/tslc.js'), 'compile', 'story.tsl', '-o', 'out', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));

    /** Waits until `done()` holds, polling; fails with what the watcher printed so far. */
    const until = async (what: string, done: () => boolean): Promise<void> => {
      for (let waited = 0; waited < 45_000; waited += 50) {
        if (done()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    };
    const moduleCalls = (update: string) => () => existsSync(module) && readFileSync(module, 'utf8').includes(`"fn": "${update}"`);

    await until('the first module', moduleCalls('first'));
    await until('the watcher', () => stderr.includes('watching story.tsl'));

    // 1. Edited in place.
    writeFileSync(file, spec('second'));
    await until('the in-place edit', moduleCalls('second'));

    // 2. A new file renamed over the old one (the old inode is gone).
    writeFileSync(join(dir, '.story.tsl.swp'), spec('third'));
    renameSync(join(dir, '.story.tsl.swp'), file);
    await until('the rename', moduleCalls('third'));

    // 3. Deleted, then written anew.
    unlinkSync(file);
    await until('the deletion to be reported', () => stderr.includes('cannot read story.tsl'));
    writeFileSync(file, spec('fourth'));
    await until('the re-created file', moduleCalls('fourth'));

    // 4. Broken: reported with file:line:col, the module stays as it was; then fixed.
    writeFileSync(file, spec('fifth').replace('F [out', 'F [[out'));
    await until('the syntax error', () => /story\.tsl:4:6: error:/.test(stderr));
    expect(readFileSync(module, 'utf8')).toContain('"fn": "fourth"');
    writeFileSync(file, spec('sixth'));
    await until('the fix', moduleCalls('sixth'));

    // 5. Only the imported file changes.
    writeFileSync(join(dir, 'lib.tsl'), 'go s = [out <- run s];\n');
    await until('the import edit', moduleCalls('run'));

    expect(proc.exitCode).toBeNull();
    proc.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => proc.on('exit', (c) => resolve(c)));
    expect(code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
