// Bundles the `tslc check` fast path (dist/src/cli/fast-check.js and everything it imports) into
// one CommonJS script, records the modules it came from, then warms it up on a few specs in a
// child process and writes V8's code cache of what the warm-up compiled (src/cli/bundle-runner.ts
// explains why). Run by `npm run build` after tsc; needs dist/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cliDir = join(root, 'dist/src/cli');
const runnerUrl = pathToFileURL(join(cliDir, 'bundle-runner.cjs')).href;

if (process.argv[2] === '--warm') {
  // The child: run the samples through the bundle (stdout is discarded by the parent).
  const { warmAndWriteCache } = await import(runnerUrl);
  const bytes = await warmAndWriteCache(JSON.parse(process.argv[3]), process.argv[4]);
  process.stderr.write(`${relative(cliDir, process.argv[4])}: ${bytes} bytes; `);
  process.exit(0);
}

const { BUNDLE_FILE, BUNDLE_WRAPPER_START, CACHE_FILE, TLSF_CACHE_FILE, INPUTS_FILE } = await import(runnerUrl);
for (const file of [CACHE_FILE, TLSF_CACHE_FILE]) rmSync(file, { force: true });
const { rolldown } = await import('rolldown');
const build = await rolldown({
  input: join(cliDir, 'fast-check.js'),
  platform: 'node',
  // Node's own modules and npm packages stay `require`s; only our compiled code is bundled.
  external: (id) => id.startsWith('node:') || !(id.startsWith('.') || id.startsWith('/')),
  // Modules resolve files relative to themselves (the worker, logic-solver): in the bundle,
  // import.meta.url is the bundle's own URL, which sits in dist/src/cli beside main.js.
  transform: { define: { 'import.meta.url': '__tslc_import_meta_url' } },
  logLevel: 'warn',
});
const { output } = await build.write({
  file: BUNDLE_FILE,
  format: 'cjs',
  codeSplitting: false,
  // The script runs in vm.Script, which has no loader for import(): external imports become require.
  dynamicImportInCjs: false,
  intro: 'const __tslc_import_meta_url = require("node:url").pathToFileURL(__filename).href;',
});
await build.close();
// Pure ASCII (non-ASCII characters, in comments and messages, as \u escapes, which mean the same
// in strings, templates and regular expressions): the runner then reads the bundle as a one-byte
// string, which V8 reads, hashes and scans faster than the two-byte string UTF-8 text becomes.
// Written inside the CommonJS module wrapper, so the runner compiles the file's text as it is
// (src/cli/bundle-runner.cts, BUNDLE_WRAPPER_START).
const ascii = readFileSync(BUNDLE_FILE, 'utf8').replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
writeFileSync(BUNDLE_FILE, `${BUNDLE_WRAPPER_START}${ascii}\n})`);
const modules = output.flatMap((chunk) => ('moduleIds' in chunk ? chunk.moduleIds : [])).filter((id) => id.startsWith(join(root, 'dist')));
writeFileSync(
  INPUTS_FILE,
  JSON.stringify(modules.map((file) => {
    const s = statSync(file);
    return [relative(cliDir, file), s.size, s.mtimeMs];
  })),
);

// Warm-up: the paths a check takes most (TLSF and TSL front ends, realizable with a controller,
// unrealizable, a formula), so their functions are in the cache. Not the explainer: V8 reads the
// whole cache at start-up, and caching the explainer made every check about 1 ms slower to save
// 5 ms on a failing one (which then prints a core and a counterplay for a person to read).
// A second cache serves checks of TLSF files only (bundle-runner.cts, cacheFileFor): it leaves
// out the TSL front end and the formula reader (a quarter smaller, so V8 reads it sooner) and
// adds a spec in the shape tsltools writes, the other common kind of TLSF file (signal groups
// recovered from its `u0…` outputs), so a check of one compiles less from source.
const dir = mkdtempSync(join(tmpdir(), 'tslc-bundle-'));
const tlsf = (name, guarantee, inputs = ['r'], outputs = ['g']) => {
  const path = join(dir, name);
  const list = (names) => names.map((n) => `${n}; `).join('');
  writeFileSync(path, `INFO { TITLE: "${name}" DESCRIPTION: "warm-up" SEMANTICS: Mealy TARGET: Mealy }\nMAIN {\n  INPUTS { ${list(inputs)}}\n  OUTPUTS { ${list(outputs)}}\n  GUARANTEE { ${guarantee}; }\n}\n`);
  return path;
};
// A lamp cell with three updates (`[lamp <- lamp]`, `[lamp <- turnOn()]`, `[lamp <- turnOff()]`)
// and two predicates, encoded as tsltools encodes them: "exactly one update" as nested `<->`
// under G, conjoined with `assumptions -> guarantees`.
const [keep, on, off] = ['u0lamp0lamp', 'u0lamp0f1dturn2on1b', 'u0lamp0f1dturn2off1b'];
const [pressed, dark] = ['p0b0pressed', 'p0p0dark0lamp'];
const tsltoolsShaped = tlsf(
  'lamp.tlsf',
  `(G (! ((${on} && (! (${off} || ${keep}))) <-> ((! ((${off} && (! ${keep})) <-> (${keep} && (! ${off})))) && (! ${on}))))) && ` +
    `((G (${pressed} <-> (! ${dark}))) -> ((G (${pressed} -> (F ${on}))) && (G (${dark} -> (F (${off} W (! ${dark})))))))`,
  [pressed, dark],
  [keep, on, off],
);
const tlsfSamples = [
  ['check', '--json', '--no-explain', tlsf('response.tlsf', 'G (r -> F g)')],
  ['check', '--no-explain', tlsf('future.tlsf', 'G (g <-> X r)')],
];
const caches = [
  [CACHE_FILE, [...tlsfSamples, ['check', '--json', join(root, 'specs/adventure.tsl')], ['check', '--ltl', 'G (r -> X g)', '--ins', 'r', '--outs', 'g']]],
  [
    TLSF_CACHE_FILE,
    [...tlsfSamples, ['check', tlsf('next.tlsf', 'G (r -> X g)')], ['check', '--json', '--no-explain', '--no-states', tsltoolsShaped]],
  ],
];
let report = '';
let failed = '';
for (const [file, samples] of caches) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--warm', JSON.stringify(samples), file], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (child.status === 0) report += child.stderr;
  else failed += child.stderr;
}
rmSync(dir, { recursive: true, force: true });
if (failed !== '') {
  process.stderr.write(`bundle-check: a warm-up failed (the bundle still works, without code caches):\n${failed}`);
  for (const file of [CACHE_FILE, TLSF_CACHE_FILE]) rmSync(file, { force: true });
} else process.stderr.write(`bundled ${modules.length} modules into ${relative(root, BUNDLE_FILE)}; code caches: ${report.replace(/; $/, '')}\n`);
