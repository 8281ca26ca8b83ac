/**
 * Adherence of a played game, judged two ways (papers 000/001 Sec. 7):
 *
 * - procedural: the controller's choices against the spec, on the predicate answers the
 *   controller actually saw. Checked by the independent checker (src/verify) as "is the trace
 *   already a bad prefix of the full spec?", plus a replay of every step against the table. A
 *   verified controller always passes; a failure is a bug in tslc, not in the model.
 * - observed: the story as it really went, judged from independent labels (ground truth on the
 *   simulated model), against the guarantees alone — hallucinated passages make it fail.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replay, type ControllerTable } from '../../runtime/index.js';
import { composeGames } from '../../src/codegen/compose.js';
import { loadGame } from '../../src/frontend/load.js';
import type { GameSpec, SpecPart } from '../../src/game/spec.js';
import { checkTraceAgainstSpec, type ControllerStep } from '../../src/verify/index.js';
import type { GameResult, TurnRecord } from './agent.js';
import { CYOA_TASKS, type CyoaTask } from './prompts.js';

/** The checkout's specs/ directory: found upwards from this file (works from sources and dist/). */
export function specsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'specs', 'adventure.tsl'))) return join(dir, 'specs');
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the specs/ directory of the tslc checkout');
    dir = parent;
  }
}

export interface TaskSpecs {
  /** The composed spec, as compiled into the task's controller. */
  readonly full: GameSpec;
  /** The controller's obligations without environment assumptions (initial conditions kept). */
  readonly obligations: GameSpec;
  /** Only the environment assumptions, as obligations: a bad prefix means the LLM broke one. */
  readonly assumptions: GameSpec;
  /** Only the guarantees, for observed adherence on judged labels. */
  readonly guarantees: GameSpec;
}

export async function loadTaskSpecs(task: CyoaTask, dir: string = specsDir()): Promise<TaskSpecs> {
  const games: GameSpec[] = [];
  for (const file of CYOA_TASKS[task].specs) games.push(await loadGame(join(dir, file)));
  const full = composeGames(task, games);
  return {
    full,
    obligations: { ...full, name: `${task} (obligations)`, assumptions: [] },
    assumptions: { ...full, name: `${task} (assumptions)`, preset: [], assumptions: [], guarantees: full.assumptions },
    guarantees: { ...full, name: `${task} (guarantees)`, initially: [], assumptions: [] },
  };
}

export interface AdherenceVerdict {
  readonly ok: boolean;
  /** The turn after which the trace could no longer satisfy the spec. */
  readonly failedAtTurn?: number;
  readonly reason?: string;
  /** Procedural: turns checked (those before the LLM first broke an environment assumption). */
  readonly checkedTurns?: number;
  /** Procedural: the environment assumption the LLM's answers broke, which ended the check. */
  readonly brokenAssumption?: BrokenAssumption;
}

export interface BrokenAssumption {
  /** The turn (0-based) after which no continuation could satisfy the assumptions any more. */
  readonly turn: number;
  /** The assumption that was broken, when one alone is (else the assumptions only together). */
  readonly part?: SpecPart;
}

function steps(turns: readonly TurnRecord[], inputsOf: (t: TurnRecord) => Readonly<Record<string, boolean>>): ControllerStep[] {
  return turns.map((t) => ({ state: t.stateBefore, inputs: { ...inputsOf(t) }, outputs: { ...t.outputs } }));
}

/**
 * Procedural adherence: replay every step against the table, then check the controller's
 * obligations on the answers it saw. A finite trace is never a bad prefix of "assumptions →
 * guarantees" (the environment could still break an assumption later), so the guarantees are
 * checked on their own — over the turns before the LLM first broke an assumption (e.g. a
 * hallucinated `toCave` passage that is not in a cave), after which the spec promises nothing.
 */
export function checkProcedural(specs: TaskSpecs, table: ControllerTable, game: GameResult): AdherenceVerdict {
  const replayed = replay(table, game.turns.map((t) => t.record));
  if (!replayed.ok) {
    const first = replayed.mismatches[0];
    return { ok: false, failedAtTurn: first?.step, reason: `replay: ${first?.message ?? 'mismatch'}`, checkedTurns: 0 };
  }
  const trace = steps(game.turns, (t) => t.inputs);
  const broken = checkTraceAgainstSpec(specs.assumptions, trace);
  const checked = broken.badPrefix ? trace.slice(0, broken.step) : trace;
  const brokenAssumption = broken.badPrefix && broken.step !== undefined ? { turn: broken.step, part: firstBroken(specs, trace, broken.step) } : undefined;
  const verdict = checkTraceAgainstSpec(specs.obligations, checked);
  return verdict.badPrefix
    ? { ok: false, failedAtTurn: verdict.step, reason: 'the controller’s choices violate the spec on the answers it saw', checkedTurns: checked.length }
    : { ok: true, checkedTurns: checked.length, ...(brokenAssumption ? { brokenAssumption } : {}) };
}

/** The single assumption already broken at `step`, so a report can name it (undefined when none alone is). */
function firstBroken(specs: TaskSpecs, trace: readonly ControllerStep[], step: number): SpecPart | undefined {
  const upTo = trace.slice(0, step + 1);
  return specs.full.assumptions.find((part) => checkTraceAgainstSpec({ ...specs.assumptions, guarantees: [part] }, upTo).badPrefix);
}

/** Observed adherence: the guarantees on the judge's labels. Needs a game played with a judge. */
export function checkObserved(guarantees: GameSpec, game: GameResult): AdherenceVerdict {
  if (game.turns.some((t) => t.truth === undefined)) return { ok: false, reason: 'no ground-truth labels were recorded' };
  const verdict = checkTraceAgainstSpec(guarantees, steps(game.turns, (t) => t.truth ?? {}));
  return verdict.badPrefix ? { ok: false, failedAtTurn: verdict.step, reason: 'a guarantee fails on the judged story' } : { ok: true };
}

/**
 * Arithmetic errors of the `safeCount` cell (papers' Table 2): turns where the counter's new value
 * is not its old value plus the increments decided that turn. The TSL agent computes
 * `safeCount + 1` in TypeScript, so this stays 0 unless the runtime is broken; a prompt-only agent
 * has to do the counting in text and gets it wrong.
 */
export function countingErrors(game: GameResult): number {
  let count = 0;
  let errors = 0;
  for (const t of game.turns) {
    if (t.safeCount === undefined) return 0;
    if (t.chosen.some((u) => /^\[safeCount <- /.test(u))) count += 1;
    if (t.safeCount !== count) errors += 1;
    count = t.safeCount;
  }
  return errors;
}
