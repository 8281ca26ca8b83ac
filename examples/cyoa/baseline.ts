/**
 * The papers' prompt-only baseline (000/001 Sec. 7, "pure-LLM agent"): no controller. Each turn the
 * LLM gets the task's rules in natural language (prompts.ts `baselineTemplate`), the story summary
 * and the player's choice, and writes the next passage itself; for the counting tasks it must also
 * print `safeCount=x`.
 *
 * Adherence is observed only (there are no controller choices to check procedurally): an
 * independent judge labels every passage with the location predicates, and `baselineTrace` turns
 * the game into the same propositions the TSL agent's trace uses — the story's labels before the
 * turn as inputs, the judged location of the new passage and the printed counter as the "updates" —
 * so that the very guarantees the TSL agent is held to decide whether the game violates.
 */
import { type ControllerTable, theoryFunction } from '../../runtime/index.js';
import { isLlmError, type LlmSession, type StepUsage } from '../../runtime/llm/index.js';
import type { ControllerStep } from '../../src/verify/index.js';
import { checkTraceAgainstSpec } from '../../src/verify/index.js';
import type { GameSpec } from '../../src/game/spec.js';
import type { GameError, Judge, Player } from './agent.js';
import { repairPredicateOf } from './agent.js';
import type { AdherenceVerdict } from './adherence.js';
import type { PlayerMove } from './player.js';
import { baselineTemplate, CYOA_PREDICATES, CYOA_SUMMARY, type CyoaTask, parseBaselineSafeCount } from './prompts.js';

export interface BaselineTurn {
  readonly turn: number;
  readonly move: PlayerMove;
  readonly passage: string;
  /** The `safeCount=x` the model printed; undefined when it printed none. */
  readonly reportedSafeCount?: number;
  /** The judge's labels of this passage (`inCave`, `inTown`, …). */
  readonly labels: Readonly<Record<string, boolean>>;
}

export interface BaselineGameResult {
  readonly task: CyoaTask;
  readonly turns: readonly BaselineTurn[];
  readonly error?: GameError;
  readonly usage: StepUsage;
}

export interface BaselineOptions {
  readonly task: CyoaTask;
  /** The task's controller table: only its proposition names are used, never its decisions. */
  readonly table: ControllerTable;
  readonly session: LlmSession;
  readonly player: Player;
  readonly steps: number;
  /** Independent labels (sim: ground truth; real providers: a separate judge). Required. */
  readonly judge: Judge;
}

/** Whether the task counts safe choices (its table has a `safeCount` cell). */
function usesCounter(table: ControllerTable): boolean {
  return table.signals.some((s) => s.name === 'safeCount');
}

/**
 * The location predicates the judge must label on each passage: those the spec asks about the
 * story, and those that tell which `toX` update a passage amounts to (`toForest` → `inForest`).
 */
export function judgedPredicates(table: ControllerTable): string[] {
  const names = new Set<string>();
  for (const p of table.predicates) if (p.signal === undefined && Object.hasOwn(CYOA_PREDICATES, p.fn)) names.add(p.fn);
  for (const u of table.updates) {
    const check = u.term.kind === 'call' ? repairPredicateOf(u.term.fn) : undefined;
    if (check) names.add(check);
  }
  return [...names].sort();
}

function describeError(turn: number, err: unknown): GameError {
  const cause = isLlmError(err) ? err : err instanceof Error && isLlmError(err.cause) ? err.cause : undefined;
  if (cause) return { turn, kind: cause.kind, message: cause.message };
  return { turn, kind: 'error', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Plays one prompt-only game. The model's own view of the state for the stateful prompts (tasks 3
 * and 4) is what it could know without a controller: its last printed count, and whether the
 * player is in a town as answered by its *evaluator* (the session's predicate, not the judge), so
 * the judge stays independent of the game it judges.
 */
export async function playBaselineGame(options: BaselineOptions): Promise<BaselineGameResult> {
  const { session, player, judge, table } = options;
  const write = session.generator(baselineTemplate(options.task));
  const summarize = session.summarizer(CYOA_SUMMARY);
  const counting = usesCounter(table);
  const evaluateInTown = counting ? session.predicate(CYOA_PREDICATES.inTown) : undefined;
  const predicates = judgedPredicates(table);
  const turns: BaselineTurn[] = [];
  let summary = '';
  let lastPassage: string | undefined;
  let count = 0;
  let error: GameError | undefined;
  for (let turn = 0; turn < options.steps; turn++) {
    const move = await player.choose(turn, lastPassage);
    if (!move) break;
    try {
      session.context.begin(turn, { playerChoice: move.text, safeCount: count, lastChoiceSafe: move.safe, inTown: false });
      if (evaluateInTown && lastPassage !== undefined) {
        const inTown = await evaluateInTown(lastPassage);
        session.context.begin(turn, { playerChoice: move.text, safeCount: count, lastChoiceSafe: move.safe, inTown });
      }
      const passage = await write(summary);
      const labels: Record<string, boolean> = {};
      for (const name of predicates) labels[name] = (await judge(name, passage)) === true;
      const reported = counting ? parseBaselineSafeCount(passage) : undefined;
      summary = await summarize(summary, passage);
      lastPassage = passage;
      if (reported !== undefined) count = reported;
      turns.push({ turn, move, passage, reportedSafeCount: reported, labels });
    } catch (err) {
      error = describeError(turn, err);
      break;
    }
  }
  return { task: options.task, turns, error, usage: session.usage.total() };
}

/**
 * The judged trace of a prompt-only game, in the propositions of the task's spec:
 *  - inputs at turn t: the judge's labels of the story before the turn (the latest passage; all
 *    false before the first), the player's `safe`, and the counter's comparisons (`safeCount >= 3`,
 *    `safeCount = 0`, #LIA) evaluated on the model's count;
 *  - outputs at turn t: `[storyPassage <- toX s]` for each location X the judge finds in the new
 *    passage (the self-update when it finds none), and `[safeCount <- safeCount + 1]` /
 *    `[safeCount <- safeCount]` when the printed count went up by one / stayed (neither when it
 *    jumped or is missing, which the counter's exactly-one constraint then reports).
 */
export function baselineTrace(table: ControllerTable, turns: readonly BaselineTurn[]): ControllerStep[] {
  const steps: ControllerStep[] = [];
  let before: Readonly<Record<string, boolean>> = {};
  let count = 0;
  for (const t of turns) {
    const inputs: Record<string, boolean> = {};
    for (const p of table.predicates) {
      const computed = p.signal === undefined ? theoryFunction(table.theory, p.fn) : undefined;
      if (p.signal === 'safe') inputs[p.proposition] = t.move.safe;
      else if (p.signal !== undefined) inputs[p.proposition] = false;
      else if (computed)
      {
        const [a, b] = p.args.map((x) => (x.kind === 'signal' && x.name === 'safeCount' ? count : x.kind === 'literal' ? x.value : undefined));
        inputs[p.proposition] = computed(a, b) === true;
      }
      else inputs[p.proposition] = before[p.fn] === true;
    }
    const reported = t.reportedSafeCount;
    const anyLocation = table.updates.some(
      (u) => u.signal === 'storyPassage' && u.term.kind === 'call' && t.labels[repairPredicateOf(u.term.fn) ?? ''] === true,
    );
    const outputs: Record<string, boolean> = {};
    for (const u of table.updates) {
      if (u.signal === 'safeCount') {
        outputs[u.proposition] = u.isSelfUpdate ? reported === count : u.term.kind === 'call' && u.term.fn === 'add' && reported === count + 1;
      } else if (u.isSelfUpdate) {
        outputs[u.proposition] = !anyLocation;
      } else {
        const check = u.term.kind === 'call' ? repairPredicateOf(u.term.fn) : undefined;
        outputs[u.proposition] = check !== undefined && t.labels[check] === true;
      }
    }
    steps.push({ state: 0, inputs, outputs });
    before = t.labels;
    if (reported !== undefined) count = reported;
  }
  return steps;
}

/**
 * The guarantees a prompt-only game is judged against: the task's guarantees, without the
 * "exactly one passage update per turn" constraint of `storyPassage` (a free-text passage may be
 * judged at no location or at several; only the rules about locations matter). The counter keeps
 * its constraint: a count that jumps or is missing is an error.
 */
export function baselineGuarantees(guarantees: GameSpec): GameSpec {
  return { ...guarantees, name: `${guarantees.name} (prompt-only)`, signals: guarantees.signals.filter((g) => g.signal !== 'storyPassage') };
}

/** Observed adherence of a prompt-only game: `spec` from `baselineGuarantees`. */
export function checkBaselineObserved(spec: GameSpec, table: ControllerTable, game: BaselineGameResult): AdherenceVerdict {
  const verdict = checkTraceAgainstSpec(spec, baselineTrace(table, game.turns));
  return verdict.badPrefix ? { ok: false, failedAtTurn: verdict.step, reason: 'a guarantee fails on the judged story' } : { ok: true };
}

/**
 * Arithmetic errors (papers' Table 2, choices.tsl): turns where the printed count is not the old
 * count plus one exactly when the player made a safe choice in a town (per the judge), or is missing.
 */
export function baselineCountingErrors(table: ControllerTable, turns: readonly BaselineTurn[]): number {
  if (!usesCounter(table)) return 0;
  let errors = 0;
  let count = 0;
  let inTown = false;
  for (const t of turns) {
    const expected = count + (t.move.safe && inTown ? 1 : 0);
    if (t.reportedSafeCount !== expected) errors += 1;
    if (t.reportedSafeCount !== undefined) count = t.reportedSafeCount;
    inTown = t.labels.inTown === true;
  }
  return errors;
}
