/**
 * bench/runtime — the controller runtime: predicate calls per step of lazy decision diagrams
 * versus evaluating every predicate each step (what the papers' generated code does), the
 * runtime's own time per step with instant user functions, and idle turns: turns in which the
 * controller keeps every output although an obligation of its spec is pending (see
 * src/synthesis/idle-turns.ts), played against a random environment that keeps the assumptions.
 *
 * Tables come from the committed modules in generated/ (the four seed tasks: adventure,
 * adventure-forest, adventure-choices, adventure-choices-forest); each module is transpiled into
 * dist/generated/ so it imports the built runtime.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { walk } from '../runtime/decision.js';
import { createController, type ControllerTable } from '../runtime/index.js';
import { composeGames } from '../src/codegen/compose.js';
import { expectedCalls } from '../src/codegen/table.js';
import { progress } from '../src/ltl/progress.js';
import { loadGame } from '../src/frontend/load.js';
import type { GameSpec } from '../src/game/spec.js';
import { and, FALSE, type Formula } from '../src/ltl/formula.js';
import { idleTurns, type TraceStep } from '../src/synthesis/idle-turns.js';
import type { BenchContext, BenchSection } from './sections.js';

const SEED_TASKS = ['adventure', 'adventure-forest', 'adventure-choices', 'adventure-choices-forest'];
const STEPS = 20_000;
/** The specs each task's controller was compiled from (scripts/generate.mjs). */
const TASK_SPECS: Readonly<Record<string, readonly string[]>> = {
  adventure: ['adventure.tsl'],
  'adventure-forest': ['adventure.tsl', 'forest.tsl'],
  'adventure-choices': ['adventure.tsl', 'choices.tsl'],
  'adventure-choices-forest': ['adventure.tsl', 'choices.tsl', 'forest.tsl'],
};
/** Games and turns per game of the idle-turn measure. */
const IDLE_GAMES = 200;
const IDLE_TURNS = 40;

/** dist/bench/runtime.js → the repo root. */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export async function loadTable(name: string): Promise<ControllerTable | undefined> {
  const source = join(repoRoot, 'generated', `${name}.ts`);
  if (!existsSync(source)) return undefined;
  const js = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const outDir = join(repoRoot, 'dist', 'generated');
  mkdirSync(outDir, { recursive: true });
  const target = join(outDir, `${name}.js`);
  writeFileSync(target, js);
  const mod = (await import(pathToFileURL(target).href)) as Record<string, unknown>;
  const entry = Object.entries(mod).find(([key]) => key.endsWith('Table'));
  return entry ? (entry[1] as ControllerTable) : undefined;
}

function xorshift(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** An implementation whose predicates answer fair coins instantly and whose functions return constants. */
function coinImpl(table: ControllerTable, random: () => number): Record<string, (...args: unknown[]) => unknown> {
  const impl: Record<string, (...args: unknown[]) => unknown> = {};
  const builtins = new Set(['add', 'sub', 'mul', 'div', 'eq', 'lt', 'gt', 'lte', 'gte']);
  const visit = (term: ControllerTable['updates'][number]['term']): void => {
    if (term.kind !== 'call') return;
    if (!builtins.has(term.fn)) impl[term.fn] ??= () => 'text';
    term.args.forEach(visit);
  };
  for (const p of table.predicates) if (p.signal === undefined) impl[p.fn] = () => random() < 0.5;
  for (const u of table.updates) if (!u.isSelfUpdate) visit(u.term);
  return impl;
}

interface IdleRow {
  /** Turns played (the environment never breaks an assumption, so all are examined). */
  turns: number;
  /** Turns with an obligation pending. */
  pending: number;
  /** Of those, turns in which every output kept its value. */
  idle: number;
  /** Games whose first turn kept every output. */
  idleFirstTurns: number;
}

/**
 * Plays the table against a random environment that never breaks INITIALLY or an assumption:
 * each turn it tries the input letters in random order and takes the first one that, with the
 * controller's answer to it, leaves the assumptions satisfiable by progression. Deterministic
 * (seeded), so the same table always gives the same counts.
 */
function measureIdle(table: ControllerTable, spec: GameSpec): IdleRow {
  const random = xorshift(7);
  const inputs = table.predicates.map((p) => p.proposition);
  const letters: Record<string, boolean>[] = [];
  for (let bits = 0; bits < 1 << inputs.length; bits++) letters.push(Object.fromEntries(inputs.map((name, i) => [name, ((bits >> i) & 1) === 1])));
  const row: IdleRow = { turns: 0, pending: 0, idle: 0, idleFirstTurns: 0 };
  for (let game = 0; game < IDLE_GAMES; game++) {
    let state = table.initialState;
    let initially: Formula = and(...spec.initially.map((p) => p.formula));
    let assumptions: Formula = and(...spec.assumptions.map((p) => p.formula));
    const steps: TraceStep[] = [];
    for (let turn = 0; turn < IDLE_TURNS; turn++) {
      const order = letters.map((_, i) => i);
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [order[i], order[j]] = [order[j], order[i]];
      }
      let played: { step: TraceStep; next: number; initially: Formula; assumptions: Formula } | undefined;
      for (const i of order) {
        const letter = letters[i];
        const walked = walk(table.states[state].decision, new Map(table.predicates.map((p) => [p.index, letter[p.proposition]])));
        if (walked.kind !== 'leaf') throw new Error(`${table.name}: state ${state} asks an unknown predicate`);
        const outputs = Object.fromEntries(table.updates.map((u) => [u.proposition, walked.leaf.updates.includes(u.index)]));
        const value = (name: string) => letter[name] === true || outputs[name] === true;
        const nextInitially = turn === 0 ? progress(initially, value) : initially;
        const nextAssumptions = progress(assumptions, value);
        if (nextInitially === FALSE || nextAssumptions === FALSE) continue;
        played = { step: { inputs: letter, outputs }, next: walked.leaf.next, initially: nextInitially, assumptions: nextAssumptions };
        break;
      }
      if (!played) break;
      steps.push(played.step);
      state = played.next;
      initially = played.initially;
      assumptions = played.assumptions;
    }
    const report = idleTurns(spec, steps);
    row.turns += report.turns;
    row.pending += report.pending;
    row.idle += report.idle.length;
    if (report.idle[0] === 0) row.idleFirstTurns++;
  }
  return row;
}

async function loadSpec(task: string): Promise<GameSpec> {
  const games: GameSpec[] = [];
  for (const file of TASK_SPECS[task]) games.push(await loadGame(join(repoRoot, 'specs', file)));
  return composeGames(task, games);
}

interface Row {
  task: string;
  idle: IdleRow;
  states: number;
  predicates: number;
  lazyCalls: number;
  expected: number;
  usPerStep: number;
  cpuUsPerStep: number;
}

async function measure(name: string, table: ControllerTable, spec: GameSpec): Promise<Row> {
  const idle = measureIdle(table, spec);
  const random = xorshift(42);
  // Boolean-signal propositions are inputs the caller supplies; count them as asked predicates too.
  const boolInputs = table.predicates.filter((p) => p.signal !== undefined).map((p) => p.signal as string);
  const initial = Object.fromEntries(table.signals.map((s) => [s.name, s.role === 'input' ? 'in' : 0]));
  const controller = createController<Record<string, unknown>, Record<string, unknown>>({
    table,
    impl: coinImpl(table, random),
    initialSignals: initial,
    options: { telemetry: false, traceLimit: 0 },
  });
  const inputs: Record<string, unknown> = {};
  let asked = 0;
  for (let i = 0; i < STEPS; i++) {
    for (const b of boolInputs) inputs[b] = random() < 0.5;
    const record = await controller.step(inputs);
    asked += record.asked.length;
  }
  // Timing: after the warm-up run above; best of 5 rounds, in wall time and in CPU time (CPU
  // time is what the step costs when other processes compete for the cores).
  let usPerStep = Infinity;
  let cpuUsPerStep = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < STEPS; i++) {
      for (const b of boolInputs) inputs[b] = random() < 0.5;
      await controller.step(inputs);
    }
    const used = process.cpuUsage(cpu);
    usPerStep = Math.min(usPerStep, ((performance.now() - start) * 1000) / STEPS);
    cpuUsPerStep = Math.min(cpuUsPerStep, (used.user + used.system) / STEPS);
  }
  const expected = table.states.reduce((sum, s) => sum + expectedCalls(s.decision), 0) / table.states.length;
  return { task: name, idle, states: table.states.length, predicates: table.predicates.length, lazyCalls: asked / STEPS, expected, usPerStep, cpuUsPerStep };
}

export const runtimeSection: BenchSection = {
  name: 'runtime',
  describe: 'controller runtime: lazy predicate calls vs. evaluate-all, and runtime overhead per step',
  async run(ctx: BenchContext): Promise<string> {
    const rows: Row[] = [];
    for (const task of SEED_TASKS) {
      const table = await loadTable(task);
      if (!table) {
        ctx.log(`runtime: generated/${task}.ts missing; compile it with tslc compile … --as ${task} -o generated`);
        continue;
      }
      ctx.log(`runtime: ${task} (${table.states.length} states)`);
      rows.push(await measure(task, table, await loadSpec(task)));
    }
    const lines = [
      '## Controller runtime',
      '',
      `Seed tasks of the TSL agent papers, ${STEPS.toLocaleString('en-US')} steps each with fair-coin predicate answers and instant user functions.`,
      '"Evaluate all" is the papers\' generated code, which asks every predicate every step.',
      '',
      '| task | states | predicates (evaluate all) | lazy: asked per step | lazy: expected per step (avg over states) | saved | runtime µs/step (wall) | runtime µs/step (CPU) |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map(
        (r) =>
          `| ${r.task} | ${r.states} | ${r.predicates} | ${r.lazyCalls.toFixed(2)} | ${r.expected.toFixed(2)} | ${(100 * (1 - r.lazyCalls / Math.max(1, r.predicates))).toFixed(0)}% | ${r.usPerStep.toFixed(2)} | ${r.cpuUsPerStep.toFixed(2)} |`,
      ),
      '',
      'Runtime µs/step is the whole `await controller.step()` with instant synchronous user functions (trace record, timings and',
      'input handling included): the controller\'s own cost, goal well under 10 µs. Best of 5 rounds; CPU time includes GC.',
      `Load average when measured: ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${cpus().length} cores.`,
      '',
      '### Idle turns',
      '',
      `${IDLE_GAMES} games of ${IDLE_TURNS} turns per task against a random environment that never breaks an assumption (seeded).`,
      'An idle turn keeps every output (each signal takes its self-update) while an obligation of the spec is pending:',
      'progressed through the turns before, the guarantees would leave an eventuality open after this turn\'s inputs with idle outputs.',
      '',
      '| task | states | turns | turns with an obligation pending | idle turns while pending | games idle on turn 1 |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map((r) => `| ${r.task} | ${r.states} | ${r.idle.turns} | ${r.idle.pending} | ${r.idle.idle} (${((100 * r.idle.idle) / Math.max(1, r.idle.pending)).toFixed(1)}%) | ${r.idle.idleFirstTurns} |`),
      '',
    ];
    return lines.join('\n');
  },
};
