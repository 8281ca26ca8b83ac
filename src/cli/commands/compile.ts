/**
 * `tslc compile <files…> -o <dir>`: one typed TypeScript controller module per spec (or one for
 * all of them with `--as <name>`). `--check` writes nothing and exits 1 when a module is missing
 * or differs from what would be generated; `--watch` recompiles whenever a spec changes.
 */
import { existsSync, mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { UserError } from '../../diagnostics/diagnostic.js';
import { CodegenVerificationError, compileSpecs, type CompileOutcome } from '../../codegen/pipeline.js';
import { ExitCode } from '../exit-codes.js';
import { renderDiagnostics } from '../io.js';

interface Options {
  readonly files: string[];
  readonly outDir: string;
  readonly as?: string;
  readonly check: boolean;
  readonly watch: boolean;
  readonly runtimeImport?: string;
  readonly timeoutMs: number;
  readonly json: boolean;
}

function parseOptions(args: Record<string, unknown>): Options {
  const files = (Array.isArray(args.files) ? args.files : [args.files]).filter((f) => f !== undefined).map(String);
  if (files.length === 0) throw new UserError({ severity: 'error', message: 'name at least one .tsl file', code: 'usage' });
  const out = args.out ?? args.o;
  if (typeof out !== 'string' || out === '') throw new UserError({ severity: 'error', message: 'give the output directory with -o <dir>', code: 'usage' });
  const timeoutSeconds = Number(args.timeout ?? 60);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)
    throw new UserError({ severity: 'error', message: '--timeout expects a positive number of seconds', code: 'usage' });
  if (args.check && args.watch) throw new UserError({ severity: 'error', message: '--check and --watch cannot be combined', code: 'usage' });
  return {
    files,
    outDir: out,
    as: args.as === undefined ? undefined : String(args.as),
    check: Boolean(args.check),
    watch: Boolean(args.watch),
    runtimeImport: args['runtime-import'] === undefined ? undefined : String(args['runtime-import']),
    timeoutMs: timeoutSeconds * 1000,
    json: Boolean(args.json),
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
  readonly status: 'written' | 'unchanged' | 'fresh' | 'stale' | 'unrealizable' | 'unknown';
  readonly path?: string;
  readonly states?: number;
  readonly seconds: number;
}

async function compileAll(options: Options): Promise<number> {
  let exit: number = ExitCode.ok;
  const reports: Report[] = [];
  for (const unit of units(options)) {
    let outcome: CompileOutcome;
    try {
      outcome = await compileSpecs({
        files: unit.files,
        name: unit.name,
        outDir: options.outDir,
        runtimeImport: options.runtimeImport,
        timeoutMs: options.timeoutMs,
        onWarning: (d) => process.stderr.write(renderDiagnostics([d]) + '\n'),
      });
    } catch (err) {
      if (err instanceof CodegenVerificationError) {
        process.stderr.write(`tslc: internal error, no module written: ${err.message}\n`);
        return ExitCode.internal;
      }
      throw err;
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
      exit = exit === ExitCode.failure ? exit : ExitCode.unknown;
      continue;
    }
    const existing = existsSync(outcome.outPath) ? readFileSync(outcome.outPath, 'utf8') : undefined;
    const shown = relative(process.cwd(), outcome.outPath) || outcome.outPath;
    const base = { name: outcome.name, path: shown, states: outcome.stateCount, seconds: outcome.seconds };
    if (options.check) {
      const fresh = existing === outcome.source;
      if (!fresh) {
        process.stderr.write(`${shown}: error: ${existing === undefined ? 'missing' : 'stale'}; run \`tslc compile ${unit.files.join(' ')}${unit.name ? ` --as ${unit.name}` : ''} -o ${options.outDir}\`\n`);
        exit = Math.max(exit, ExitCode.failure);
      }
      reports.push({ ...base, status: fresh ? 'fresh' : 'stale' });
      continue;
    }
    if (existing !== outcome.source) {
      mkdirSync(dirname(outcome.outPath), { recursive: true });
      writeFileSync(outcome.outPath, outcome.source);
    }
    reports.push({ ...base, status: existing === outcome.source ? 'unchanged' : 'written' });
  }
  if (options.json) process.stdout.write(JSON.stringify({ modules: reports }) + '\n');
  else
    for (const r of reports)
      if (r.path) process.stdout.write(`${r.path}: ${r.status} (${r.states} state${r.states === 1 ? '' : 's'}, ${r.seconds.toFixed(2)} s)\n`);
  return exit;
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
