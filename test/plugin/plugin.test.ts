/**
 * The bundler plugin (src/plugin), run from the TypeScript sources in real bundlers: errors as
 * bundler errors with file, line and column (esbuild, Rolldown through `tslc/rollup`), the
 * content-hash cache and its invalidation by an imported file, declarations beside the spec, and
 * Vite's dev server recompiling a spec when it or a file it imports is saved. The packed
 * package in a fresh project is test/packaging/consumer.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildFailure } from 'esbuild';
import { rolldown } from 'rolldown';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import esbuildPlugin from '../../src/plugin/esbuild.js';
import rollupPlugin from '../../src/plugin/rollup.js';
import rspackPlugin from '../../src/plugin/rspack.js';
import vitePlugin from '../../src/plugin/vite.js';
import webpackPlugin from '../../src/plugin/webpack.js';

const root = join(import.meta.dirname, '../..');
// The bundles import the runtime from this checkout's sources (an app imports `tslc/runtime`).
const runtimeImport = join(root, 'runtime/index.ts');

const STORY = `import "lib.tsl" as Lib
initially assume { ! inTown(s); }
always assume { [storyPassage <- toTown(s)] -> F inTown(s); }
always guarantee { F Lib.goTown(s); }
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tslc-plugin-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function bundle(dir: string, entry: string, options: Parameters<typeof esbuildPlugin>[0] = {}): Promise<string> {
  const out = await build({
    entryPoints: [join(dir, entry)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    plugins: [esbuildPlugin({ runtimeImport, cacheDir: false, ...options })],
  });
  return out.outputFiles[0].text;
}

async function failure(run: Promise<unknown>): Promise<BuildFailure> {
  try {
    await run;
  } catch (err) {
    return err as BuildFailure;
  }
  throw new Error('the build succeeded');
}

describe('tslc/esbuild', () => {
  it('compiles an imported .tsl file into its controller, and the bundle runs it', async () => {
    const dir = project({
      'lib.tsl': 'goTown s = [storyPassage <- toTown s];\n',
      'story.tsl': STORY,
      'main.ts': `import { createStory } from './story.tsl';
const agent = createStory({ inTown: (s) => s === 'town', toTown: () => 'town' }, { storyPassage: '' });
const out: string[] = [];
for (const s of ['field', 'field', 'town']) { await agent.step({ s }); out.push(agent.signals.storyPassage); }
export default out;
`,
    });
    const code = await bundle(dir, 'main.ts');
    writeFileSync(join(dir, 'out.mjs'), code);
    const passages = ((await import(join(dir, 'out.mjs'))) as { default: string[] }).default;
    // F Lib.goTown(s): the controller must send the story to town (and it is the only update).
    expect(passages).toContain('town');
    // The declaration TypeScript reads for './story.tsl', beside the spec.
    expect(readFileSync(join(dir, 'story.d.tsl.ts'), 'utf8')).toMatch(/export declare function createStory</);
  });

  it('a syntax error is an esbuild error at the spec’s file, line and column', async () => {
    const dir = project({ 'bad.tsl': 'always guarantee {\n  F p(x)\n  G ;\n}\n', 'main.ts': "import './bad.tsl';\n" });
    const err = await failure(bundle(dir, 'main.ts'));
    expect(err.errors).toHaveLength(1);
    const [e] = err.errors;
    expect(e.location?.file).toMatch(/bad\.tsl$/);
    // esbuild columns are 0-based: the `;` at line 3, column 5.
    expect([e.location?.line, e.location?.column]).toEqual([3, 4]);
    expect(e.text).toMatch(/bad\.tsl:3:5: error: unexpected ";"/);
    expect(existsSync(join(dir, 'bad.d.tsl.ts'))).toBe(false);
  });

  it('an unrealizable spec is an error at the conflicting line, with the explanation', async () => {
    // The controller would have to know the next input now.
    const dir = project({ 'late.tsl': 'initially assume { ! p(x); }\nalways guarantee {\n  [out <- f(x)] <-> X p(x);\n}\n', 'main.ts': "import './late.tsl';\n" });
    const err = await failure(bundle(dir, 'main.ts'));
    const [e] = err.errors;
    expect(e.text).toMatch(/late\.tsl: unrealizable: no controller can satisfy this spec/);
    expect(e.text).toMatch(/tslc explain/);
    expect(e.location?.line).toBe(3);
  });

  it('caches by content: the same text is served from the cache, an edited import is not', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'tslc-plugin-cache-'));
    const dir = project({ 'lib.tsl': 'goTown s = [storyPassage <- toTown s];\n', 'story.tsl': STORY, 'main.ts': "export * from './story.tsl';\n" });
    const first = await bundle(dir, 'main.ts', { cacheDir });
    const entries = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
    expect(entries).toHaveLength(1);
    // Plant a marker in the stored module: a build that reads the cache shows it.
    const file = join(cacheDir, entries[0]);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { code: string };
    writeFileSync(file, JSON.stringify({ ...entry, code: `${entry.code}\nexport const planted = 'from the cache';\n` }));
    const second = await bundle(dir, 'main.ts', { cacheDir });
    expect(second).toContain('from the cache');
    expect(first).not.toContain('from the cache');
    // The imported definition changes (same spec text): the entry no longer holds.
    writeFileSync(join(dir, 'lib.tsl'), 'goTown s = [storyPassage <- toVillage s];\n');
    const third = await bundle(dir, 'main.ts', { cacheDir });
    expect(third).not.toContain('from the cache');
    expect(third).toContain('toVillage');
  });

  it('dts: false writes no declaration', async () => {
    const dir = project({ 'lib.tsl': 'goTown s = [storyPassage <- toTown s];\n', 'story.tsl': STORY, 'main.ts': "export * from './story.tsl';\n" });
    await bundle(dir, 'main.ts', { dts: false });
    expect(existsSync(join(dir, 'story.d.tsl.ts'))).toBe(false);
  });
});

describe('tslc/rollup (in Rolldown)', () => {
  it('a syntax error is a bundler error with the spec’s file, line and column', async () => {
    const dir = project({ 'bad.tsl': 'always guarantee {\n  G ;\n}\n', 'main.js': "import './bad.tsl';\n" });
    const bundler = await rolldown({ input: join(dir, 'main.js'), plugins: [rollupPlugin({ runtimeImport, cacheDir: false })], logLevel: 'silent' });
    const err = await bundler.generate({ format: 'esm' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await bundler.close();
    expect(String((err as Error | undefined)?.message)).toMatch(/bad\.tsl:2:5: error: unexpected ";"/);
    const loc = ((err as { errors?: Array<{ loc?: { line: number; column: number } }> }).errors?.[0] ?? (err as { loc?: { line: number; column: number } })).loc;
    expect([loc?.line, loc?.column]).toEqual([2, 4]);
  });
});

describe('tslc/vite', () => {
  it('the dev server recompiles a spec when it, or a file it imports, is saved', async () => {
    const dir = project({ 'lib.tsl': 'goTown s = [storyPassage <- toTown s];\n', 'story.tsl': STORY });
    const server = await createServer({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      appType: 'custom',
      plugins: [vitePlugin({ runtimeImport, cacheDir: false })],
      server: { middlewareMode: true, hmr: false },
    });
    const module = async (until: (code: string) => boolean): Promise<string> => {
      for (let i = 0; i < 200; i++) {
        const code = (await server.transformRequest('/story.tsl'))?.code ?? '';
        if (until(code)) return code;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the dev server never served the expected module');
    };
    try {
      expect(await module((c) => c.includes('toTown'))).toMatch(/export function createStory/);
      // Saved: the spec itself (a new predicate in the assumptions).
      writeFileSync(join(dir, 'story.tsl'), STORY.replace('initially assume { ! inTown(s); }', 'initially assume { ! inTown(s); ! late(s); }'));
      expect(await module((c) => c.includes('"late"'))).toContain('toTown');
      // Saved: only the imported file.
      writeFileSync(join(dir, 'lib.tsl'), 'goTown s = [storyPassage <- toVillage s];\n');
      expect(await module((c) => c.includes('[storyPassage <- toVillage s]'))).toMatch(/export function createStory/);
    } finally {
      await server.close();
    }
  });
});

describe('every entry point', () => {
  it('makes the tslc plugin for its bundler', () => {
    expect((vitePlugin() as { name: string }).name).toBe('tslc');
    expect((rollupPlugin() as { name: string }).name).toBe('tslc');
    expect(esbuildPlugin().name).toBe('tslc');
    expect(typeof (webpackPlugin() as { apply?: unknown }).apply).toBe('function');
    expect(typeof (rspackPlugin() as { apply?: unknown }).apply).toBe('function');
  });
});
