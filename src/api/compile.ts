/**
 * `compile`: typed TypeScript controller modules from TSL specs — one per spec, or one for all of
 * them composed (`as`) — each verified independently before its text is returned, with its
 * metadata, the declaration TypeScript reads for `import … from './spec.tsl'` (`dts`), a diagram,
 * and every file it was built from (TSL imports included), so a cache or a watcher knows what it
 * depends on. Nothing is written: `tslc compile` and the bundler plugin decide where texts go.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ControllerMetadata } from '../../runtime/table.js';
import { type Diagnostic, error, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode, type ExitCodeValue } from '../diagnostics/exit-codes.js';
import type { ControllerSynthesizer, CompileOutcome } from '../codegen/pipeline.js';
import { combinedExitCode } from './verdict.js';
import { type Outcome, pathOf, type SolveOptions, type SpecSource, textOf, timeoutMsOf } from './inputs.js';

export interface CompileOptions extends SolveOptions {
  /** Compose all specs (their conjunction) into one controller with this name. */
  readonly as?: string;
  /** Where the modules will live (decides `path` and the default runtime import); default `.`. */
  readonly outDir?: string;
  /** Module specifier of the runtime (default `tslc/runtime`). */
  readonly runtimeImport?: string;
  /** Also derive each module's declaration, for `<spec>.d.tsl.ts` beside the spec. */
  readonly dts?: boolean;
  /** Also draw each controller (`<module>.mmd` for Mermaid, `<module>.dot` for DOT). */
  readonly diagram?: 'mermaid' | 'dot';
}

/** A text and the file it belongs in. */
export interface FileText {
  readonly path: string;
  readonly text: string;
}

export interface CompiledModule {
  /** The controller's name (the spec's file stem, or `as`); the factory is `create<Name>`. */
  readonly name: string;
  /** The specs it was compiled from. */
  readonly specs: readonly string[];
  readonly status: 'compiled' | 'unrealizable' | 'unknown' | 'error';
  /** `<outDir>/<name>.ts`, and the module's text (status `compiled`). */
  readonly module?: FileText;
  /** `<spec>.d.tsl.ts` beside the spec (with `dts`, one spec per module). */
  readonly declaration?: FileText;
  readonly diagram?: FileText;
  readonly metadata?: ControllerMetadata;
  readonly states?: number;
  readonly seconds: number;
  /** Which back end synthesized it (`builtin`, `ltlsynt`, …). */
  readonly backend?: string;
  /** Why there is no controller (status `unknown`). */
  readonly reason?: string;
  /** Every file read: the specs and what they import (absolute paths). */
  readonly dependencies: readonly string[];
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
  readonly exitCode: ExitCodeValue;
}

export interface CompileResult extends Outcome {
  readonly modules: readonly CompiledModule[];
}

/**
 * Compiles every spec; input errors of one spec are in its module's `errors` and the others are
 * still compiled. Throws only for bugs (a controller failing independent verification:
 * `CodegenVerificationError`).
 */
export async function compile(specs: SpecSource | readonly SpecSource[], options: CompileOptions = {}): Promise<CompileResult> {
  const list: readonly SpecSource[] = Array.isArray(specs) ? specs : [specs as SpecSource];
  let units: { specs: readonly SpecSource[]; name?: string }[];
  let timeoutMs: number;
  try {
    timeoutMs = timeoutMsOf(options.timeout);
    if (list.length === 0) throw new UserError(error('name at least one .tsl file to compile', undefined, 'usage'));
    if (options.dts && options.as !== undefined)
      throw new UserError(error('--dts writes one declaration beside each spec, so it cannot be combined with --as', undefined, 'usage'));
    units = options.as !== undefined ? [{ specs: list, name: options.as }] : list.map((s) => ({ specs: [s] }));
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return { modules: [], errors: err.diagnostics, warnings: [], exitCode: ExitCode.inputError };
  }
  const modules: CompiledModule[] = [];
  const claimed = new Map<string, string>();
  for (const unit of units) {
    const compiled = await compileUnit(unit.specs, unit.name, options, timeoutMs);
    // Two specs with the same stem (`a/x.tsl b/x.tsl`) would write the same module.
    const earlier = compiled.module ? claimed.get(compiled.module.path) : undefined;
    if (compiled.module && earlier !== undefined) {
      const problem = error(
        `${compiled.specs.join(' + ')} and ${earlier} would both be written to ${compiled.module.path}; compile one of them separately with --as <name>`,
        undefined,
        'name',
      );
      modules.push({ ...compiled, status: 'error', module: undefined, declaration: undefined, diagram: undefined, errors: [problem], exitCode: ExitCode.inputError });
      continue;
    }
    if (compiled.module) claimed.set(compiled.module.path, compiled.specs.join(' + '));
    modules.push(compiled);
  }
  return {
    modules,
    errors: modules.flatMap((m) => m.errors),
    warnings: modules.flatMap((m) => m.warnings),
    exitCode: combinedExitCode(modules.map((m) => m.exitCode)),
  };
}

async function compileUnit(specs: readonly SpecSource[], name: string | undefined, options: CompileOptions, timeoutMs: number): Promise<CompiledModule> {
  const { compileSpecs, defaultRuntimeImport } = await import('../codegen/pipeline.js');
  const files = specs.map(pathOf);
  const dependencies = new Set(files.map((f) => resolve(f)));
  const warnings: Diagnostic[] = [];
  const sources = new Map(specs.flatMap((s) => (textOf(s) === undefined ? [] : [[pathOf(s), textOf(s)!] as const])));
  const failure: { exitCode?: ExitCodeValue; diagnostics: Diagnostic[] } = { diagnostics: [] };
  const outDir = options.outDir ?? '.';
  const base = { name: name ?? stem(files[0]), specs: files, warnings, seconds: 0 };
  let outcome: CompileOutcome;
  try {
    outcome = await compileSpecs({
      files,
      name,
      outDir,
      runtimeImport: options.runtimeImport,
      timeoutMs,
      importRoot: options.importRoot,
      theory: options.theory,
      sources,
      onWarning: (d) => warnings.push(d),
      onImport: (path) => dependencies.add(resolve(path)),
      synthesizer: options.synthesizer !== undefined && options.synthesizer !== 'builtin' ? await externalSynthesizer(options, failure) : undefined,
    });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return { ...base, status: 'error', dependencies: [...dependencies], errors: err.diagnostics, exitCode: ExitCode.inputError };
  }
  const done = { ...base, name: outcome.name, seconds: outcome.seconds, dependencies: [...dependencies] };
  const toolErrors = failure.diagnostics.filter((d) => d.severity === 'error');
  warnings.push(...failure.diagnostics.filter((d) => d.severity !== 'error'));
  if (outcome.kind === 'unrealizable') return { ...done, status: 'unrealizable', errors: toolErrors, exitCode: ExitCode.failure };
  if (outcome.kind === 'unknown')
    return { ...done, status: 'unknown', reason: outcome.reason, errors: toolErrors, exitCode: failure.exitCode ?? ExitCode.unknown };
  const module = { path: outcome.outPath, text: outcome.source };
  let declaration: FileText | undefined;
  if (options.dts) {
    const { declarationOf, declarationPathFor } = await import('../codegen/transpile.js');
    const path = declarationPathFor(files[0]);
    // The declaration lives beside the spec, so a relative runtime import is re-aimed from there.
    const runtime = options.runtimeImport ?? defaultRuntimeImport(outDir);
    const here = rebaseSpecifier(runtime, outDir, dirname(path)) ?? defaultRuntimeImport(dirname(path));
    const text = outcome.source.replace(`import * as tslc from ${JSON.stringify(runtime)};`, `import * as tslc from ${JSON.stringify(here)};`);
    declaration = { path, text: await declarationOf(text, `${outcome.name}.ts`) };
  }
  let diagram: FileText | undefined;
  if (options.diagram) {
    const { buildDiagram, toDot, toMermaid } = await import('../explain/diagram.js');
    const d = buildDiagram(outcome.machine, outcome.spec);
    const stemPath = outcome.outPath.replace(/\.ts$/, '');
    diagram = options.diagram === 'dot' ? { path: `${stemPath}.dot`, text: toDot(d) } : { path: `${stemPath}.mmd`, text: toMermaid(d) };
  }
  return {
    ...done,
    status: 'compiled',
    module,
    ...(declaration ? { declaration } : {}),
    ...(diagram ? { diagram } : {}),
    metadata: outcome.metadata,
    states: outcome.stateCount,
    backend: outcome.backend,
    errors: [],
    exitCode: ExitCode.ok,
  };
}

/**
 * A relative module specifier written for `fromDir`, as seen from `toDir` (undefined for a package
 * name such as `tslc/runtime`, which reads the same everywhere).
 */
function rebaseSpecifier(specifier: string, fromDir: string, toDir: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return specifier.startsWith('.') ? undefined : specifier;
  let rel = relative(resolve(toDir), join(resolve(fromDir), specifier)).split(sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

function stem(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/\.[^.]*$/, '');
}

/**
 * `synthesizer: ltlsynt|strix|auto` as a back end for the pipeline. A tool that is missing or
 * answered wrongly is not "unknown": its diagnostics are kept and `exitCode` says how bad it was.
 */
async function externalSynthesizer(options: CompileOptions, failure: { exitCode?: ExitCodeValue; diagnostics: Diagnostic[] }): Promise<ControllerSynthesizer> {
  const { solve, synthesizerFromArgs } = await import('../external/solve.js');
  const { builtinBackend } = await import('../external/builtin.js');
  const { synthesizer, timeoutMs: toolTimeoutMs } = synthesizerFromArgs({ synthesizer: options.synthesizer, 'tool-timeout': options.toolTimeout });
  return async (spec, timeoutMs) => {
    const r = await solve(spec, { synthesizer, mode: 'synthesis', builtin: builtinBackend(spec, 'synthesis', { timeoutMs }), timeoutMs: toolTimeoutMs });
    failure.diagnostics.push(...r.diagnostics);
    const seconds = r.timeMs / 1000;
    if (r.status === 'realizable' && r.machine) return { verdict: 'realizable', controller: r.machine, seconds, backend: r.backend };
    if (r.status === 'unrealizable') return { verdict: 'unrealizable', seconds, backend: r.backend };
    if (r.status === 'error') failure.exitCode = r.exitCode as ExitCodeValue;
    const reason = r.status === 'realizable' ? `${r.backend} gave no controller` : r.status === 'error' ? `${r.backend} failed` : `${r.backend}: no answer`;
    return { verdict: 'unknown', reason, seconds, backend: r.backend };
  };
}
