/**
 * The bundler plugin: `import { createAdventure } from './adventure.tsl'` compiles the spec at
 * build time into its verified controller module (the library's `compile`), so an app imports
 * TSL like any other source. One implementation on unplugin, the well-kept library that adapts a
 * plugin to Vite, Rollup, Rolldown, esbuild, webpack and Rspack; the entry points beside this file
 * (`tslc/vite`, …) pick the bundler.
 *
 * - Only a controller that passed independent verification becomes a module; an unrealizable spec,
 *   a spec without an answer in time, or a syntax error is a bundler error with file, line and
 *   column (for an unrealizable spec, the first line of the conflict `tslc explain` finds).
 * - Results are cached by content hash (cache.ts); every file a spec imports is a watch file, so
 *   Vite's dev server and watch builds recompile when the spec or an import is saved.
 * - With `dts` (default on) it writes `<spec>.d.tsl.ts` beside each spec, which TypeScript reads
 *   for `.tsl` imports under `allowArbitraryExtensions`: `tsc --noEmit` then type-checks the app,
 *   and a wrong implementation is a compile error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createUnplugin, type UnpluginContext, type UnpluginMessage } from 'unplugin';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SynthesizerName } from '../api/inputs.js';
import { type CachedModule, hashOfFile, ModuleCache } from './cache.js';

export interface TslcPluginOptions {
  /** Synthesis back end (default `builtin`); an external tool's controller is verified before use. */
  readonly synthesizer?: SynthesizerName;
  /** Seconds per spec for synthesis (default 60); past it the build fails with `unknown`. */
  readonly timeout?: number;
  /** Seconds per spec for an external synthesizer. */
  readonly toolTimeout?: number;
  /** Module specifier the generated code imports the runtime from (default `tslc/runtime`). */
  readonly runtimeImport?: string;
  /** TSL imports are read only from inside this directory. */
  readonly importRoot?: string;
  /** Write `<spec>.d.tsl.ts` beside each spec (default true). */
  readonly dts?: boolean;
  /** Where compiled specs are cached on disk (default `node_modules/.cache/tslc`); false: memory only. */
  readonly cacheDir?: string | false;
}

const SPEC = /\.tsl$/;

export const tslcUnplugin = createUnplugin((options: TslcPluginOptions | undefined) => {
  const settings = options ?? {};
  const cacheDir = settings.cacheDir === false ? undefined : resolve(settings.cacheDir ?? join('node_modules', '.cache', 'tslc'));
  const cache = new ModuleCache(cacheDir);
  const runtimeImport = settings.runtimeImport ?? 'tslc/runtime';
  const dts = settings.dts !== false;
  return {
    name: 'tslc',
    // Before other transforms: the spec's text is not JavaScript until this plugin is done.
    enforce: 'pre',
    transform: {
      filter: { id: SPEC },
      async handler(text, id) {
        const path = id.replace(/[?#].*$/, '');
        if (!SPEC.test(path)) return undefined;
        const key = cache.key({
          version: toolVersion(),
          path: resolve(path),
          text,
          runtimeImport,
          synthesizer: settings.synthesizer ?? 'builtin',
          importRoot: settings.importRoot ?? null,
          dts,
        });
        const entry = cache.get(key) ?? (await compileSpec(this, path, text, settings, runtimeImport, dts));
        if (entry === undefined) return { code: 'export {};\n', map: null };
        cache.set(key, entry);
        for (const i of entry.imports) this.addWatchFile(i.path);
        if (entry.warnings.length > 0) {
          const { formatDiagnostics } = await import('../api/format.js');
          for (const w of entry.warnings) this.warn({ ...message(w, formatDiagnostics([w])), id: path });
        }
        if (entry.declaration !== undefined) writeIfChanged(declarationPath(path), entry.declaration);
        return { code: entry.code, map: null };
      },
    },
    esbuild: { onLoadFilter: SPEC, loader: 'js' },
  };
});

/**
 * Compiles one spec; undefined after reporting an error to the bundler (`this.error` throws in
 * Rollup and Vite; esbuild and webpack collect it, and the empty module returned then is never run).
 */
async function compileSpec(
  context: UnpluginContext & { addWatchFile: (id: string) => void },
  path: string,
  text: string,
  settings: TslcPluginOptions,
  runtimeImport: string,
  dts: boolean,
): Promise<CachedModule | undefined> {
  const { compile } = await import('../api/compile.js');
  const { formatDiagnostics } = await import('../api/format.js');
  const result = await compile(
    { path, text },
    {
      outDir: dirname(path),
      runtimeImport,
      dts,
      timeout: settings.timeout,
      synthesizer: settings.synthesizer,
      toolTimeout: settings.toolTimeout,
      importRoot: settings.importRoot,
    },
  );
  const m = result.modules[0];
  const self = resolve(path);
  // Even a failed compilation depends on what it read: a fixed import must trigger a rebuild.
  for (const dep of m?.dependencies ?? []) if (dep !== self) context.addWatchFile(dep);
  if (m === undefined || m.status === 'error') {
    const errors = m?.errors ?? result.errors;
    context.error({ ...message(errors[0] ?? { severity: 'error', message: `${path}: cannot compile` }, formatDiagnostics(errors)), id: path });
    return undefined;
  }
  if (m.status === 'unrealizable') {
    context.error({ ...(await unrealizable(path, text, settings)), id: path });
    return undefined;
  }
  if (m.status === 'unknown' || m.module === undefined) {
    const d: Diagnostic = {
      severity: 'error',
      message: `${path}: synthesis gave no answer (${m.reason ?? 'no controller'}) after ${m.seconds.toFixed(1)} s`,
      code: 'unknown',
      hint: 'raise the plugin\'s `timeout`, or run `tslc check` on the spec to see how long it needs',
    };
    context.error({ ...message(d, formatDiagnostics([d])), id: path });
    return undefined;
  }
  const { javaScriptOf } = await import('../codegen/transpile.js');
  return {
    code: await javaScriptOf(m.module.text, `${m.name}.ts`),
    ...(m.declaration ? { declaration: m.declaration.text } : {}),
    imports: m.dependencies.filter((d) => d !== self).map((d) => ({ path: d, hash: hashOfFile(d) ?? '' })),
    warnings: m.warnings,
  };
}

/** An unrealizable spec's error points at the first line of the conflict, when one is found in time. */
async function unrealizable(path: string, text: string, settings: TslcPluginOptions): Promise<UnpluginMessage> {
  const { explain } = await import('../api/explain.js');
  const e = await explain({ path, text }, { timeout: settings.timeout, importRoot: settings.importRoot });
  const first = e.verdict === 'unrealizable' ? e.explanation.core.find((c) => c.file !== undefined && c.line !== undefined) : undefined;
  const why = e.verdict === 'unrealizable' ? `\n${e.explanation.text}` : '';
  return {
    message: `${path}: unrealizable: no controller can satisfy this spec${why}\nhint: \`tslc explain ${path}\` shows the conflict and how the environment wins`,
    ...(first ? { loc: { file: first.file, line: first.line!, column: 0 } } : {}),
  };
}

/** A diagnostic as a bundler message: the rendered text, and the location bundlers show. */
function message(d: Diagnostic, rendered: string): UnpluginMessage {
  return {
    message: rendered,
    ...(d.code ? { code: d.code } : {}),
    ...(d.span ? { loc: { file: d.span.file, line: d.span.line, column: d.span.col - 1 } } : {}),
  };
}

/** `adventure.tsl` → `adventure.d.tsl.ts` (TypeScript's name for arbitrary-extension declarations). */
function declarationPath(specPath: string): string {
  return specPath.replace(/\.tsl$/, '.d.tsl.ts');
}

function writeIfChanged(path: string, text: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

let version: string | undefined;
/** tslc's version (part of every cache key): package.json above dist/src/plugin or src/plugin. */
function toolVersion(): string {
  if (version !== undefined) return version;
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'tslc' && typeof pkg.version === 'string') return (version = pkg.version);
    } catch {
      // Not at this depth; try the next.
    }
  }
  return (version = 'unknown');
}
