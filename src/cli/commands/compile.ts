/**
 * `tslc compile <files…> -o <dir>`: one typed TypeScript controller module per spec (or one for
 * all of them with `--as <name>`). `--check` writes nothing and exits 1 when a module is missing
 * or differs from what would be generated; `--watch` recompiles whenever a spec changes.
 * `--diagram [mermaid|dot]` writes the controller's diagram beside each module; `--synthesizer`
 * picks the back end (src/external, imported only then; its controller is re-verified anyway).
 */
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { type Diagnostic, error, UserError } from '../../diagnostics/diagnostic.js';
import { CodegenVerificationError, compileSpecs, type CompileOutcome, type ControllerSynthesizer } from '../../codegen/pipeline.js';
import type { GameSpec } from '../../game/spec.js';
import type { MealyMachine } from '../../game/mealy.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg, refuseStdin, renderDiagnostics } from '../io.js';
import { buildDiagram, toDot, toMermaid } from '../../explain/diagram.js';

interface Options {
  readonly files: string[];
  readonly outDir: string;
  readonly as?: string;
  readonly check: boolean;
  readonly watch: boolean;
  readonly runtimeImport?: string;
  readonly timeoutMs: number;
  readonly json: boolean;
  readonly diagram?: 'mermaid' | 'dot';
  readonly importRoot?: string;
  /** `--synthesizer` other than builtin: the raw args, read by src/external. */
  readonly external?: Record<string, unknown>;
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
  // A bare `--diagram` arrives as '' (yargs string option): Mermaid is the default.
  const diagram = args.diagram === undefined || args.diagram === false ? undefined : args.diagram === '' || args.diagram === true ? 'mermaid' : String(args.diagram);
  if (diagram !== undefined && diagram !== 'mermaid' && diagram !== 'dot')
    throw new UserError({ severity: 'error', message: `--diagram must be mermaid or dot, not '${diagram}'`, code: 'usage' });
  return {
    files,
    outDir: out,
    as: args.as === undefined ? undefined : String(args.as),
    check: Boolean(args.check),
    watch: Boolean(args.watch),
    runtimeImport: args['runtime-import'] === undefined ? undefined : String(args['runtime-import']),
    timeoutMs: timeoutSeconds * 1000,
    json: Boolean(args.json),
    diagram,
    importRoot: importRootArg(args),
    external: args.synthesizer !== undefined && args.synthesizer !== 'builtin' ? args : undefined,
  };
}

/** Units of compilation: every file alone, or all files as one composed controller. */
function units(options: Options): { files: string[]; name?: string }[] {
  return options.as !== undefined ? [{ files: options.files, name: options.as }] : options.files.map((f) => ({ files: [f] }));
}

export async function run(args: Record<string, unknown>): Promise<number> {
  const options = parseOptions(args);
  const code = await compileAll(options);
  if (!options.watch) return code;
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
}

/**
 * `--synthesizer ltlsynt|strix|auto` as a back end for the pipeline. A tool that is missing or
 * answered wrongly is not "unknown": its diagnostics are printed and `exitCode` says how bad it was.
 */
async function externalSynthesizer(args: Record<string, unknown>, failure: { exitCode?: number }): Promise<ControllerSynthesizer> {
  const { solve, synthesizerFromArgs } = await import('../../external/index.js');
  const { builtinBackend } = await import('../../external/builtin.js');
  const { synthesizer, timeoutMs: toolTimeoutMs } = synthesizerFromArgs(args);
  return async (spec, timeoutMs) => {
    const r = await solve(spec, { synthesizer, mode: 'synthesis', builtin: builtinBackend(spec, 'synthesis', { timeoutMs }), timeoutMs: toolTimeoutMs });
    if (r.diagnostics.length > 0) process.stderr.write(renderDiagnostics([...r.diagnostics]) + '\n');
    const seconds = r.timeMs / 1000;
    if (r.status === 'realizable' && r.machine) return { verdict: 'realizable', controller: r.machine, seconds, backend: r.backend };
    if (r.status === 'unrealizable') return { verdict: 'unrealizable', seconds, backend: r.backend };
    if (r.status === 'error') failure.exitCode = r.exitCode;
    const reason = r.status === 'realizable' ? `${r.backend} gave no controller` : r.status === 'error' ? `${r.backend} failed` : `${r.backend}: no answer`;
    return { verdict: 'unknown', reason, seconds, backend: r.backend };
  };
}

async function compileAll(options: Options): Promise<number> {
  let exit: number = ExitCode.ok;
  const reports: Report[] = [];
  // A mistake in one spec (syntax, an unusable name) must not stop the others: each unit's
  // diagnostics are kept, the other modules are written, and all diagnostics are raised at the end.
  const problems: Diagnostic[] = [];
  const modules = new Map<string, string>();
  for (const unit of units(options)) {
    let outcome: CompileOutcome;
    const failure: { exitCode?: number } = {};
    try {
      outcome = await compileSpecs({
        files: unit.files,
        name: unit.name,
        outDir: options.outDir,
        runtimeImport: options.runtimeImport,
        timeoutMs: options.timeoutMs,
        importRoot: options.importRoot,
        onWarning: (d) => process.stderr.write(renderDiagnostics([d]) + '\n'),
        synthesizer: options.external ? await externalSynthesizer(options.external, failure) : undefined,
      });
    } catch (err) {
      if (err instanceof CodegenVerificationError) {
        process.stderr.write(`tslc: internal error, no module written: ${err.message}\n`);
        return ExitCode.internal;
      }
      if (!(err instanceof UserError)) throw err;
      problems.push(...err.diagnostics);
      continue;
    }
    if (outcome.kind === 'unrealizable') {
      process.stderr.write(`${unit.files.join(' + ')}: error: unrealizable, no controller exists (${outcome.seconds.toFixed(2)} s)\n`);
      reports.push({ name: outcome.name, status: 'unrealizable', seconds: outcome.seconds });
      exit = Math.max(exit, ExitCode.failure);
      continue;
    }
    if (outcome.kind === 'unknown') {
      process.stderr.write(`${unit.files.join(' + ')}: error: synthesis gave no answer (${outcome.reason}) after ${outcome.seconds.toFixed(2)} s\n`);
      reports.push({ name: outcome.name, status: 'unknown', seconds: outcome.seconds });
      const code = failure.exitCode ?? ExitCode.unknown;
      // Precedence as in `check`: input error, then failure (incl. a lying tool), then unknown.
      exit = [ExitCode.inputError, ExitCode.failure, ExitCode.unknown].find((c) => c === exit || c === code) ?? code;
      continue;
    }
    // Two specs with the same stem (`a/x.tsl b/x.tsl`) would write the same module.
    const earlier = modules.get(outcome.outPath);
    if (earlier !== undefined) {
      problems.push(error(`${unit.files.join(' + ')} and ${earlier} would both be written to ${outcome.outPath}; compile one of them separately with --as <name>`, undefined, 'name'));
      continue;
    }
    modules.set(outcome.outPath, unit.files.join(' + '));
    const existing = existsSync(outcome.outPath) ? readFileSync(outcome.outPath, 'utf8') : undefined;
    const shown = relative(process.cwd(), outcome.outPath) || outcome.outPath;
    const diagram = options.diagram ? diagramFile(outcome.outPath, options.diagram, outcome.machine, outcome.spec) : undefined;
    const base = {
      name: outcome.name,
      path: shown,
      states: outcome.stateCount,
      seconds: outcome.seconds,
      ...(options.external ? { backend: outcome.backend } : {}),
      ...(diagram ? { diagram: relative(process.cwd(), diagram.path) || diagram.path } : {}),
    };
    if (options.check) {
      // A module or diagram that is not up to date is reported once, on stderr, with the fix;
      // stdout lists only what is fresh (the JSON report lists everything).
      const fix = `run \`tslc compile ${unit.files.join(' ')}${unit.name ? ` --as ${unit.name}` : ''}${options.diagram ? ` --diagram ${options.diagram}` : ''} -o ${options.outDir}\``;
      const status = existing === undefined ? 'missing' : existing === outcome.source ? 'fresh' : 'stale';
      const diagramStatus = !diagram ? undefined : !existsSync(diagram.path) ? 'missing' : readFileSync(diagram.path, 'utf8') === diagram.text ? 'fresh' : 'stale';
      if (status !== 'fresh') process.stderr.write(`${shown}: error: ${status} module; ${fix}\n`);
      if (diagramStatus !== undefined && diagramStatus !== 'fresh') process.stderr.write(`${base.diagram}: error: ${diagramStatus} diagram; ${fix}\n`);
      if (status !== 'fresh' || (diagramStatus !== undefined && diagramStatus !== 'fresh')) exit = Math.max(exit, ExitCode.failure);
      reports.push({ ...base, status, ...(diagramStatus ? { diagramStatus } : {}) });
      continue;
    }
    if (existing !== outcome.source) {
      mkdirSync(dirname(outcome.outPath), { recursive: true });
      writeFileSync(outcome.outPath, outcome.source);
    }
    if (diagram && (!existsSync(diagram.path) || readFileSync(diagram.path, 'utf8') !== diagram.text)) writeFileSync(diagram.path, diagram.text);
    reports.push({ ...base, status: existing === outcome.source ? 'unchanged' : 'written' });
  }
  if (options.json) process.stdout.write(JSON.stringify({ modules: reports }) + '\n');
  else
    for (const r of reports)
      if (r.path && r.status !== 'stale' && r.status !== 'missing' && (r.diagramStatus ?? 'fresh') === 'fresh')
        process.stdout.write(
          `${r.path}: ${r.status} (${r.states} state${r.states === 1 ? '' : 's'}, ${r.seconds.toFixed(2)} s${r.backend ? `, ${r.backend}` : ''})${r.diagram ? ` + ${r.diagram}` : ''}\n`,
        );
  if (problems.length > 0) throw new UserError(problems);
  return exit;
}

/** `<module>.mmd` / `<module>.dot` beside the module, drawn from the verified controller. */
function diagramFile(outPath: string, kind: 'mermaid' | 'dot', machine: MealyMachine, spec: GameSpec): { path: string; text: string } {
  const d = buildDiagram(machine, spec);
  const stem = outPath.replace(/\.ts$/, '');
  return kind === 'dot' ? { path: `${stem}.dot`, text: toDot(d) } : { path: `${stem}.mmd`, text: toMermaid(d) };
}

/** Recompile on every change of an input file; runs until interrupted. */
async function watchAndRecompile(options: Options): Promise<void> {
  process.stderr.write(`watching ${options.files.join(', ')} (Ctrl-C to stop)\n`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  const recompile = (): void => {
    // Editors write files in bursts; wait for the burst to end before compiling once.
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        try {
          await compileAll(options);
        } catch (err) {
          if (err instanceof UserError) process.stderr.write(renderDiagnostics(err.diagnostics) + '\n');
          else process.stderr.write(`tslc: ${(err as Error).message}\n`);
        }
      });
    }, 100);
  };
  const watchers = options.files.map((f) => watch(f, recompile));
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => {
      for (const w of watchers) w.close();
      resolve();
    });
  });
}
