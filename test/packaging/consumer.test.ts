/**
 * tslc as a user gets it: `npm pack`, then the tarball installed in a fresh project, used as a
 * library, as a bundler plugin (esbuild and Vite), as the declarations TypeScript reads for `.tsl`
 * imports, and from its own `tslc` command.
 *
 * No network: the tarball is unpacked into the project's node_modules/tslc (what `npm install
 * <tarball>` does: there is no install script to run, and the test checks there is none), and
 * tslc's dependencies, the bundlers and TypeScript are linked from this checkout's node_modules
 * (installed by `npm ci`). Node and the bundlers resolve a linked package's own dependencies from
 * where it really lives, as with any installed package. Needs the build (`npm test` builds first)
 * and a `tar` command; skips without either.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdventure } from '../../generated/adventure.js';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/index.js')) && existsSync(join(root, 'dist/src/plugin/vite.js'));
const hasTar = spawnSync('tar', ['--version'], { encoding: 'utf8' }).status === 0;

const work = mkdtempSync(join(tmpdir(), 'tslc-consumer-'));
const app = join(work, 'app');
const modules = join(app, 'node_modules');
let packed: { filename: string; files: string[]; manifest: Record<string, unknown> };

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd = app, env: Record<string, string> = {}): Run {
  const r = spawnSync(command, [...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function node(...args: string[]): Run {
  return run(process.execPath, args);
}

/** Links `name` in the app's node_modules to this checkout's installed copy. */
function link(name: string): void {
  const target = join(root, 'node_modules', name);
  if (!existsSync(target)) throw new Error(`${name} is not installed in this checkout (run npm ci)`);
  const at = join(modules, name);
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at, 'junction');
}

/** The inputs the app feeds its controller, one per step. */
const STORY = ['a field', 'the town', 'the market', 'the market', 'the cave', 'a field'];

const APP = `import { createAdventure } from './adventure.tsl';

const agent = createAdventure(
  {
    inCave: (s) => s.includes('cave'),
    inMarket: (s) => s.includes('market'),
    inTown: (s) => s.includes('town'),
    toCave: () => 'the cave',
    toMarket: () => 'the market',
    toTown: () => 'the town',
  },
  { storyPassage: '' },
);
const passages: string[] = [];
for (const s of ${JSON.stringify(STORY)}) {
  await agent.step({ s });
  passages.push(agent.signals.storyPassage);
}
console.log(JSON.stringify(passages));
`;

/**
 * What the app prints, from the repository's own compiled module of the same spec
 * (generated/adventure.ts, kept fresh by `npm run generate:check`): the bundles must behave alike.
 */
async function expectedPassages(): Promise<string[]> {
  const agent = createAdventure(
    {
      inCave: (s) => s.includes('cave'),
      inMarket: (s) => s.includes('market'),
      inTown: (s) => s.includes('town'),
      toCave: () => 'the cave',
      toMarket: () => 'the market',
      toTown: () => 'the town',
    },
    { storyPassage: '' },
  );
  const passages: string[] = [];
  for (const s of STORY) {
    await agent.step({ s });
    passages.push(agent.signals.storyPassage);
  }
  return passages;
}

/** The same app with a predicate left out: the declaration makes that a type error. */
const WRONG = APP.replace("    inTown: (s) => s.includes('town'),\n", '');

const API = `import { check, compile, type CheckResult } from 'tslc';

const checked: CheckResult = await check(['src/adventure.tsl', { path: 'src/broken.tsl', text: 'guarantee { G (a(x) -> ; }' }]);
const compiled = await compile('src/adventure.tsl', { outDir: 'gen' });
const module = compiled.modules.at(0);
console.log(JSON.stringify({
  verdicts: checked.specs.map((s) => [s.spec, s.verdict]),
  error: checked.errors[0] && [checked.errors[0].span?.line, checked.errors[0].span?.col, checked.errors[0].code],
  exitCode: checked.exitCode,
  compiled: [module?.status, module?.metadata?.verified, module?.module?.text.includes('export function createAdventure')],
}));
`;

describe.skipIf(!built || !hasTar)('the packed tarball in a fresh project', () => {
  beforeAll(() => {
    const pack = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
    expect(pack.code, pack.stderr).toBe(0);
    const info = (JSON.parse(pack.stdout) as Array<{ filename: string; files: { path: string }[] }>)[0];
    mkdirSync(modules, { recursive: true });
    const unpacked = run('tar', ['-xzf', join(work, info.filename), '-C', work], work);
    expect(unpacked.code, unpacked.stderr).toBe(0);
    renameSync(join(work, 'package'), join(modules, 'tslc'));
    const manifest = JSON.parse(readFileSync(join(modules, 'tslc/package.json'), 'utf8')) as Record<string, unknown>;
    packed = { filename: info.filename, files: info.files.map((f) => f.path), manifest };
    for (const dep of Object.keys(manifest.dependencies as Record<string, string>)) link(dep);
    for (const tool of ['esbuild', 'vite', 'typescript', '@types/node']) link(tool);
    mkdirSync(join(modules, '.bin'), { recursive: true });
    symlinkSync('../tslc/bin/tslc.js', join(modules, '.bin/tslc'));

    mkdirSync(join(app, 'src'), { recursive: true });
    cpSync(join(root, 'specs/adventure.tsl'), join(app, 'src/adventure.tsl'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'bundler',
            strict: true,
            exactOptionalPropertyTypes: true,
            noUncheckedIndexedAccess: true,
            skipLibCheck: false,
            allowArbitraryExtensions: true,
            types: ['node'],
            noEmit: true,
          },
          include: ['src'],
        },
        null,
        2,
      ),
    );
    writeFileSync(join(app, 'src/main.ts'), APP);
    writeFileSync(join(app, 'src/api.ts'), API);
    writeFileSync(
      join(app, 'build.mjs'),
      `import { build } from 'esbuild';\nimport tslc from 'tslc/esbuild';\n` +
        `await build({ entryPoints: ['src/main.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'out/esbuild/main.mjs', plugins: [tslc()], logLevel: 'warning' });\n` +
        // The API script bundled with tslc left as a package import: what a build script does.
        `await build({ entryPoints: ['src/api.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: 'out/api.mjs', logLevel: 'warning' });\n`,
    );
    writeFileSync(
      join(app, 'vite.config.mjs'),
      `import tslc from 'tslc/vite';\n` +
        `export default { logLevel: 'warn', plugins: [tslc()], build: { outDir: 'out/vite', lib: { entry: 'src/main.ts', formats: ['es'], fileName: 'main' } } };\n`,
    );
  }, 180_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('the tarball ships the build and runs nothing at install', () => {
    const scripts = (packed.manifest.scripts ?? {}) as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(scripts[hook]).toBeUndefined();
    for (const file of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/runtime/index.js', 'dist/src/plugin/vite.js', 'dist/src/cli/check-bundle.cjs', 'bin/tslc.js'])
      expect(packed.files).toContain(file);
    // Only what the package needs: no tests, benchmarks or the example agents.
    expect(packed.files.filter((f) => /^(test|bench|examples|dist\/examples|dist\/bench|specs)\//.test(f))).toEqual([]);
  });

  it('an esbuild build of an app importing a .tsl file succeeds and the bundle runs', async () => {
    const build = node('build.mjs');
    expect(build.code, build.stderr).toBe(0);
    const ran = node('out/esbuild/main.mjs');
    expect(ran.code, ran.stderr).toBe(0);
    const passages = JSON.parse(ran.stdout) as string[];
    expect(passages).toEqual(await expectedPassages());
    // Not a controller that never acts: it steers the story somewhere.
    expect(new Set(passages).size).toBeGreaterThan(1);
    // The plugin wrote the declaration TypeScript reads for `./adventure.tsl`.
    expect(readFileSync(join(app, 'src/adventure.d.tsl.ts'), 'utf8')).toMatch(/export declare function createAdventure</);
  });

  it('a Vite build of the same app succeeds and the bundle runs', async () => {
    const build = node('node_modules/vite/bin/vite.js', 'build');
    expect(build.code, build.stdout + build.stderr).toBe(0);
    const ran = node('out/vite/main.js');
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual(await expectedPassages());
  });

  it("import { check, compile } from 'tslc' works", () => {
    const ran = node('out/api.mjs');
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({
      verdicts: [
        ['src/adventure.tsl', 'realizable'],
        ['src/broken.tsl', 'error'],
      ],
      error: [1, 24, 'parse'],
      exitCode: 2,
      compiled: ['compiled', true, true],
    });
  });

  it('tsc --noEmit passes with the generated declaration and fails on a wrong implementation', () => {
    const tsc = join(modules, 'typescript/bin/tsc');
    const ok = node(tsc, '--noEmit', '-p', '.');
    expect(ok.code, ok.stdout).toBe(0);
    writeFileSync(join(app, 'src/wrong.ts'), WRONG);
    try {
      const wrong = node(tsc, '--noEmit', '-p', '.');
      expect(wrong.code).not.toBe(0);
      expect(wrong.stdout).toMatch(/src\/wrong\.ts\(\d+,\d+\): error TS\d+: .*inTown/s);
      expect(wrong.stdout).not.toMatch(/src\/main\.ts/);
    } finally {
      rmSync(join(app, 'src/wrong.ts'));
    }
    // (Without the declaration both files would fail at the import; main.ts passing means it was read.)
    // `tslc compile --dts` from the installed command writes the same declaration.
    const declaration = readFileSync(join(app, 'src/adventure.d.tsl.ts'), 'utf8');
    rmSync(join(app, 'src/adventure.d.tsl.ts'));
    const compiled = node('node_modules/.bin/tslc', 'compile', 'src/adventure.tsl', '-o', 'gen', '--dts');
    expect(compiled.code, compiled.stderr).toBe(0);
    expect(readFileSync(join(app, 'src/adventure.d.tsl.ts'), 'utf8')).toBe(declaration);
  });

  it('the installed tslc command checks specs (from its bundle) and says where the demo runs', () => {
    const hook = join(root, 'test/cli/fixtures/record-loads.mjs');
    const loads = join(work, 'loads.txt');
    const checked = run(process.execPath, ['--import', hook, 'node_modules/.bin/tslc', 'check', 'src/adventure.tsl'], app, { TSLC_RECORD_LOADS: loads });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^src\/adventure\.tsl: realizable \(/);
    // npm gives every packed file one fixed time; the check bundle must still count as current.
    const loaded = readFileSync(loads, 'utf8');
    expect(loaded).toMatch(/node_modules\/tslc\/dist\/src\/cli\/bundle-runner\.cjs/);
    expect(loaded).not.toMatch(/dist\/src\/cli\/fast-check\.js/);
    const demo = node('node_modules/.bin/tslc', 'demo');
    expect(demo.code).toBe(2);
    expect(demo.stderr).toMatch(/tslc demo runs from a checkout of the tslc repository/);
    expect(demo.stderr).not.toMatch(/\n\s+at /);
  });
});
