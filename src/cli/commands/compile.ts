/**
 * `tslc compile <files…> -o <dir>`: one typed TypeScript controller module per spec (or one for
 * all of them with `--as <name>`). `--check` writes nothing and exits 1 when a module is missing
 * or differs from what would be generated; `--watch` recompiles whenever a spec or a file it
 * imports changes (src/cli/watch.ts). `--dts` also writes `<spec>.d.tsl.ts` beside each spec, the
 * declaration TypeScript reads for `import … from './spec.tsl'` under `allowArbitraryExtensions`;
 * `--diagram [mermaid|dot]` writes the controller's diagram beside each module; `--synthesizer`
 * picks the back end. The work is the library's `compile` (src/api/compile.ts); this module
 * writes, compares and reports.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { theoryOption } from '../../frontend/load.js';
import { dirname, relative } from 'node:path';
import { type Diagnostic, UserError } from '../../diagnostics/diagnostic.js';
import { compile, type CompileOptions, type FileText } from '../../api/compile.js';
import type { SynthesizerName } from '../../api/inputs.js';
import { CodegenVerificationError } from '../../codegen/errors.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg, refuseStdin, renderDiagnostics } from '../io.js';

interface Options {
  readonly files: string[];
  readonly outDir: string;
  readonly check: boolean;
  readonly watch: boolean;
  readonly json: boolean;
  readonly compile: CompileOptions;
  /** `--synthesizer` other than builtin: reports name the back end. */
  readonly external: boolean;
}

function parseOptions(args: Record<string, unknown>): Options {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f) => f !== undefined).map(String);
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one .tsl file', code: 'usage' });
  for (const f of files) refuseStdin(f, 'a compiled module is named after its spec file and checked against it (--check, --watch); save the spec to a file');
  const out = args.out ?? args.o;
  if (typeof out !== 'string' || out === '') throw new UserError({ severity: 'error', message: 'give the output directory with -o <dir>', code: 'usage' });
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: '--timeout expects a positive number of seconds', code: 'usage' });
  if (args.check && args.watch) throw new UserError({ severity: 'error', message: '--check and --watch cannot be combined', code: 'usage' });
  if (args.dts && args.as !== undefined)
    throw new UserError({ severity: 'error', message: '--dts writes one declaration beside each spec, so it cannot be combined with --as', code: 'usage' });
  // A bare `--diagram` arrives as '' (yargs string option): Mermaid is the default.
  const diagram = args.diagram === undefined || args.diagram === false ? undefined : args.diagram === '' || args.diagram === true ? 'mermaid' : String(args.diagram);
  if (diagram !== undefined && diagram !== 'mermaid' && diagram !== 'dot')
    throw new UserError({ severity: 'error', message: `--diagram must be mermaid or dot, not '${diagram}'`, code: 'usage' });
  const external = args.synthesizer !== undefined && args.synthesizer !== 'builtin';
  return {
    files,
    outDir: out,
    check: Boolean(args.check),
    watch: Boolean(args.watch),
    json: Boolean(args.json),
    external,
    compile: {
      outDir: out,
      as: args.as === undefined ? undefined : String(args.as),
      runtimeImport: args['runtime-import'] === undefined ? undefined : String(args['runtime-import']),
      timeout: timeoutSeconds,
      importRoot: importRootArg(args),
      theory: theoryOption(args.theory),
      dts: Boolean(args.dts),
      diagram,
      synthesizer: external ? (String(args.synthesizer) as SynthesizerName) : undefined,
      toolTimeout: typeof args['tool-timeout'] === 'number' ? args['tool-timeout'] : undefined,
    },
  };
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const options = parseOptions(args);
  if (!options.watch) return (await compileAll(options)).exitCode;
  await watchAndRecompile(options);
  return ExitCode.ok;
}

interface Report {
  readonly name: string;
  readonly status: 'written' | 'unchanged' | 'fresh' | 'stale' | 'missing' | 'unrealizable' | 'unknown';
  readonly path?: string;
  readonly states?: number;
  readonly seconds: number;
  readonly backend?: string;
  readonly diagram?: string;
  /** `--check` with `--diagram`: whether the diagram file is up to date. */
  readonly diagramStatus?: 'fresh' | 'stale' | 'missing';
  readonly declaration?: string;
  /** `--check` with `--dts`: whether the declaration file is up to date. */
  readonly declarationStatus?: 'fresh' | 'stale' | 'missing';
}

type Freshness = 'fresh' | 'stale' | 'missing';

function freshness(file: FileText): Freshness {
  return !existsSync(file.path) ? 'missing' : readFileSync(file.path, 'utf8') === file.text ? 'fresh' : 'stale';
}

/** Writes `file` unless it already holds exactly that text; true when it wrote. */
function writeIfChanged(file: FileText): boolean {
  if (existsSync(file.path) && readFileSync(file.path, 'utf8') === file.text) return false;
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text);
  return true;
}

const shown = (path: string): string => relative(process.cwd(), path) || path;

/** Compiles every unit, writes (or with --check compares) its files, prints the report. */
async function compileAll(options: Options): Promise<{ exitCode: number; dependencies: string[] }> {
  let result;
  try {
    result = await compile(options.files, options.compile);
  } catch (err) {
    if (err instanceof CodegenVerificationError) {
      process.stderr.write(`tslc: internal error, no module written: ${err.message}\n`);
      return { exitCode: ExitCode.internal, dependencies: options.files };
    }
    throw err;
  }
  if (result.modules.length === 0) throw new UserError(result.errors);
  let exit: number = ExitCode.ok;
  const reports: Report[] = [];
  // A mistake in one spec (syntax, an unusable name) must not stop the others: each unit's
  // diagnostics are kept, the other modules are written, and all diagnostics are raised at the end.
  const problems: Diagnostic[] = [];
  for (const m of result.modules) {
    if (m.warnings.length > 0) process.stderr.write(renderDiagnostics(m.warnings) + '\n');
    if (m.status === 'error') {
      problems.push(...m.errors);
      continue;
    }
    if (m.errors.length > 0) process.stderr.write(renderDiagnostics(m.errors) + '\n');
    if (m.status === 'unrealizable') {
      process.stderr.write(`${m.specs.join(' + ')}: error: unrealizable, no controller exists (${m.seconds.toFixed(2)} s)\n`);
      process.stderr.write(`  hint: \`tslc explain ${m.specs.join(' ')}\` shows which lines conflict\n`);
      reports.push({ name: m.name, status: 'unrealizable', seconds: m.seconds });
      exit = worse(exit, m.exitCode);
      continue;
    }
    if (m.status === 'unknown' || !m.module) {
      process.stderr.write(`${m.specs.join(' + ')}: error: synthesis gave no answer (${m.reason}) after ${m.seconds.toFixed(2)} s\n`);
      reports.push({ name: m.name, status: 'unknown', seconds: m.seconds });
      exit = worse(exit, m.exitCode);
      continue;
    }
    const base = {
      name: m.name,
      path: shown(m.module.path),
      states: m.states,
      seconds: m.seconds,
      ...(options.external ? { backend: m.backend } : {}),
      ...(m.diagram ? { diagram: shown(m.diagram.path) } : {}),
      ...(m.declaration ? { declaration: shown(m.declaration.path) } : {}),
    };
    if (options.check) {
      // A file that is not up to date is reported once, on stderr, with the fix; stdout lists
      // only what is fresh (the JSON report lists everything).
      const unit = options.compile.as;
      const flags = `${unit ? ` --as ${unit}` : ''}${options.compile.diagram ? ` --diagram ${options.compile.diagram}` : ''}${options.compile.dts ? ' --dts' : ''}`;
      const fix = `run \`tslc compile ${m.specs.join(' ')}${flags} -o ${options.outDir}\``;
      const status = freshness(m.module);
      const diagramStatus = m.diagram ? freshness(m.diagram) : undefined;
      const declarationStatus = m.declaration ? freshness(m.declaration) : undefined;
      if (status !== 'fresh') process.stderr.write(`${base.path}: error: ${status} module; ${fix}\n`);
      if (diagramStatus !== undefined && diagramStatus !== 'fresh') process.stderr.write(`${base.diagram}: error: ${diagramStatus} diagram; ${fix}\n`);
      if (declarationStatus !== undefined && declarationStatus !== 'fresh')
        process.stderr.write(`${base.declaration}: error: ${declarationStatus} declaration; ${fix}\n`);
      if ([status, diagramStatus, declarationStatus].some((s) => s !== undefined && s !== 'fresh')) exit = worse(exit, ExitCode.failure);
      reports.push({ ...base, status, ...(diagramStatus ? { diagramStatus } : {}), ...(declarationStatus ? { declarationStatus } : {}) });
      continue;
    }
    const wrote = writeIfChanged(m.module);
    if (m.diagram) writeIfChanged(m.diagram);
    if (m.declaration) writeIfChanged(m.declaration);
    reports.push({ ...base, status: wrote ? 'written' : 'unchanged' });
  }
  if (options.json) process.stdout.write(JSON.stringify({ modules: reports }) + '\n');
  else
    for (const r of reports)
      if (r.path && r.status !== 'stale' && r.status !== 'missing' && (r.diagramStatus ?? 'fresh') === 'fresh' && (r.declarationStatus ?? 'fresh') === 'fresh')
        process.stdout.write(
          `${r.path}: ${r.status} (${r.states} state${r.states === 1 ? '' : 's'}, ${r.seconds.toFixed(2)} s${r.backend ? `, ${r.backend}` : ''})${r.diagram ? ` + ${r.diagram}` : ''}${r.declaration ? ` + ${r.declaration}` : ''}\n`,
        );
  if (problems.length > 0) throw new DependentUserError(problems, result.modules.flatMap((m) => m.dependencies));
  return { exitCode: exit, dependencies: result.modules.flatMap((m) => m.dependencies) };
}

/** Precedence as in `check`: internal error, input error, then failure (incl. a lying tool), then unknown. */
function worse(a: number, b: number): number {
  return [ExitCode.internal, ExitCode.inputError, ExitCode.failure, ExitCode.unknown].find((c) => c === a || c === b) ?? Math.max(a, b);
}

/** Input errors, and the files read before they were found (a watcher must keep watching those). */
class DependentUserError extends UserError {
  constructor(
    diagnostics: readonly Diagnostic[],
    readonly dependencies: readonly string[],
  ) {
    super(diagnostics);
  }
}

/** Compile, then recompile on every change of a spec or an import, until interrupted (Ctrl-C). */
async function watchAndRecompile(options: Options): Promise<void> {
  let dependencies: readonly string[] = options.files;
  const round = async (): Promise<readonly string[]> => {
    try {
      dependencies = (await compileAll(options)).dependencies;
    } catch (err) {
      if (err instanceof UserError) {
        process.stderr.write(renderDiagnostics(err.diagnostics) + '\n');
        if (err instanceof DependentUserError) dependencies = err.dependencies;
      } else process.stderr.write(`tslc: ${(err as Error).message}\n`);
    }
    return dependencies;
  };
  await round();
  const { watchFiles } = await import('../watch.js');
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  await watchFiles([...options.files, ...dependencies], round, {
    signal: stop.signal,
    onReady: () => process.stderr.write(`watching ${options.files.join(', ')} and what they import (Ctrl-C to stop)\n`),
  });
}
