/**
 * Start-up cost of the built CLI: `tslc check` runs on every commit in CI, so the light commands
 * must not load the heavy dependencies (ts-morph, execa, the AI SDK, playwright, the MCP and agent
 * SDKs) or the LLM providers, and a plain `tslc check` must not load yargs (its arguments take the fast path) and
 * runs from the check bundle unless a compiled module is newer than it.
 * Spawns `node --import fixtures/record-loads.mjs bin/tslc.js …` and reads the list of modules
 * the process loaded. Needs the compiled CLI (`npm test` builds first); skips without it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));
const hook = join(import.meta.dirname, 'fixtures/record-loads.mjs');
const dir = mkdtempSync(join(tmpdir(), 'tslc-startup-'));

/** The bundler plugin's library and the bundlers (optional peers), and the watcher: never loaded by `tslc check`. */
const BUILD_TOOLS = /node_modules\/(unplugin|esbuild|@esbuild|vite|rolldown|@rolldown|rollup|webpack|@rspack|chokidar)\//;

/** Modules a light command must never load. */
const HEAVY = [/node_modules\/ts-morph\//, /node_modules\/@ts-morph\//, /node_modules\/execa\//, /node_modules\/ai\//, /node_modules\/@ai-sdk\//, /node_modules\/playwright-core\//, /node_modules\/typescript\//, /\/runtime\/llm\//, /node_modules\/@modelcontextprotocol\//, /node_modules\/@openai\//, /node_modules\/@langchain\//, BUILD_TOOLS];

let runs = 0;
function loadedBy(...argv: Array<string | Record<string, string>>): { code: number | null; modules: string[] } {
  const out = join(dir, `loads-${runs++}.txt`);
  const env = Object.assign({}, ...argv.filter((a): a is Record<string, string> => typeof a !== 'string'));
  const words = argv.filter((a): a is string => typeof a === 'string');
  const r = spawnSync(process.execPath, ['--import', hook, join(root, 'bin/tslc.js'), ...words], {
    cwd: root,
    env: { ...process.env, ...env, TSLC_RECORD_LOADS: out },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const modules = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
  return { code: r.status, modules };
}

describe.skipIf(!built)('CLI start-up loads only what the command uses', () => {
  // [argv, whether yargs is loaded]: help needs yargs; a plain check is parsed without it.
  it.each([
    [['--help'], true],
    [['check', '--help'], true],
    [['parse', 'specs/adventure.tsl'], true],
    [['check', 'specs/adventure.tsl', '--no-states'], false],
    // The --synthesizer flag exists on check, but its builtin default must not load src/external.
    [['check', 'specs/adventure.tsl', '--no-states', '--synthesizer', 'builtin'], false],
    [['check', '--ltl', 'G (a -> F b)', '--ins', 'a', '--outs', 'b', '--no-states'], false],
    [['check', '--json', '--no-explain', '--timeout', '20', 'specs/adventure.tsl'], false],
  ])('tslc %j', (argv, yargsLoaded) => {
    const { code, modules } = loadedBy(...argv);
    expect(code).toBe(0);
    // The recorder works: it saw the CLI. A plain check runs from the bundle (loaded by the
    // bundle runner as one script, so neither main.js nor the ES-module fast path appears).
    const fastPath = argv[0] === 'check' && !yargsLoaded;
    expect(modules.some((m) => m.endsWith('/dist/src/cli/main.js'))).toBe(!fastPath);
    expect(modules.some((m) => m.endsWith('/dist/src/cli/bundle-runner.cjs'))).toBe(argv[0] === 'check');
    expect(modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(false);
    expect(modules.some((m) => m.includes('node_modules/yargs/'))).toBe(yargsLoaded);
    expect(modules.filter((m) => HEAVY.some((h) => h.test(m)))).toEqual([]);
  });

  it('tslc shield mcp on stdio never loads the MCP SDK (only --http does), nor anything heavy', () => {
    // Stdin is empty and the server exits at once, so the proxy ends at once (0 when the client's
    // end of stdin is seen first, 1 when the server's exit is).
    const { code, modules } = loadedBy('shield', 'mcp', '--rules', 'examples/shield/orders.ltl', '--', process.execPath, '-e', '');
    expect([0, 1]).toContain(code);
    expect(modules.some((m) => m.endsWith('/dist/src/shield/stdio-front.js'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/src/shield/http-front.js'))).toBe(false);
    expect(modules.filter((m) => HEAVY.some((h) => h.test(m)))).toEqual([]);
  });

  it('tslc shield mcp with a malformed rules file stops before loading the proxy', () => {
    const bad = join(dir, 'bad.ltl');
    writeFileSync(bad, 'r: G (a ->\n');
    const { code, modules } = loadedBy('shield', 'mcp', '--rules', bad, '--', process.execPath, '-e', '');
    expect(code).toBe(2);
    expect(modules.some((m) => m.endsWith('/dist/src/cli/commands/shield.js'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/src/shield/child-server.js'))).toBe(false);
    expect(modules.filter((m) => HEAVY.some((h) => h.test(m)))).toEqual([]);
  });

  it('tslc/runtime/shield loads no agent SDK; an adapter loads its SDK only when imported', () => {
    const loads = (modules: string[]): string[] => {
      const out = join(dir, `loads-${runs++}.txt`);
      const code = modules.map((m) => `await import(${JSON.stringify(join(root, m))});`).join('');
      const r = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', code], { cwd: root, env: { ...process.env, TSLC_RECORD_LOADS: out }, encoding: 'utf8', timeout: 60_000 });
      expect(r.status).toBe(0);
      return readFileSync(out, 'utf8').split('\n').filter(Boolean);
    };
    const sdk = (m: string): boolean => /node_modules\/(@openai|@langchain|openai|@modelcontextprotocol)\//.test(m);
    expect(loads(['dist/runtime/shield/index.js']).filter(sdk)).toEqual([]);
    // The Agents SDK adapter needs only the SDK's types.
    expect(loads(['dist/runtime/shield/adapters/openai-agents.js']).filter(sdk)).toEqual([]);
    expect(loads(['dist/runtime/shield/adapters/langgraph.js']).some((m) => m.includes('node_modules/@langchain/langgraph/'))).toBe(true);
  });

  it("import … from 'tslc' loads no solver, front end or bundler; a plugin entry loads unplugin but no bundler", () => {
    const loads = (module: string): string[] => {
      const out = join(dir, `loads-${runs++}.txt`);
      const r = spawnSync(process.execPath, ['--import', hook, '--input-type=module', '-e', `await import(${JSON.stringify(join(root, module))});`], {
        cwd: root,
        env: { ...process.env, TSLC_RECORD_LOADS: out },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(out, 'utf8').split('\n').filter(Boolean);
    };
    const library = loads('dist/src/index.js');
    expect(library.some((m) => m.endsWith('/dist/src/api/check.js'))).toBe(true);
    expect(library.filter((m) => HEAVY.some((h) => h.test(m)) || /\/dist\/src\/(synthesis|automata|tsl|tlsf|explain)\/|\/dist\/src\/codegen\/(?!errors\.js)/.test(m))).toEqual([]);
    const plugin = loads('dist/src/plugin/vite.js');
    expect(plugin.some((m) => m.includes('node_modules/unplugin/'))).toBe(true);
    expect(plugin.filter((m) => /node_modules\/(esbuild|vite|rolldown|rollup|webpack|@rspack)\//.test(m))).toEqual([]);
  });

  it('a stale bundle is not used: a changed compiled module sends check to the ES modules', () => {
    const inputs = JSON.parse(readFileSync(join(root, 'dist/src/cli/check-bundle.inputs.json'), 'utf8')) as Array<[string, number, number]>;
    const changed = join(root, 'dist/src/cli', inputs[0][0]);
    const { atime, mtime } = statSync(changed);
    // Rewritten after the bundle was built (as `tsc` alone would).
    const bundleTime = statSync(join(root, 'dist/src/cli/check-bundle.cjs')).mtime.getTime();
    utimesSync(changed, atime, new Date(Math.max(mtime.getTime(), bundleTime) + 1000));
    try {
      const { code, modules } = loadedBy('check', '--no-states', 'specs/adventure.tsl');
      expect(code).toBe(0);
      expect(modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(true);
    } finally {
      utimesSync(changed, atime, mtime);
    }
    expect(loadedBy('check', '--no-states', 'specs/adventure.tsl').modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(false);
  });

  it('a stale bundle is not used: a compiled module of another size, even with the recorded time', () => {
    const inputs = JSON.parse(readFileSync(join(root, 'dist/src/cli/check-bundle.inputs.json'), 'utf8')) as Array<[string, number, number]>;
    // The last module, not the first: each stale-bundle test changes a different file.
    const changed = join(root, 'dist/src/cli', inputs[inputs.length - 1][0]);
    const text = readFileSync(changed);
    const { atime, mtime } = statSync(changed);
    writeFileSync(changed, Buffer.concat([text, Buffer.from('\n// changed\n')]));
    utimesSync(changed, atime, mtime);
    try {
      const { code, modules } = loadedBy('check', '--no-states', 'specs/adventure.tsl');
      expect(code).toBe(0);
      expect(modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(true);
    } finally {
      writeFileSync(changed, text);
      utimesSync(changed, atime, mtime);
    }
    expect(loadedBy('check', '--no-states', 'specs/adventure.tsl').modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(false);
  });

  it("V8 takes both of the build's code caches for the bundle as the runner compiles it", () => {
    // A rejected cache (source or flags not the ones it was made from) would leave every check
    // correct but compiling as it goes; only this says so. Without NODE_OPTIONS: V8 flags there
    // would change the flag hash the caches were made under.
    const runner = join(root, 'dist/src/cli/bundle-runner.cjs');
    const { NODE_OPTIONS: _ignored, ...env } = process.env;
    const probe = `const r = require(${JSON.stringify(runner)}); process.stdout.write(JSON.stringify([r.probeBundle(r.CACHE_FILE), r.probeBundle(r.TLSF_CACHE_FILE)]))`;
    const r = spawnSync(process.execPath, ['-e', probe], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { current: true, cache: 'accepted' },
      { current: true, cache: 'accepted' },
    ]);
    // The TLSF cache is the smaller one: it leaves the TSL front end out (scripts/bundle-check.mjs).
    const size = (name: string) => statSync(join(root, 'dist/src/cli', name)).size;
    expect(size('check-bundle.tlsf.cache')).toBeLessThan(size('check-bundle.cache'));
  });

  it('a check of TLSF files alone is compiled with the TLSF code cache, any other with the general one', async () => {
    const { cacheFileFor, CACHE_FILE, TLSF_CACHE_FILE } = (await import(pathToFileURL(join(root, 'dist/src/cli/bundle-runner.cjs')).href)) as typeof import('../../src/cli/bundle-runner.cjs');
    expect(cacheFileFor(['check', 'a.tlsf'])).toBe(TLSF_CACHE_FILE);
    expect(cacheFileFor(['check', '--json', '--timeout', '10', 'a.tlsf', 'dir/B.TLSF'])).toBe(TLSF_CACHE_FILE);
    // A TSL spec or a formula needs the front ends only the general cache holds.
    expect(cacheFileFor(['check', 'a.tlsf', 'b.tsl'])).toBe(CACHE_FILE);
    expect(cacheFileFor(['check', 'B.TSL'])).toBe(CACHE_FILE);
    expect(cacheFileFor(['check', '--ltl', 'G a', '--ins', 'a', 'x.tlsf'])).toBe(CACHE_FILE);
    expect(cacheFileFor(['check', '--ltl=G a', 'x.tlsf'])).toBe(CACHE_FILE);
    expect(cacheFileFor(['check', '--help'])).toBe(CACHE_FILE);
    expect(cacheFileFor(['check'])).toBe(CACHE_FILE);
  });

  it('the bundle is built inside the CommonJS module wrapper; a bundle without it (an older build) is not used', () => {
    const bundleFile = join(root, 'dist/src/cli/check-bundle.cjs');
    const text = readFileSync(bundleFile, 'latin1');
    const start = '(function (exports, require, module, __filename, __dirname) {';
    // The runner hands this text to V8 as it is (no second 600 KB string around it per run).
    expect(text.startsWith(start)).toBe(true);
    expect(text.endsWith('\n})')).toBe(true);
    const viaBundle = loadedBy('check', '--json', '--no-explain', 'specs/adventure.tsl');
    expect(viaBundle.modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(false);
    // The same code without the wrapper, as an older build wrote it, with the same time: the
    // runner does not evaluate it as a script (it would run at the top level without `require`)
    // but falls back to the ES modules, with the same answer.
    const { atime, mtime } = statSync(bundleFile);
    writeFileSync(bundleFile, text.slice(start.length, -'\n})'.length), 'latin1');
    utimesSync(bundleFile, atime, mtime);
    try {
      const r = spawnSync(process.execPath, ['--import', hook, join(root, 'bin/tslc.js'), 'check', '--json', '--no-explain', 'specs/adventure.tsl'], {
        cwd: root,
        env: { ...process.env, TSLC_RECORD_LOADS: join(dir, 'loads-unwrapped.txt') },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(viaBundle.code);
      expect(readFileSync(join(dir, 'loads-unwrapped.txt'), 'utf8')).toContain('/dist/src/cli/fast-check.js');
      expect(JSON.parse(r.stdout)).toMatchObject({ file: 'specs/adventure.tsl', verdict: 'realizable' });
    } finally {
      writeFileSync(bundleFile, text, 'latin1');
      utimesSync(bundleFile, atime, mtime);
    }
    expect(loadedBy('check', '--no-states', 'specs/adventure.tsl').modules.some((m) => m.endsWith('/dist/src/cli/fast-check.js'))).toBe(false);
  });

  it('a check answered in-process never loads worker_threads', () => {
    // adventure.tsl is decided well within the in-process attempt.
    const small = loadedBy('check', '--no-explain', 'specs/adventure.tsl');
    expect(small.code).toBe(0);
    expect(small.modules).toContain('node:vm');
    expect(small.modules).not.toContain('node:worker_threads');
  });

  it('with TSLC_IN_PROCESS_MS=0 the bundle hands every spec to a worker, which answers correctly', () => {
    const { code, modules } = loadedBy('check', '--no-explain', 'specs/adventure.tsl', 'specs/unrealizable/tutor-as-printed.tsl', { TSLC_IN_PROCESS_MS: '0' });
    expect(code).toBe(1);
    expect(modules).toContain('node:worker_threads');
    expect(modules.some((m) => m.endsWith('/dist/src/synthesis/worker.js'))).toBe(true);
  });

  it('a check whose arguments the fast path cannot read exactly still runs, through yargs', () => {
    // `--timeout 1e2` is left to yargs (which reads it as 100).
    const { code, modules } = loadedBy('check', 'specs/adventure.tsl', '--no-states', '--timeout', '1e2');
    expect(code).toBe(0);
    expect(modules.some((m) => m.includes('node_modules/yargs/'))).toBe(true);
  });

  it('the recorder does see a heavy dependency when a command really uses it (compile → ts-morph)', () => {
    const { modules } = loadedBy('compile', 'specs/adventure.tsl', '-o', dir, '--check');
    expect(modules.some((m) => m.includes('node_modules/ts-morph/'))).toBe(true);
  });

  it('a plain check writes its answer without creating Node\'s stdout stream (which loads net and tty)', () => {
    // Through the runner, as bin/tslc.js calls it, with stdout a pipe as in CI; Node's module list
    // is written straight to the descriptor, so the probe creates no stream either.
    const runner = join(root, 'dist/src/cli/bundle-runner.cjs');
    const probe = `require(${JSON.stringify(runner)}).runFastCheck(['check', '--json', '--no-explain', 'specs/adventure.tsl']).then((o) => {
      require('node:fs').writeSync(2, JSON.stringify({ outcome: o, loaded: process.moduleLoadList }));
    });`;
    const r = spawnSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const { outcome, loaded } = JSON.parse(r.stderr) as { outcome: { exitCode: number; allOutputWritten: boolean }; loaded: string[] };
    expect(outcome).toEqual({ exitCode: 0, allOutputWritten: true });
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'specs/adventure.tsl', verdict: 'realizable' });
    expect(loaded.filter((m) => m === 'NativeModule net' || m === 'NativeModule tty')).toEqual([]);
    // Its arguments are read by fast-args.ts's own tokenizer (util.parseArgs cost 0.4 ms cold).
    expect(loaded.filter((m) => m.includes('parse_args'))).toEqual([]);

  });

  it('a check loads no Node built-in module after it turns TurboFan off (they would compile without their code cache)', () => {
    // Changing a V8 flag changes the flag hash V8 checks code caches against: a built-in module
    // loaded afterwards is compiled from source (perf_hooks, behind `performance`, took 2–6 ms
    // instead of 0.5). The probe notes Node's module list when the solver first changes a flag.
    const runner = join(root, 'dist/src/cli/bundle-runner.cjs');
    const tiny = join(dir, 'flip.tlsf');
    writeFileSync(tiny, 'INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\nMAIN { INPUTS { r; } OUTPUTS { g; } GUARANTEE { G (r -> F g); } }\n');
    // The solver sets the flag through the v8 binding (src/synthesis/v8-flags.ts): the probe
    // wraps the binding's function, which the solver looks up on its first flag change.
    const probe = `process.noDeprecation = true;
    const v8 = process.binding('v8');
    process.noDeprecation = false;
    const set = v8.setFlagsFromString;
    let at;
    v8.setFlagsFromString = (flags) => { if (at === undefined) at = { flags, loaded: process.moduleLoadList.length }; return set.call(v8, flags); };
    require(${JSON.stringify(runner)}).runFastCheck(['check', '--json', '--no-explain', ${JSON.stringify(tiny)}]).then((o) => {
      require('node:fs').writeSync(2, JSON.stringify({ outcome: o, at, after: at && process.moduleLoadList.slice(at.loaded) }));
    });`;
    const r = spawnSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const { outcome, at, after } = JSON.parse(r.stderr) as { outcome: { exitCode: number }; at?: { flags: string }; after?: string[] };
    expect(outcome.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'realizable' });
    expect(at?.flags).toBe('--no-turbofan');
    expect(after!.filter((m) => m.startsWith('NativeModule '))).toEqual([]);
  });

  it('a check loads neither node:v8 (nor the stream modules it brings) nor perf_hooks, and prints no deprecation warning', () => {
    // node:v8 loads internal/heap_utils and Node's stream stack (1–2 ms of every check); the
    // TurboFan switch goes through the v8 binding instead, and the heap is read with
    // process.memoryUsage() (src/synthesis/v8-flags.ts, isolated.ts).
    const preload = join(dir, 'v8-list.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.LIST_OUT, JSON.stringify(process.moduleLoadList)));\n");
    const out = join(dir, 'v8-list.json');
    const spec = join(dir, 'v8-response.tlsf');
    writeFileSync(spec, 'INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }\nMAIN { INPUTS { r; } OUTPUTS { g; } GUARANTEE { G (r -> F g); } }\n');
    const r = spawnSync(process.execPath, ['-r', preload, join(root, 'bin/tslc.js'), 'check', '--json', '--no-explain', spec], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, LIST_OUT: out } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'realizable' });
    const loaded = JSON.parse(readFileSync(out, 'utf8')) as string[];
    expect(loaded).toContain('NativeModule vm');
    expect(loaded.filter((m) => m === 'NativeModule v8' || m === 'NativeModule stream' || m === 'NativeModule internal/heap_utils')).toEqual([]);
    // Nor perf_hooks: the solver's clock is process.uptime() (src/diagnostics/clock.ts). (Node's
    // own start loads internal/perf/utils; perf_hooks brings performance and ten more.)
    expect(loaded.filter((m) => m === 'NativeModule perf_hooks' || m === 'NativeModule internal/perf/performance')).toEqual([]);
  });

  it('a plain check never loads node:module (it brings Node\'s ES module loader)', () => {
    // MiniSat and node:tty are required through process.getBuiltinModule when they are needed;
    // node:module cost 0.25 ms of every check. A CommonJS preload sees Node's list as the check
    // left it (an --import hook, or -e, would load node:module itself).
    const preload = join(dir, 'module-list.cjs');
    writeFileSync(preload, "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList)));\n");
    const r = spawnSync(process.execPath, ['-r', preload, join(root, 'bin/tslc.js'), 'check', '--json', '--no-explain', 'specs/adventure.tsl'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'realizable' });
    const loaded = JSON.parse(r.stderr) as string[];
    expect(loaded).toContain('NativeModule vm');
    expect(loaded).not.toContain('NativeModule module');
  });

  it('the check bundle is ASCII, and non-ASCII messages still come out as written', () => {
    const bundle = readFileSync(join(root, 'dist/src/cli/check-bundle.cjs'));
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
    // The counterplay of an unrealizable spec writes a false output as '¬g' (src/explain).
    const r = spawnSync(process.execPath, [join(root, 'bin/tslc.js'), 'check', '--ltl', 'G (g <-> X r)', '--ins', 'r', '--outs', 'g'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('the controller chooses ¬g');
    expect(r.stdout).not.toMatch(/\\u[0-9a-f]{4}/);
  });
});
