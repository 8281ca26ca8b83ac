/**
 * Runs the `tslc check` fast path (fast-check.ts) from its bundle: one CommonJS script built by
 * `npm run build` (scripts/bundle-check.mjs) with a V8 code cache made by a warm-up run. Node 20
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
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
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
/** The bundle, its code cache, and the modules it was built from (to notice a stale bundle). */
export const BUNDLE_FILE = here('./check-bundle.cjs');
export const CACHE_FILE = here('./check-bundle.cache');
export const INPUTS_FILE = here('./check-bundle.inputs.json');

interface LoadedBundle {
  readonly check: FastCheckModule;
  /** The compiled script: after a warm-up run, `createCachedData()` holds what it compiled. */
  readonly script: Script;
}

/** The bundle's `fastCheck`, or undefined when there is no current bundle. */
function loadBundle(useCache: boolean): LoadedBundle | undefined {
  if (!existsSync(BUNDLE_FILE) || !bundleIsCurrent()) return undefined;
  // The build writes the bundle in ASCII (scripts/bundle-check.mjs): a one-byte string.
  const source = readFileSync(BUNDLE_FILE, 'latin1');
  const cachedData = useCache && existsSync(CACHE_FILE) ? readFileSync(CACHE_FILE) : undefined;
  // The CommonJS module wrapper, as Node itself would apply it.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: BUNDLE_FILE, cachedData });
  const module = { exports: {} as Partial<FastCheckModule> };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(BUNDLE_FILE), module, BUNDLE_FILE, __dirname);
  const { fastCheck, allOutputWritten } = module.exports;
  return fastCheck && allOutputWritten ? { check: { fastCheck, allOutputWritten }, script } : undefined;
}

/** True when no module the bundle was built from has changed since (same size and time). */
function bundleIsCurrent(): boolean {
  try {
    const inputs = JSON.parse(readFileSync(INPUTS_FILE, 'utf8')) as Array<[string, number, number]>;
    const bundleMtimeMs = statSync(BUNDLE_FILE).mtimeMs;
    return inputs.every(([file, size, mtimeMs]) => {
      const s = statSync(here(file));
      // Within a millisecond: tools that copy or restore file times keep no finer resolution.
      // Or not newer than the bundle: `npm pack` gives every file of a package one fixed time,
      // so an installed tslc has other times than the build recorded, but none newer.
      return s.size === size && (Math.abs(s.mtimeMs - mtimeMs) <= 1 || s.mtimeMs <= bundleMtimeMs);
    });
  } catch {
    return false;
  }
}

/**
 * What `tslc <argv…>` did when the check fast path handled it, else undefined (the caller
 * runs the full CLI).
 */
export async function runFastCheck(argv: readonly string[]): Promise<FastCheckOutcome | undefined> {
  const check: FastCheckModule = loadBundle(true)?.check ?? (await import('./fast-check.js'));
  const exitCode = await check.fastCheck(argv);
  return exitCode === undefined ? undefined : { exitCode, allOutputWritten: check.allOutputWritten() };
}

/**
 * For the build: runs each argument list through the freshly built bundle (output is the
 * caller's to discard), then writes the code cache of everything those runs compiled.
 */
export async function warmAndWriteCache(samples: ReadonlyArray<readonly string[]>): Promise<number> {
  const bundle = loadBundle(false);
  if (!bundle) throw new Error(`no current bundle at ${BUNDLE_FILE}`);
  for (const argv of samples) await bundle.check.fastCheck(argv);
  const data = bundle.script.createCachedData();
  writeFileSync(CACHE_FILE, data);
  return data.length;
}
