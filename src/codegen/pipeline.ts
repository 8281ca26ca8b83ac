/**
 * The compile pipeline behind `tslc compile`: load → (compose) → synthesize → verify again →
 * build the table → emit. Kept apart from the CLI so tests and other tools can call it in-process.
 *
 * A module is only produced for a controller the independent checker (src/verify) accepted;
 * `metadata.verified` is therefore always true in written modules.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControllerMetadata } from '../../runtime/table.js';
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { loadGame } from '../frontend/load.js';
import { InputReadError, readInputFile } from '../diagnostics/read-input.js';
import type { GameSpec, TheoryName } from '../game/spec.js';
import type { MealyMachine } from '../game/mealy.js';
import { synthesize } from '../synthesis/index.js';
import { formatCounterexample, verifyController } from '../verify/index.js';
import { atoms } from '../ltl/formula.js';
import { composeGames } from './compose.js';
import { CodegenVerificationError } from './errors.js';
import { emitControllerModule } from './emit.js';
import { controllerNameProblem, pascalCase, suggestControllerName } from './identifiers.js';
import { inferSignalTypes } from './signal-types.js';
import { buildControllerTable } from './table.js';

export const SYNTHESIZER = 'tslc bounded synthesis';

export { CodegenVerificationError };

export interface CompileRequest {
  /** Spec files; more than one are composed into one controller. */
  readonly files: readonly string[];
  /** Controller name (module file stem); default: the single file's stem. */
  readonly name?: string;
  readonly outDir: string;
  /** Runtime module specifier; default: see `defaultRuntimeImport`. */
  readonly runtimeImport?: string;
  readonly timeoutMs?: number;
  readonly onWarning?: (d: Diagnostic) => void;
  /** TSL imports only from inside this directory (`--import-root`). */
  readonly importRoot?: string;
  /** The theory to read the specs in, overriding their headers (`--theory`). */
  readonly theory?: TheoryName | 'none';
  /** The back end (`--synthesizer`); default: the builtin engine. Its controller is re-verified here. */
  readonly synthesizer?: ControllerSynthesizer;
  /** Texts of spec files the caller already has (in memory, or read for a cache), by path. */
  readonly sources?: ReadonlyMap<string, string>;
  /** Sees each file a spec imports, with its text. */
  readonly onImport?: (path: string, text: string) => void;
}

/** What a back end answers; `backend` names it in the module's metadata. */
export type SynthesisAnswer =
  | { readonly verdict: 'realizable'; readonly controller: MealyMachine; readonly seconds: number; readonly backend: string }
  | { readonly verdict: 'unrealizable'; readonly seconds: number; readonly backend: string }
  | { readonly verdict: 'unknown'; readonly reason: string; readonly seconds: number; readonly backend: string };

/** A synthesis back end for `compileSpecs` (kept as a callback so this module never loads execa). */
export type ControllerSynthesizer = (spec: GameSpec, timeoutMs: number) => Promise<SynthesisAnswer>;

const builtinSynthesizer: ControllerSynthesizer = async (spec, timeoutMs) => ({ ...synthesize(spec, { timeoutMs }), backend: 'builtin' });

export type CompileOutcome =
  | {
      readonly kind: 'ok';
      readonly name: string;
      readonly outPath: string;
      readonly source: string;
      readonly stateCount: number;
      readonly seconds: number;
      /** The verified controller and the (composed) spec it implements, e.g. for diagrams. */
      readonly machine: MealyMachine;
      readonly spec: GameSpec;
      /** Which back end synthesized it (`builtin`, `ltlsynt`, …). */
      readonly backend: string;
      /** What the module records about its origin (spec hash, tool version, `verified: true`). */
      readonly metadata: ControllerMetadata;
    }
  | { readonly kind: 'unrealizable'; readonly name: string; readonly seconds: number }
  | { readonly kind: 'unknown'; readonly name: string; readonly reason: string; readonly seconds: number };

export async function compileSpecs(request: CompileRequest): Promise<CompileOutcome> {
  if (request.files.length === 0) throw new UserError(error('name at least one .tsl file to compile', undefined, 'usage'));
  const name = request.name ?? fileStem(request.files[0]);
  const problem = controllerNameProblem(name);
  if (problem !== undefined) {
    const fix = `tslc compile ${[...request.files, '--as', suggestControllerName(name), '-o', request.outDir].map(shellWord).join(' ')}`;
    const subject = request.name === undefined ? `${request.files[0]}: the spec name ${JSON.stringify(name)}` : `--as ${JSON.stringify(name)}`;
    throw new UserError(error(`${subject} cannot name a controller module: ${problem}; give another name with --as, e.g. \`${fix}\``, undefined, 'name'));
  }
  const texts: string[] = [];
  const games: GameSpec[] = [];
  for (const file of request.files) {
    const text = request.sources?.get(file) ?? readText(file);
    texts.push(text);
    const game = await loadGame(file, {
      text,
      onWarning: request.onWarning,
      importRoot: request.importRoot,
      onImport: request.onImport,
      theory: request.theory,
    });
    if (!game.tslSignals)
      throw new UserError(error(`${file}: only TSL specifications can be compiled to controllers`, undefined, 'compile-format'));
    games.push(game);
  }
  const spec = composeGames(name, games);
  const typeErrors = signalTypeErrors(spec);
  if (typeErrors.length > 0) throw new UserError(typeErrors);
  const result = await (request.synthesizer ?? builtinSynthesizer)(spec, request.timeoutMs ?? 60_000);
  if (result.verdict === 'unrealizable') return { kind: 'unrealizable', name, seconds: result.seconds };
  if (result.verdict === 'unknown') return { kind: 'unknown', name, reason: result.reason, seconds: result.seconds };
  const machine = result.controller;
  assertVerified(spec, machine);

  const outPath = join(request.outDir, `${name}.ts`);
  const metadata: ControllerMetadata = {
    specFile: request.files.map(displayPath).join(' + '),
    specHash: `sha256:${hashTexts(texts)}`,
    stateCount: machine.stateCount,
    toolVersion: toolVersion(),
    verified: true,
    synthesizer: result.backend === 'builtin' ? SYNTHESIZER : `${result.backend} (verified by tslc)`,
  };
  const table = buildControllerTable(spec, machine, name, { displayFile: displayPath });
  const source = emitControllerModule(table, metadata, {
    runtimeImport: request.runtimeImport ?? defaultRuntimeImport(request.outDir),
  });
  return { kind: 'ok', name, outPath, source, stateCount: machine.stateCount, seconds: result.seconds, machine, spec, backend: result.backend, metadata };
}

/**
 * Signals the built-ins would give two types (`[d <- eq c d]` and `d * 2`), located at the first
 * formula that mentions the update or predicate where the clash shows. Checked before synthesis:
 * such a controller would fail at run time, and its module could not be typed honestly.
 */
export function signalTypeErrors(spec: GameSpec): Diagnostic[] {
  const { conflicts } = inferSignalTypes({
    predicates: spec.inputs.flatMap((p) =>
      p.booleanSignal !== undefined
        ? [{ proposition: p.name, fn: '', args: [], text: p.term ?? p.name, signal: p.booleanSignal }]
        : p.predicate
          ? [{ proposition: p.name, fn: p.predicate.fn, args: p.predicate.args, text: p.term ?? p.name }]
          : [],
    ),
    updates: spec.outputs.flatMap((o) => (o.update ? [{ proposition: o.name, ...o.update, text: o.term ?? o.name }] : [])),
  });
  const parts = [...spec.initially, ...spec.preset, ...spec.assumptions, ...spec.guarantees];
  return conflicts.map((c) => {
    const part = parts.find((p) => p.span !== undefined && atoms(p.formula).has(c.proposition));
    return error(`type mismatch: ${c.message}`, part?.span, 'type');
  });
}

/** The compile command's own re-check: never trust a controller just because synthesis returned it. */
export function assertVerified(spec: GameSpec, machine: MealyMachine): void {
  const verdict = verifyController(spec, machine);
  if (!verdict.ok) {
    const lasso = verdict.counterexample ? `\n${formatCounterexample(verdict.counterexample)}` : '';
    throw new CodegenVerificationError(`the controller for ${spec.name} fails independent verification (${verdict.kind}): ${verdict.message}${lasso}`);
  }
}

function readText(file: string): string {
  try {
    return readInputFile(file);
  } catch (err) {
    if (err instanceof InputReadError) throw new UserError(error(err.message, undefined, 'io'));
    throw err;
  }
}

/** A word as a POSIX shell would need it in the suggested command. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function fileStem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.[^.]*$/, '');
}

/** Paths in metadata are relative to the working directory with `/`, so modules are reproducible. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return (rel.startsWith('..') ? resolve(file) : rel).split(sep).join('/');
}

function hashTexts(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const t of texts) hash.update(`${t.length}:`).update(t);
  return hash.digest('hex');
}

/** The nearest package.json above this module is tslc's own. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        if ((JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'tslc') return dir;
      } catch {
        // An unreadable package.json is not ours; keep looking upwards.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export function toolVersion(): string {
  const root = packageRoot();
  if (!root) return 'unknown';
  return String((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown');
}

/**
 * `tslc/runtime` for users; but when the output directory lies inside the tslc checkout itself
 * (like `generated/`), a relative import of the runtime sources, so the repo type-checks alone.
 */
export function defaultRuntimeImport(outDir: string): string {
  const root = packageRoot();
  const out = resolve(outDir);
  if (root && existsSync(join(root, 'runtime', 'index.ts')) && (out === root || out.startsWith(root + sep)) && !out.startsWith(join(root, 'node_modules'))) {
    let rel = relative(out, join(root, 'runtime', 'index.js')).split(sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return rel;
  }
  return 'tslc/runtime';
}

/** `adventure` → `createAdventure`: the factory name users import. */
export function factoryName(name: string): string {
  return `create${pascalCase(name)}`;
}
