/**
 * `--import-root DIR` on every command that reads TSL imports: an import that resolves outside
 * DIR is an error at the `import` line (exit 2); inside, the command works as without it. And an
 * import of a named pipe or a device is refused at once by the built CLI too, whether the spec
 * is checked in the CLI's thread or in a worker (a spawned process with a hard time limit, since
 * the old behaviour was to hang).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-import-root-'));
const root = join(dir, 'project');
mkdirSync(join(root, 'lib'), { recursive: true });
mkdirSync(join(dir, 'elsewhere'), { recursive: true });
writeFileSync(join(root, 'lib/rules.tsl'), 'enter = [room <- toCave s];\nsafe = inCave s;\n');
writeFileSync(join(dir, 'elsewhere/rules.tsl'), 'enter = [room <- toCave s];\nsafe = inCave s;\n');
const spec = (lib: string) => `import "${lib}" as R\nalways assume { R.enter -> X R.safe; }\nalways guarantee { F R.enter; }\n`;
const inside = join(root, 'inside.tsl');
const outside = join(root, 'outside.tsl');
writeFileSync(inside, spec('lib/rules.tsl'));
writeFileSync(outside, spec('../elsewhere/rules.tsl'));
writeFileSync(join(dir, 'trace.jsonl'), '');

afterEach(() => {
  process.exitCode = undefined;
});

/** Each command that reads TSL imports, as argv around the spec file. */
const commands: readonly [string, (file: string) => string[]][] = [
  ['check', (f) => ['check', f]],
  ['synth', (f) => ['synth', f]],
  ['compile', (f) => ['compile', f, '-o', join(dir, 'out')]],
  ['explain', (f) => ['explain', f]],
  ['play', (f) => ['play', f, '--steps', '1']],
  ['why', (f) => ['why', '--trace', join(dir, 'trace.jsonl'), '--spec', f, '--step', '0']],
  ['report', (f) => ['report', f, '-o', join(dir, 'report.html')]],
  ['symbols', (f) => ['symbols', f]],
  ['tlsf', (f) => ['tlsf', f]],
  ['ltl', (f) => ['ltl', f]],
];

describe('--import-root', () => {
  it.each(commands)('tslc %s refuses an import outside the root, at the import line', async (_name, argv) => {
    const r = await runTslc(...argv(outside), '--import-root', root);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${outside}:1:8: error: cannot import "../elsewhere/rules.tsl": it is outside the import root ${root}\n  import "../elsewhere/rules.tsl" as R\n`);
  });

  // `play` would wait for moves on stdin once the spec is loaded; `why` then finds the trace empty.
  it.each(commands.filter(([name]) => name !== 'play'))('tslc %s reads an import inside the root as without the option', async (name, argv) => {
    const r = await runTslc(...argv(inside), '--import-root', root);
    expect(r.stderr).not.toMatch(/import|internal error|\n\s+at /);
    if (name !== 'why') expect(r.code, r.stderr).not.toBe(2);
    // Without a root, the import outside is read (the default is no root).
    const free = await runTslc(...argv(outside));
    expect(free.stderr).not.toMatch(/import|internal error|\n\s+at /);
  });

  it('check --json reports the refusal as data', async () => {
    const r = await runTslc('check', outside, '--import-root', root, '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ verdict: 'error', errors: [{ file: outside, line: 1, col: 8, code: 'import' }] });
  });
});

const built = existsSync(join(import.meta.dirname, '../../dist/src/cli/main.js'));

describe.skipIf(!built || process.platform !== 'linux')('the built CLI (check bundle, worker threads)', () => {
  const fifoSpec = join(dir, 'fifo-import.tsl');
  execFileSync('mkfifo', [join(dir, 'pipe.tsl')]);
  writeFileSync(fifoSpec, 'import "pipe.tsl" as P\nimport "/dev/zero" as Z\nguarantee { F p x; }\n');

  it.each([['in the CLI thread', '500'], ['in a worker', '0']])('refuses a named pipe and /dev/zero %s, without waiting', { timeout: 30_000 }, (_where, inProcessMs) => {
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '../../bin/tslc.js'), 'check', fifoSpec, '--import-root', dir], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, TSLC_IN_PROCESS_MS: inProcessMs },
    });
    expect(r.signal, 'killed by the time limit: it hung').toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${fifoSpec}:1:8: error: cannot import "pipe.tsl": it is a named pipe, not a regular file\n  import "pipe.tsl" as P\n`);
    expect(r.stderr).toContain(`${fifoSpec}:2:8: error: cannot import "/dev/zero": it is outside the import root ${dir}\n`);
  });
});
