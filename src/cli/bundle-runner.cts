/**
 * Runs the `tslc check` fast path (fast-check.ts) from its bundle: one CommonJS script built by
 * `npm run build` (scripts/bundle-check.mjs) with V8 code caches made by warm-up runs. Node 20
 * has no code cache for ES modules, and compiling the ~50 modules a check needs was a fifth of a
 * small spec's wall time; the bundle with its cache starts in a few milliseconds.
 *
 * Nothing depends on the bundle being there or current: without it, or when a compiled module is
 * newer than it (a `tsc` run without `npm run build`), the same code runs as ES modules. A cache
 * that V8 rejects (another Node version) only costs the compilation it would have saved.
 *
 * This module is CommonJS, as is bin/tslc.js: a check that runs from the bundle never starts
 * Node's ES module loader (5–8 ms).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Script } from 'node:vm';

type FastCheck = (argv: readonly string[]) => Promise<number | undefined>;
interface FastCheckModule {
  fastCheck: FastCheck;
  /** False while output is still queued in a stream (then the process must not exit yet). */
  allOutputWritten: () => boolean;
}

/** What `tslc check` did on the fast path: its exit code, and whether exiting now loses output. */
export interface FastCheckOutcome {
  readonly exitCode: number;
  readonly allOutputWritten: boolean;
}

const here = (name: string) => join(__dirname, name);
/** The bundle, its code caches, and the modules it was built from (to notice a stale bundle). */
export const BUNDLE_FILE = here('./check-bundle.cjs');
/** The code cache of a warm-up over every front end: for any check. */
export const CACHE_FILE = here('./check-bundle.cache');
/**
 * The code cache of a warm-up on TLSF specs only, for checks of `.tlsf` files: a quarter smaller
 * without the TSL front end's functions, and V8 reads a cache whole before the check starts.
 */
export const TLSF_CACHE_FILE = here('./check-bundle.tlsf.cache');
export const INPUTS_FILE = here('./check-bundle.inputs.json');

/**
 * The code cache for a `tslc check` with these arguments: the TLSF one when `.tlsf` files are
 * all it names (no `.tsl` file, no `--ltl` formula), else the one for every front end. The
 * choice only decides what is compiled ahead: either cache serves any check correctly.
 */
export function cacheFileFor(argv: readonly string[]): string {
  let tlsf = false;
  for (const arg of argv) {
    const lower = arg.toLowerCase();
    if (lower === '--ltl' || lower.startsWith('--ltl=') || lower.endsWith('.tsl')) return CACHE_FILE;
    if (lower.endsWith('.tlsf')) tlsf = true;
  }
  return tlsf ? TLSF_CACHE_FILE : CACHE_FILE;
}

/**
 * How the bundle file begins: the build writes the bundle already inside the CommonJS module
 * wrapper (as Node itself would apply it), so the runner hands V8 the file's text as it is
 * rather than building a second 600 KB string around it on every run. A file that does not
 * begin so (a bundle from an older build) is not used.
 */
export const BUNDLE_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';

interface LoadedBundle {
  readonly check: FastCheckModule;
  /** The compiled script: after a warm-up run, `createCachedData()` holds what it compiled. */
  readonly script: Script;
}

/**
 * The bundle's `fastCheck`, compiled with the code cache in `cacheFile` if one is given, or
 * undefined when there is no current bundle.
 */
function loadBundle(cacheFile: string | undefined): LoadedBundle | undefined {
  const bundleMtimeMs = statSync(BUNDLE_FILE, { throwIfNoEntry: false })?.mtimeMs;
  if (bundleMtimeMs === undefined || !bundleIsCurrent(bundleMtimeMs)) return undefined;
  // The build writes the bundle in ASCII (scripts/bundle-check.mjs): a one-byte string.
  const source = readFileSync(BUNDLE_FILE, 'latin1');
  if (!source.startsWith(BUNDLE_WRAPPER_START)) return undefined;
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile === undefined ? undefined : readFileSync(cacheFile);
  } catch {
    // No cache (the warm-up failed): the bundle still works, compiled as it runs.
  }
  const script = new Script(source, { filename: BUNDLE_FILE, cachedData });
  const module = { exports: {} as Partial<FastCheckModule> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  // This module's own `require` resolves as the bundle's would: both live in this folder. (Not
  // `createRequire`: `node:module` loads Node's ES module loader, 0.25 ms of every check.)
  wrapper(module.exports, require, module, BUNDLE_FILE, __dirname);
  const { fastCheck, allOutputWritten } = module.exports;
  return fastCheck && allOutputWritten ? { check: { fastCheck, allOutputWritten }, script } : undefined;
}

/**
 * True when no module the bundle was built from has changed since (same size and time). This
 * runs before every fast check, in code V8 has not compiled yet: a plain loop over paths joined
 * by concatenation (the recorded paths are already relative to this folder), because
 * `path.join` normalizing ~90 paths in the interpreter cost more than the ~90 `stat` calls.
 */
function bundleIsCurrent(bundleMtimeMs: number): boolean {
  try {
    const inputs = JSON.parse(readFileSync(INPUTS_FILE, 'utf8')) as Array<[string, number, number]>;
    const dir = __dirname + sep;
    for (let i = 0; i < inputs.length; i++) {
      // Indexed, not destructured: unoptimized code runs the iterator protocol for `[a, b] =`.
      const input = inputs[i];
      const s = statSync(dir + input[0]);
      // Within a millisecond: tools that copy or restore file times keep no finer resolution.
      // Or not newer than the bundle: `npm pack` gives every file of a package one fixed time,
      // so an installed tslc has other times than the build recorded, but none newer.
      if (s.size !== input[1] || (Math.abs(s.mtimeMs - input[2]) > 1 && s.mtimeMs > bundleMtimeMs)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * What `tslc <argv…>` did when the check fast path handled it, else undefined (the caller
 * runs the full CLI).
 */
export async function runFastCheck(argv: readonly string[]): Promise<FastCheckOutcome | undefined> {
  const check: FastCheckModule = loadBundle(cacheFileFor(argv))?.check ?? (await import('./fast-check.js'));
  const exitCode = await check.fastCheck(argv);
  return exitCode === undefined ? undefined : { exitCode, allOutputWritten: check.allOutputWritten() };
}

/**
 * Whether the bundle would be used, and what V8 did with its code cache (for tests and the
 * start-up benchmark: without the cache, or with one V8 rejects, every run is still correct but
 * compiles as it goes). Loads the bundle, so it belongs in a process of its own.
 */
export function probeBundle(cacheFile: string = CACHE_FILE): { readonly current: boolean; readonly cache?: 'accepted' | 'rejected' | 'none' } {
  const bundle = loadBundle(cacheFile);
  if (!bundle) return { current: false };
  const rejected = bundle.script.cachedDataRejected;
  return { current: true, cache: rejected === undefined ? 'none' : rejected ? 'rejected' : 'accepted' };
}

/**
 * For the build: runs each argument list through the freshly built bundle (output is the
 * caller's to discard), then writes to `cacheFile` the code cache of everything those runs compiled.
 */
export async function warmAndWriteCache(samples: ReadonlyArray<readonly string[]>, cacheFile: string): Promise<number> {
  const bundle = loadBundle(undefined);
  if (!bundle) throw new Error(`no current bundle at ${BUNDLE_FILE}`);
  for (const argv of samples) await bundle.check.fastCheck(argv);
  const data = bundle.script.createCachedData();
  writeFileSync(cacheFile, data);
  return data.length;
}
