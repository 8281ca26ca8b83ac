/**
 * The adventure agent's game loop: the four-step turn of paper 001 Sec. 5.
 *
 *   1. evaluate — ask the evaluator model every predicate of the spec about the story summary;
 *   2. choose   — step the synthesized controller on those answers (it picks the update);
 *   3. generate — the chosen function term (`toCave`, …) writes the passage, optionally with
 *                 point-in-time repair: ask `inCave` of the new passage, regenerate up to N times;
 *   4. output   — show the passage, fold it into the summary, let the player choose.
 *
 * All predicates are evaluated up front (and memoized for the turn) so that every turn records a
 * complete input letter: that is what lets the procedural check replay the controller's choices
 * against the spec. Any LLM failure ends the game with the error recorded: a failed evaluation is
 * never read as `false`, so the controller never decides on an answer nobody gave.
 */
import {
  createController,
  type ControllerTable,
  type ImplementationBindings,
  type StepRecord,
  type TermData,
  theoryFunction,
} from '../../runtime/index.js';
import { isLlmError, type LlmSession, type StepUsage } from '../../runtime/llm/index.js';
import { CYOA_FUNCTIONS, CYOA_PREDICATES, CYOA_SUMMARY, type CyoaTask } from './prompts.js';
import type { PlayerMove } from './player.js';

/** Who makes the choices: the simulated player, a person at the terminal, a test script. */
export interface Player {
  /** The move after `passage` (undefined before any passage); `undefined` ends the game. */
  choose(turn: number, passage: string | undefined): Promise<PlayerMove | undefined>;
}

/** Ground truth of a predicate on a text (sim: the hidden facts; else a separate judge). */
export type Judge = (predicate: string, text: string) => Promise<boolean | undefined> | boolean | undefined;

export interface RepairOptions {
  /** Regenerations allowed after the first passage disagrees with its location (0 = repair off). */
  readonly maxAttempts: number;
}

export interface GameOptions {
  readonly task: CyoaTask;
  readonly table: ControllerTable;
  readonly bindings?: ImplementationBindings;
  readonly session: LlmSession;
  readonly player: Player;
  readonly steps: number;
  readonly repair?: RepairOptions;
  /** Independent labels for observed adherence; omitted: no ground truth is recorded. */
  readonly judge?: Judge;
  /** Called after each turn, e.g. to print it. */
  readonly onTurn?: (turn: TurnRecord) => void | Promise<void>;
}

export interface TurnRecord {
  readonly turn: number;
  readonly stateBefore: number;
  readonly stateAfter: number;
  readonly move: PlayerMove;
  /** Every input proposition's value as the controller saw it (evaluator answers, input signals). */
  readonly inputs: Readonly<Record<string, boolean>>;
  /** Every output proposition: true exactly for the chosen updates. */
  readonly outputs: Readonly<Record<string, boolean>>;
  /** `[signal <- term]` of the chosen non-self updates. */
  readonly chosen: readonly string[];
  /** One line: why the controller chose this update (runtime `explain`). */
  readonly explanation: string;
  /** The new passage, when the story passage was updated this turn. */
  readonly passage?: string;
  /** The function term that wrote it (`toCave`). */
  readonly passageTerm?: string;
  /** Regenerations by point-in-time repair this turn. */
  readonly repairs: number;
  /** True when the final passage still contradicts its requested location (per the judge). */
  readonly hallucinated?: boolean;
  /** The summary the turn's predicates were asked about. */
  readonly summaryBefore: string;
  readonly safeCount?: number;
  /** Ground-truth values of the input propositions, when a judge was given. */
  readonly truth?: Readonly<Record<string, boolean>>;
  readonly record: StepRecord;
}

export interface GameError {
  readonly turn: number;
  /** `LlmError` kind (`timeout`, `garbage-answer`, `budget-exhausted`, …) or `error`. */
  readonly kind: string;
  readonly message: string;
}

export interface GameResult {
  readonly task: CyoaTask;
  readonly turns: readonly TurnRecord[];
  /** Set when an LLM (or other) failure ended the game early. */
  readonly error?: GameError;
  /** The player quit before `steps` turns. */
  readonly quit: boolean;
  readonly usage: StepUsage;
}

/** Location predicate that checks a location function's output: `toCave` → `inCave`. */
export function repairPredicateOf(fn: string): string | undefined {
  const match = /^to([A-Z]\w*)$/.exec(fn);
  const name = match ? `in${match[1]}` : undefined;
  return name !== undefined && Object.hasOwn(CYOA_PREDICATES, name) ? name : undefined;
}

type Signals = Record<string, unknown>;

/** Evaluates a predicate/function argument; only signals and literals occur in the CYOA specs. */
function argValue(term: TermData, signals: Signals): unknown {
  if (term.kind === 'signal') return signals[term.name];
  if (term.kind === 'literal') return term.value;
  throw new Error(`argument ${term.fn}(…) is not supported by the CYOA agent`);
}

/** A predicate of an empty story is false: nothing has happened yet (the specs' `initially`). */
const isEmptyStory = (value: unknown): boolean => typeof value === 'string' && value.trim() === '';

function explainLine(record: StepRecord, explanation: ReturnType<ReturnType<typeof createController>['explain']>): string {
  const because = explanation.decisive.map((p) => `${p.text} = ${p.value ? 1 : 0}`).join(', ');
  const what = explanation.chosen.length > 0 ? `chose ${explanation.chosen.join(', ')}` : 'kept the story passage';
  // Where the chosen update is mentioned in the spec, as file:line.
  const lines = explanation.specSites.length > 0 ? ` (see ${explanation.specSites.join(', ')})` : '';
  return `state ${record.stateBefore} → ${record.stateAfter}: ${what}${because ? ` because ${because}` : ''}${lines}`;
}

function describeError(turn: number, err: unknown): GameError {
  // The runtime wraps user-call failures in StepError with the LLM error as the cause.
  const cause = isLlmError(err) ? err : err instanceof Error && isLlmError(err.cause) ? err.cause : undefined;
  if (cause) return { turn, kind: cause.kind, message: cause.message };
  return { turn, kind: 'error', message: err instanceof Error ? err.message : String(err) };
}

export async function playGame(options: GameOptions): Promise<GameResult> {
  const { table, session, player, judge } = options;
  const usesCounter = table.signals.some((s) => s.name === 'safeCount');
  const inputNames = table.signals.filter((s) => s.role === 'input').map((s) => s.name);
  const predicates = new Map(Object.entries(CYOA_PREDICATES).map(([name, t]) => [name, session.predicate(t)]));
  const generators = new Map(Object.entries(CYOA_FUNCTIONS).map(([name, t]) => [name, session.generator(t)]));
  const summarize = session.summarizer(CYOA_SUMMARY);
  const maxRepairs = options.repair?.maxAttempts ?? 0;

  // Per-turn state the implementation closures read.
  let answers = new Map<string, boolean>();
  let repairs = 0;
  let passageTerm: string | undefined;
  const memoKey = (fn: string, args: readonly unknown[]) => `${fn}\u0000${JSON.stringify(args)}`;

  const impl: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  // Under #LIA (choices.tsl) the counter's comparisons are the runtime's: no prompt for them.
  const native = (fn: string) => theoryFunction(table.theory, fn);
  for (const fn of new Set(table.predicates.filter((p) => p.signal === undefined && !native(p.fn)).map((p) => p.fn))) {
    const ask = predicates.get(fn);
    if (!ask) throw new Error(`the CYOA prompts have no predicate '${fn}'`);
    impl[fn] = async (...args) => {
      const key = memoKey(fn, args);
      const known = answers.get(key);
      if (known !== undefined) return known;
      const value = isEmptyStory(args[0]) ? false : await ask(...args);
      answers.set(key, value);
      return value;
    };
  }
  for (const update of table.updates) {
    if (update.term.kind !== 'call' || Object.hasOwn(impl, update.term.fn)) continue;
    const fn = update.term.fn;
    const generate = generators.get(fn);
    if (!generate) continue; // built-ins such as `add` come from the runtime
    const check = repairPredicateOf(fn);
    impl[fn] = async (...args) => {
      passageTerm = fn;
      let passage = await generate(...args);
      const ask = check === undefined ? undefined : predicates.get(check);
      for (let attempt = 1; ask && attempt <= maxRepairs && !(await ask(passage)); attempt++) {
        session.context.attempt = attempt; // a new seed, so the regeneration can differ
        repairs += 1;
        passage = await generate(...args);
      }
      session.context.attempt = 0;
      return passage;
    };
  }

  const controller = createController<Signals, Signals>({
    table,
    bindings: options.bindings,
    impl,
    initialSignals: usesCounter ? { storyPassage: '', safeCount: 0 } : { storyPassage: '' },
    options: { traceLimit: 0 },
  });

  const turns: TurnRecord[] = [];
  let summary = '';
  let lastPassage: string | undefined;
  let error: GameError | undefined;
  let quit = false;
  for (let turn = 0; turn < options.steps; turn++) {
    const move = await player.choose(turn, lastPassage);
    if (!move) {
      quit = true;
      break;
    }
    try {
      const before = controller.signals;
      const safeCount = typeof before.safeCount === 'number' ? before.safeCount : 0;
      const offered: Signals = { s: summary, safe: move.safe };
      const inputSignals: Signals = Object.fromEntries(inputNames.filter((n) => n in offered).map((n) => [n, offered[n]]));
      const signals: Signals = { ...before, ...inputSignals };
      session.context.begin(turn, { playerChoice: move.text, safeCount, lastChoiceSafe: move.safe });
      answers = new Map();
      repairs = 0;
      passageTerm = undefined;

      // 1. evaluate: every predicate, so the turn's input letter is complete.
      const inputs: Record<string, boolean> = {};
      const truth: Record<string, boolean> = {};
      for (const p of table.predicates) {
        if (p.signal !== undefined) {
          inputs[p.proposition] = truth[p.proposition] = signals[p.signal] === true;
          continue;
        }
        const args = p.args.map((a) => argValue(a, signals));
        const computed = native(p.fn);
        if (computed) {
          // Integer arithmetic on the counter: the same answer for the controller and the judge.
          inputs[p.proposition] = truth[p.proposition] = computed(args[0], args[1]) === true;
          continue;
        }
        inputs[p.proposition] = (await impl[p.fn](...args)) === true;
        if (judge) truth[p.proposition] = isEmptyStory(args[0]) ? false : (await judge(p.fn, String(args[0]))) === true;
      }

      // 2–3. choose and generate: the controller asks the memoized answers, then calls the chosen term.
      const record = await controller.step(inputSignals);
      const after = controller.signals;
      const outputs: Record<string, boolean> = {};
      for (const u of table.updates) outputs[u.proposition] = record.updates.some((c) => c.index === u.index);
      const passageUpdate = record.updates.find((u) => u.signal === 'storyPassage' && !u.isSelfUpdate);
      const passage = passageUpdate ? String(after.storyPassage) : undefined;
      let hallucinated: boolean | undefined;
      if (passage !== undefined && passageTerm && judge) {
        const check = repairPredicateOf(passageTerm);
        if (check) hallucinated = (await judge(check, passage)) === false;
      }

      // 4. output: fold the passage into the summary the next turn is evaluated on.
      if (passage !== undefined) {
        summary = await summarize(summary, passage);
        lastPassage = passage;
      }
      const entry: TurnRecord = {
        turn,
        stateBefore: record.stateBefore,
        stateAfter: record.stateAfter,
        move,
        inputs,
        outputs,
        chosen: record.updates.filter((u) => !u.isSelfUpdate).map((u) => u.text),
        explanation: explainLine(record, controller.explain(record)),
        passage,
        passageTerm: passage === undefined ? undefined : passageTerm,
        repairs,
        hallucinated,
        summaryBefore: String(offered.s),
        safeCount: usesCounter ? Number(after.safeCount) : undefined,
        truth: judge ? truth : undefined,
        record,
      };
      turns.push(entry);
      await options.onTurn?.(entry);
    } catch (err) {
      error = describeError(turn, err);
      break;
    }
  }
  return { task: options.task, turns, error, quit, usage: session.usage.total() };
}
