/**
 * The adherence evaluation of the papers (000/001 Sec. 7), `npm run eval:cyoa`: play N games of S
 * turns per task with the TSL agent, check each game's procedural adherence (must be 100%) and
 * observed adherence (judged from independent labels), and print/write Table 1 and Table 2.
 *
 * On the simulated model every game gets its own model seeded from (seed, game), the judge is the
 * simulation's hidden ground truth, and everything is deterministic. On a real model the judge is
 * a separate set of predicate calls (its own seed and system prompt) to the same provider, or to
 * `--judge-model`.
 *
 * Per task, beside the TSL agent, the papers' prompt-only baseline (baseline.ts) is played on the
 * same players and judged by the same guarantees. It runs by default only on a real model: the
 * simulated model does not read natural-language rules, so its baseline rows are marked as not
 * meaningful (`--baseline` forces them, e.g. to exercise the harness).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CallBudget,
  createLlmSession,
  createModel,
  isLlmError,
  maxTokensFromEnv,
  type MaxTokens,
  type MaxTokensSetting,
  MemoryCache,
  type Model,
  resolveMaxTokens,
  NO_USAGE,
  addUsage,
  parseModelSpec,
  simulatedModel,
  type StepUsage,
} from '../../runtime/llm/index.js';
import { CYOA_PREDICATES, CYOA_TASKS, type CyoaTask } from './prompts.js';
import { simulatedPlayer } from './player.js';
import { type GameResult, type Judge, playGame } from './agent.js';
import { checkObserved, checkProcedural, countingErrors, loadTaskSpecs, type TaskSpecs } from './adherence.js';
import { baselineCountingErrors, baselineGuarantees, checkBaselineObserved, playBaselineGame } from './baseline.js';
import type { ControllerTable } from '../../runtime/index.js';
import { idleTurns } from '../../src/synthesis/idle-turns.js';
import { hasController, loadTaskController, TASK_ORDER } from './tasks.js';

export interface EvalConfig {
  readonly tasks: readonly CyoaTask[];
  readonly games: number;
  readonly steps: number;
  /** `sim`, `sim:<seed>?…`, `openai:<model>`, `openai-compatible:<url>#<model>`. */
  readonly model: string;
  readonly seed: number;
  /** Sim only: overrides the model string's hallucination rate. */
  readonly hallucinationRate?: number;
  /** Sim only: overrides the evaluator error rate. */
  readonly evaluatorErrorRate?: number;
  /** Point-in-time repair: regenerations per passage (0 = off). */
  readonly repair: number;
  readonly maxCalls?: number;
  readonly timeoutMs?: number;
  /** Tests: a model factory instead of the model string (e.g. a failing or AI SDK mock model). */
  readonly makeModel?: (game: number) => Model;
  /**
   * Play the prompt-only baseline too. Default (undefined): only on a real model, since the
   * simulated model ignores natural-language rules.
   */
  readonly baseline?: boolean;
  /** Real providers: the judge's model (default: the evaluated model, with its own seed and prompt). */
  readonly judgeModel?: string;
  /** Tokens per kind of call (`TSLC_MAX_TOKENS`); default `DEFAULT_MAX_TOKENS`. The judge's are predicate calls. */
  readonly maxTokens?: MaxTokensSetting;
}

export type EvalMethod = 'TSL' | 'prompt-only';

export interface TaskRow {
  readonly task: CyoaTask;
  readonly method: EvalMethod;
  /** States of our verified controller (none for the prompt-only baseline); the paper's count beside it. */
  readonly states: number | undefined;
  readonly paperStates: number;
  readonly games: number;
  /** Games that ran to the end (no LLM failure). */
  readonly completed: number;
  /** Undefined for the prompt-only baseline: it makes no controller choices to check. */
  readonly proceduralAdherence: number | undefined;
  readonly observedAdherence: number;
  readonly violations: number;
  readonly hallucinationErrors: number;
  readonly arithmeticErrors: number;
  readonly repairs: number;
  /**
   * TSL agent, completed games: turns in which the controller kept every output although an
   * obligation was pending (src/synthesis/idle-turns.ts), out of the turns with one pending;
   * counted on the answers it saw, before the LLM first broke an assumption.
   */
  readonly idleTurns?: { readonly idle: number; readonly pending: number };
  readonly errors: readonly { readonly game: number; readonly turn: number; readonly kind: string; readonly message: string }[];
  readonly usage: StepUsage;
  /** Why the task was not played (no controller module). */
  readonly skipped?: string;
  /** Prompt-only rows on the simulated model: they exercise the harness but measure nothing. */
  readonly notMeaningful?: boolean;
}

export interface EvalReport {
  readonly model: string;
  readonly simulated: boolean;
  readonly seed: number;
  readonly games: number;
  readonly steps: number;
  readonly repair: number;
  /** Whether the prompt-only baseline was played. */
  readonly baseline: boolean;
  readonly judge?: string;
  /** Tokens each kind of call could generate (undefined: reports written before this was recorded). */
  readonly maxTokens?: MaxTokens;
  readonly hallucinationRate?: number;
  readonly evaluatorErrorRate?: number;
  readonly rows: readonly TaskRow[];
  readonly usage: StepUsage;
  readonly seconds: number;
}

interface ModelSetup {
  readonly id: string;
  readonly simulated: boolean;
  readonly hallucinationRate?: number;
  readonly evaluatorErrorRate?: number;
  /** The judge's model, when it is not the evaluated model. */
  readonly judgeId?: string;
  /** The model and judge for one game. */
  forGame(game: number): { model: Model; judge: (session: ReturnType<typeof createLlmSession>) => Judge };
}

function setupModel(config: EvalConfig): ModelSetup {
  if (config.makeModel) {
    const make = config.makeModel;
    const probe = make(0);
    return {
      id: probe.id,
      simulated: probe.simulated,
      forGame: (game) => ({ model: make(game), judge: separateJudge(config.seed, undefined, config.maxTokens) }),
    };
  }
  if (config.judgeModel !== undefined && parseModelSpec(config.judgeModel).kind === 'sim') {
    throw new Error('--judge-model cannot be the simulated model: its labels would know nothing of a real model’s passages');
  }
  const spec = parseModelSpec(config.model);
  if (spec.kind === 'sim') {
    const hallucinationRate = config.hallucinationRate ?? spec.hallucinationRate ?? 0.03;
    const evaluatorErrorRate = config.evaluatorErrorRate ?? spec.evaluatorErrorRate ?? 0;
    return {
      id: `sim (simulated model, seeds ${config.seed}+game)`,
      simulated: true,
      hallucinationRate,
      evaluatorErrorRate,
      forGame(game) {
        const sim = simulatedModel({
          seed: config.seed * 100_003 + game,
          hallucinationRate,
          evaluatorErrorRate,
          garbageRate: spec.garbageRate,
          answerNoiseRate: spec.answerNoiseRate,
        });
        return { model: sim, judge: () => (predicate, text) => sim.judge(predicate, text) };
      },
    };
  }
  const model = createModel(spec);
  const judgeModel = config.judgeModel === undefined ? undefined : createModel(parseModelSpec(config.judgeModel));
  return {
    id: model.id,
    simulated: model.simulated,
    judgeId: judgeModel?.id,
    forGame: () => ({ model, judge: separateJudge(config.seed, judgeModel, config.maxTokens) }),
  };
}

/** The judge's system prompt on real providers: a separate role from the story's evaluator. */
export const JUDGE_SYSTEM = 'You are an impartial judge of a story. Answer only 0 or 1.';

/**
 * On a real provider: the same location questions, asked separately with the judge's own seed and
 * system prompt, of `judgeModel` when given, else of the evaluated model.
 */
function separateJudge(seed: number, judgeModel?: Model, maxTokens?: MaxTokensSetting): (session: ReturnType<typeof createLlmSession>) => Judge {
  return (session) => {
    const asks = new Map<string, (text: string) => Promise<boolean>>();
    return async (predicate, text) => {
      const template = (CYOA_PREDICATES as Record<string, (typeof CYOA_PREDICATES)['inCave']>)[predicate];
      if (!template) return undefined;
      let ask = asks.get(predicate);
      if (!ask) {
        const judgeTemplate = { ...template, system: JUDGE_SYSTEM };
        const predicateFn = createLlmSession({ model: judgeModel ?? session.model.inner, seed: seed + 7919, cache: undefined, ...(maxTokens !== undefined ? { maxTokens } : {}) }).predicate(judgeTemplate);
        ask = (t: string) => predicateFn(t);
        asks.set(predicate, ask);
      }
      return ask(text);
    };
  };
}

const percent = (part: number, whole: number): number => (whole === 0 ? 0 : (100 * part) / whole);

/** The LLM session of one game: the same seed, limits and retries for both methods. */
function gameSession(config: EvalConfig, game: number, model: Model, cache: MemoryCache, budget: CallBudget | undefined) {
  return createLlmSession({
    model,
    seed: config.seed + game,
    cache,
    budget,
    timeoutMs: config.timeoutMs ?? 60_000,
    retry: { maxAttempts: 3, baseDelayMs: 250 },
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
  });
}

export async function runEvaluation(config: EvalConfig): Promise<EvalReport> {
  const started = performance.now();
  const setup = setupModel(config);
  const budget = config.maxCalls === undefined ? undefined : new CallBudget({ maxCalls: config.maxCalls });
  const playBaseline = config.baseline ?? !setup.simulated;
  const rows: TaskRow[] = [];
  let total = NO_USAGE;
  for (const task of config.tasks) {
    const info = CYOA_TASKS[task];
    if (!hasController(task)) {
      rows.push(emptyRow(task, `generated module missing (see docs/cyoa.md)`));
      if (playBaseline) rows.push({ ...emptyRow(task, 'needs the task’s generated module for its propositions'), method: 'prompt-only' });
      continue;
    }
    const controller = await loadTaskController(task);
    const specs = await loadTaskSpecs(task);
    // One cache per task: on the simulated model a cached text must come from the same simulated
    // instance, which alone knows its hidden facts (games of different tasks share model ids).
    const cache = new MemoryCache();
    let procedural = 0;
    let observed = 0;
    let completed = 0;
    let hallucinationErrors = 0;
    let arithmeticErrors = 0;
    let repairs = 0;
    let idle = 0;
    let pending = 0;
    let usage = NO_USAGE;
    const errors: { game: number; turn: number; kind: string; message: string }[] = [];
    for (let game = 0; game < config.games; game++) {
      const { model, judge } = setup.forGame(game);
      const session = gameSession(config, game, model, cache, budget);
      let result: GameResult;
      try {
        result = await playGame({
          task,
          table: controller.table,
          bindings: controller.bindings,
          session,
          player: { choose: async (turn) => simulatedPlayer(config.seed * 7 + game).move(turn) },
          steps: config.steps,
          repair: { maxAttempts: config.repair },
          judge: judge(session),
        });
      } catch (err) {
        // Setup failures (not LLM calls inside a turn) still end only this game, with a record.
        const kind = isLlmError(err) ? err.kind : 'error';
        errors.push({ game, turn: 0, kind, message: err instanceof Error ? err.message : String(err) });
        continue;
      }
      usage = addUsage(usage, result.usage);
      repairs += result.turns.reduce((n, t) => n + t.repairs, 0);
      if (result.error) {
        errors.push({ game, ...result.error });
        continue;
      }
      completed += 1;
      if (checkProcedural(specs, controller.table, result).ok) procedural += 1;
      const idleness = idleTurns(specs.full, result.turns);
      idle += idleness.idle.length;
      pending += idleness.pending;
      const seen = checkObserved(specs.guarantees, result);
      if (seen.ok) observed += 1;
      // Table 2: what went wrong in a violating game (both kinds may apply).
      if (!seen.ok && result.turns.some((t) => t.hallucinated === true)) hallucinationErrors += 1;
      if (!seen.ok && countingErrors(result) > 0) arithmeticErrors += 1;
    }
    total = addUsage(total, usage);
    rows.push({
      task,
      method: 'TSL',
      states: controller.metadata?.stateCount ?? controller.table.states.length,
      paperStates: info.paperStates,
      games: config.games,
      completed,
      proceduralAdherence: percent(procedural, completed),
      observedAdherence: percent(observed, completed),
      violations: percent(completed - observed, completed),
      hallucinationErrors,
      arithmeticErrors,
      repairs,
      idleTurns: { idle, pending },
      errors,
      usage,
    });
    if (playBaseline) {
      const row = await runBaselineTask(config, setup, task, controller.table, specs, budget);
      total = addUsage(total, row.usage);
      rows.push(row);
    }
  }
  return {
    model: setup.id,
    simulated: setup.simulated,
    seed: config.seed,
    games: config.games,
    steps: config.steps,
    repair: config.repair,
    baseline: playBaseline,
    judge: setup.judgeId,
    maxTokens: resolveMaxTokens(config.maxTokens),
    hallucinationRate: setup.hallucinationRate,
    evaluatorErrorRate: setup.evaluatorErrorRate,
    rows,
    usage: total,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The guarantees whose violation the papers call a hallucination: adventure.tsl (and forest.tsl). */
const LOCATION_TASK: Readonly<Record<CyoaTask, CyoaTask>> = { adventure: 'adventure', forest: 'forest', choices: 'adventure', all: 'forest' };

/**
 * The prompt-only baseline on one task: the same games (players, seeds, judge) as the TSL agent,
 * judged against the same guarantees. Table 2 splits its violations as the papers do:
 * hallucinations break adventure.tsl/forest.tsl, arithmetic errors break choices.tsl.
 */
async function runBaselineTask(
  config: EvalConfig,
  setup: ModelSetup,
  task: CyoaTask,
  table: ControllerTable,
  specs: TaskSpecs,
  budget: CallBudget | undefined,
): Promise<TaskRow> {
  const spec = baselineGuarantees(specs.guarantees);
  const locationSpec = baselineGuarantees((await loadTaskSpecs(LOCATION_TASK[task])).guarantees);
  const cache = new MemoryCache();
  let observed = 0;
  let completed = 0;
  let hallucinationErrors = 0;
  let arithmeticErrors = 0;
  let usage = NO_USAGE;
  const errors: { game: number; turn: number; kind: string; message: string }[] = [];
  for (let game = 0; game < config.games; game++) {
    const { model, judge } = setup.forGame(game);
    const session = gameSession(config, game, model, cache, budget);
    const result = await playBaselineGame({
      task,
      table,
      session,
      player: { choose: async (turn) => simulatedPlayer(config.seed * 7 + game).move(turn) },
      steps: config.steps,
      judge: judge(session),
    });
    usage = addUsage(usage, result.usage);
    if (result.error) {
      errors.push({ game, ...result.error });
      continue;
    }
    completed += 1;
    if (checkBaselineObserved(spec, table, result).ok) {
      observed += 1;
      continue;
    }
    if (!checkBaselineObserved(locationSpec, table, result).ok) hallucinationErrors += 1;
    if (baselineCountingErrors(table, result.turns) > 0) arithmeticErrors += 1;
  }
  return {
    task,
    method: 'prompt-only',
    states: undefined,
    paperStates: CYOA_TASKS[task].paperStates,
    games: config.games,
    completed,
    proceduralAdherence: undefined,
    observedAdherence: percent(observed, completed),
    violations: percent(completed - observed, completed),
    hallucinationErrors,
    arithmeticErrors,
    repairs: 0,
    errors,
    usage,
    ...(setup.simulated ? { notMeaningful: true } : {}),
  };
}

function emptyRow(task: CyoaTask, skipped: string): TaskRow {
  return {
    task,
    method: 'TSL',
    states: undefined,
    paperStates: CYOA_TASKS[task].paperStates,
    games: 0,
    completed: 0,
    proceduralAdherence: 0,
    observedAdherence: 0,
    violations: 0,
    hallucinationErrors: 0,
    arithmeticErrors: 0,
    repairs: 0,
    errors: [],
    usage: NO_USAGE,
    skipped,
  };
}

const TASK_LABEL: Readonly<Record<CyoaTask, string>> = {
  adventure: 'adventure',
  forest: 'adventure+forest',
  choices: 'adventure+choices',
  all: 'adventure+choices+forest',
};

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const pct = (value: number) => `${value.toFixed(1)}%`;

/** The method column: a simulated prompt-only row says that it measures nothing. */
function methodLabel(row: TaskRow): string {
  return row.notMeaningful ? `${row.method} (sim: not meaningful)` : row.method;
}

/** Table 1 and Table 2 of the papers, as Markdown, with the run's settings and usage. */
export function formatReport(report: EvalReport): string {
  const settings = [
    `model: ${report.model}${report.simulated ? ' — SIMULATED model, not a real LLM' : ''}`,
    `seed: ${report.seed}; games per task: ${report.games}; steps per game: ${report.steps}; repair: ${report.repair === 0 ? 'off' : `up to ${report.repair} regenerations`}`,
    ...(report.hallucinationRate === undefined ? [] : [`sim hallucination rate: ${report.hallucinationRate}; evaluator error rate: ${report.evaluatorErrorRate}`]),
    report.baseline
      ? `prompt-only baseline: played${report.simulated ? ' — on the simulated model it only exercises the harness (the sim ignores natural-language rules and picks locations at random)' : ''}`
      : 'prompt-only baseline: not played (default on the simulated model; --baseline forces it)',
    `judge: ${report.simulated ? 'the simulation’s hidden ground truth' : `separate predicate calls with their own seed and system prompt${report.judge ? ` to ${report.judge}` : ' to the same model'}`}`,
    ...(report.maxTokens ? [`max tokens per call: ${Object.entries(report.maxTokens).map(([kind, n]) => `${kind} ${n ?? 'no limit'}`).join(', ')} (TSLC_MAX_TOKENS)`] : []),
    `LLM calls: ${report.usage.calls} sent, ${report.usage.cachedCalls} cached, ${report.usage.failures} failed; tokens: ${report.usage.inputTokens} in / ${report.usage.outputTokens} out; ${report.seconds.toFixed(1)} s`,
  ];
  const t1 = table(
    ['task', 'method', 'states (paper)', 'games', 'procedural adherence', 'observed adherence', 'violations', 'idle turns while pending'],
    report.rows.map((r) =>
      r.skipped
        ? [TASK_LABEL[r.task], methodLabel(r), `– (${r.paperStates})`, '0', 'not run', r.skipped, '', '']
        : [
            TASK_LABEL[r.task],
            methodLabel(r),
            `${r.states ?? '–'} (${r.paperStates})`,
            `${r.completed}/${r.games}`,
            r.proceduralAdherence === undefined ? 'n/a' : pct(r.proceduralAdherence),
            pct(r.observedAdherence),
            pct(r.violations),
            r.idleTurns === undefined ? 'n/a' : `${r.idleTurns.idle} of ${r.idleTurns.pending}`,
          ],
    ),
  );
  const played = report.rows.filter((r) => !r.skipped);
  const violating = (r: TaskRow) => Math.round((r.violations * r.completed) / 100);
  // The papers' Table 2 totals each method over all tasks, with shares of all its games.
  const methods = [...new Set(played.map((r) => r.method))];
  const totals = methods.map((method) => {
    const rows = played.filter((r) => r.method === method);
    const sum = (f: (r: TaskRow) => number) => rows.reduce((n, r) => n + f(r), 0);
    const games = sum((r) => r.completed);
    const share = (n: number) => (games === 0 ? String(n) : `${n} (${pct((100 * n) / games)})`);
    return [
      'total',
      rows.some((r) => r.notMeaningful) ? `${method} (sim: not meaningful)` : method,
      String(games),
      share(sum(violating)),
      share(sum((r) => r.hallucinationErrors)),
      share(sum((r) => r.arithmeticErrors)),
      method === 'prompt-only' ? '–' : String(sum((r) => r.repairs)),
      String(sum((r) => r.errors.length)),
    ];
  });
  const t2 = table(
    ['task', 'method', 'games', 'violating games', 'hallucination errors', 'arithmetic errors', 'repairs', 'LLM failures'],
    [
      ...played.map((r) => [
        TASK_LABEL[r.task],
        methodLabel(r),
        String(r.completed),
        String(violating(r)),
        String(r.hallucinationErrors),
        String(r.arithmeticErrors),
        r.method === 'prompt-only' ? '–' : String(r.repairs),
        String(r.errors.length),
      ]),
      ...totals,
    ],
  );
  const failures = report.rows.flatMap((r) => r.errors.map((e) => `- ${TASK_LABEL[r.task]} (${r.method}) game ${e.game}, turn ${e.turn}: ${e.kind}: ${e.message}`));
  return [
    '# CYOA adherence evaluation',
    '',
    'Tables 1 and 2 follow the evaluation of Rothkopf, Zeng and Santolucito, “Enforcing Temporal Constraints on Generative Agent Behavior with Reactive Synthesis” (states: ours, then the paper’s in brackets).',
    '',
    ...settings.map((s) => `- ${s}`),
    '',
    '## Table 1: adherence',
    '',
    t1,
    '',
    '## Table 2: kinds of errors in violating games',
    '',
    t2,
    ...(failures.length > 0 ? ['', '## Games ended by LLM failures', '', ...failures.slice(0, 20), ...(failures.length > 20 ? [`- … ${failures.length - 20} more`] : [])] : []),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Command line: node dist/examples/cyoa/eval.js --games 75 --steps 20 --model sim --out eval.md

const USAGE = `usage: npm run eval:cyoa -- [--games N] [--steps N] [--model M] [--seed N] [--tasks a,b]
       [--hallucination P] [--evaluator-error P] [--repair N] [--max-calls N] [--out FILE]
       [--baseline | --no-baseline] [--judge-model M]`;

/** Flags without a value. */
const SWITCHES = new Set(['baseline', 'no-baseline']);

export function parseEvalArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): EvalConfig & { out: string } {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument '${arg}'\n${USAGE}`);
    if (SWITCHES.has(arg.slice(2))) {
      switches.add(arg.slice(2));
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) values.set(arg.slice(2, eq), arg.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      values.set(arg.slice(2), next);
      i++;
    }
  }
  const known = new Set(['games', 'steps', 'model', 'seed', 'tasks', 'hallucination', 'evaluator-error', 'repair', 'max-calls', 'out', 'judge-model']);
  for (const key of values.keys()) if (!known.has(key)) throw new Error(`unknown option --${key}\n${USAGE}`);
  const int = (key: string, fallback: number, min = 0): number => {
    const text = values.get(key);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${key} expects an integer ≥ ${min}, got '${text}'`);
    return n;
  };
  const rate = (key: string): number | undefined => {
    const text = values.get(key);
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!(n >= 0 && n <= 1)) throw new Error(`--${key} expects a probability between 0 and 1, got '${text}'`);
    return n;
  };
  const tasks = (values.get('tasks') ?? TASK_ORDER.join(',')).split(',').map((t) => t.trim());
  for (const t of tasks) if (!(TASK_ORDER as readonly string[]).includes(t)) throw new Error(`unknown task '${t}'; tasks: ${TASK_ORDER.join(', ')}`);
  const maxCalls = values.has('max-calls') ? int('max-calls', 0, 1) : undefined;
  if (switches.has('baseline') && switches.has('no-baseline')) throw new Error(`--baseline and --no-baseline contradict each other\n${USAGE}`);
  const baseline = switches.has('baseline') ? true : switches.has('no-baseline') ? false : undefined;
  const judgeModel = values.get('judge-model');
  const maxTokens = maxTokensFromEnv(env);
  if (judgeModel !== undefined && parseModelSpec(judgeModel).kind === 'sim') throw new Error('--judge-model must be a real model (the simulated model cannot judge another model’s passages)');
  return {
    tasks: tasks as CyoaTask[],
    games: int('games', 10, 1),
    steps: int('steps', 20, 1),
    model: values.get('model') ?? (env.TSLC_MODEL?.trim() || 'sim'),
    seed: int('seed', 1),
    hallucinationRate: rate('hallucination'),
    evaluatorErrorRate: rate('evaluator-error'),
    repair: int('repair', 0),
    maxCalls,
    ...(baseline === undefined ? {} : { baseline }),
    ...(judgeModel === undefined ? {} : { judgeModel }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    out: values.get('out') ?? 'cyoa-eval.md',
  };
}

async function main(): Promise<number> {
  let config: EvalConfig & { out: string };
  try {
    config = parseEvalArgs(process.argv.slice(2));
    parseModelSpec(config.model);
    if (config.judgeModel !== undefined) parseModelSpec(config.judgeModel);
  } catch (err) {
    process.stderr.write(`eval:cyoa: error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const report = await runEvaluation(config);
  const text = formatReport(report);
  process.stdout.write(text);
  mkdirSync(dirname(config.out), { recursive: true });
  writeFileSync(config.out, text);
  writeFileSync(config.out.replace(/\.md$/, '') + '.json', JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(`\nwritten to ${config.out} (and .json)\n`);
  const bad = report.rows.some((r) => r.method === 'TSL' && !r.skipped && r.completed > 0 && (r.proceduralAdherence ?? 0) < 100);
  if (bad) process.stderr.write('eval:cyoa: procedural adherence below 100% — this is a bug in tslc\n');
  return bad ? 70 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`eval:cyoa: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 70;
    },
  );
}
