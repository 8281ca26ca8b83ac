/**
 * src/synthesis — our own reactive synthesis engine (pure TypeScript).
 *
 * Owns realizability checking and controller synthesis for a `GameSpec`: bounded synthesis as
 * K-bounded counting safety games (game.ts) over universal co-Büchi automata (ucw.ts), with moves
 * enumerated per TSL signal and inputs split symbolically (split.ts). The primal game (controller
 * vs. automaton of ¬φ) and the dual game (environment vs. automaton of φ) are interleaved with a
 * growing bound K, so one run answers both "realizable" and "unrealizable". Independent parts of
 * a spec (disjoint outputs) are solved separately (decompose.ts). Strategies come out of the
 * solved games (extract.ts); every controller passes the independent checker before it is returned.
 */
import { BddManager } from '../automata/bdd.js';
import { TimeoutError, translateLtlSymbolic } from '../automata/translate.js';
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { MealyMachine } from '../game/mealy.js';
import { exactlyOne, type GameSpec, inputNames, outputNames, type SpecPart } from '../game/spec.js';
import { and, atoms, conjuncts, FALSE, type Formula, G, implies, isPropositional, not, TRUE } from '../ltl/formula.js';
import { fixesOutputsOf, verifyController, verifyCounterstrategy } from '../verify/index.js';
import { DEFAULT_EXACT_BUDGET, exactMinimize } from './exact-minimize.js';
import { ControllerTooLarge, decompose, productOfControllers, widenCounterstrategy } from './decompose.js';
import {
  extractAttractorCounterstrategy,
  extractDualCounterstrategy,
  extractDualMooreCounterstrategy,
  extractMealyController,
  extractMooreController,
  minimizeMealy,
} from './extract.js';
import { type Mover, MoveTable, type SolvedGame, solveBounded, Timeout } from './game.js';
import { solveOnTheFly } from './otf.js';
import { satisfyingLasso } from '../automata/lasso-witness.js';
import { solveByParityGame } from './parity-route.js';
import { progressOracle } from './progress.js';
import { type FixedPropositions, fixSinglePolarity, liftController, liftCounterstrategy } from './polarity.js';
import { actWhileWaiting, type GuaranteeAutomaton, hasEventuality } from './waiting.js';
import { dict } from '../../runtime/dict.js';
import { completeCube, type Dimension, dimensionsFor } from './split.js';
import { type Ucw, ucwFromTgba } from './ucw.js';
import { nowMs } from '../diagnostics/clock.js';

export interface SynthesisOptions {
  /** Wall-clock budget; the answer is `unknown` when it runs out. Default 60 s. */
  readonly timeoutMs?: number;
  readonly onProgress?: (msg: string) => void;
  /**
   * Minimization after extraction. Default: bisimulation, then exact SAT-based minimization
   * when the controller is small (≤ 20 states, deterministic budget). 'exact' raises the budget
   * (≤ 40 states); 'bisim' skips the SAT step.
   */
  readonly minimize?: 'bisim' | 'exact';
  /** Largest bound K to try (default 40). */
  readonly maxK?: number;
  /** Largest number of game positions per game (default 400 000). */
  readonly nodeCap?: number;
  /** Which games to play (default both); one side alone answers only one way (for testing). */
  readonly games?: 'both' | 'primal' | 'dual';
  /**
   * Fix the propositions that occur with one polarity only before solving (default true; see
   * polarity.ts). False solves the spec as written (for comparisons and tests).
   */
  readonly polarity?: boolean;
  /** Solve independent parts separately (default true). */
  readonly decompose?: boolean;
  /**
   * Give up after this many milliseconds with `unknown` (reason `STOPPED_EARLY`) although
   * `timeoutMs` is not used up. Time slices stay shares of the whole `timeoutMs`, so a run stopped
   * early has done exactly what a full run would have done by then. `tslc check` uses it to try a
   * spec in its own thread first and move one that needs longer to an isolated worker.
   */
  readonly stopAfterMs?: number;
  /**
   * Called at each of the solver's clock polls (every few hundred steps, also during
   * translations); returning true stops the run as `stopAfterMs` does (`unknown`, reason
   * `STOPPED_EARLY`). `tslc check` uses it to move a run whose heap grows large to an isolated
   * worker and to turn V8's optimizing compiler on once a run takes long (src/synthesis/isolated.ts).
   */
  readonly onPoll?: () => boolean | void;
  /**
   * When contradictory assumptions and failing environment-only guarantees are looked for: once
   * solving has taken this many milliseconds (default DEFERRED_CHECKS_MS = 100; 0 = before any
   * game). Specs solved sooner never need them.
   */
  readonly checksAfterMs?: number;
  /**
   * Work budget for solving a won game again completely before extracting its strategy (see
   * `forExtraction`; default EXTRACTION_WORK). 0 extracts from the on-the-fly game (for testing).
   */
  readonly extractionWork?: number;
  /**
   * Which solver: 'parity' (a parity game on the product of deterministic components, for any
   * LTL spec within the Master Theorem's guess limits, else `unknown`), 'bounded' (bounded
   * synthesis, K-bounded safety games), or 'auto' (default: parity first where the spec is in
   * its fragment without the Master Theorem, see `solveSpec`).
   */
  readonly route?: 'auto' | 'parity' | 'bounded';
}

export interface SynthesisStats {
  /** The bound at which the deciding game was won (the largest over parts). */
  readonly K: number;
  readonly automatonStates: number;
  readonly dualAutomatonStates?: number;
  readonly gamePositions: number;
  readonly unminimizedStates?: number;
  /** Number of independent parts solved separately. */
  readonly parts?: number;
  /** 'parity' when the parity-game route decided the spec (or one of its parts), else absent. */
  readonly route?: 'parity' | 'bounded';
}

export type SynthesisResult =
  | { verdict: 'realizable'; controller: MealyMachine; seconds: number; stats: SynthesisStats }
  | { verdict: 'unrealizable'; counterstrategy: Counterstrategy; seconds: number; stats: SynthesisStats }
  | { verdict: 'unknown'; reason: 'timeout' | string; seconds: number };

export type CheckResult =
  | { verdict: 'realizable' | 'unrealizable'; seconds: number; stats: SynthesisStats }
  | { verdict: 'unknown'; reason: 'timeout' | string; seconds: number };

/** The `unknown` reason when `stopAfterMs` ran out before `timeoutMs` did. */
export const STOPPED_EARLY = 'stopped early';

/** Thrown by the budget's tick when `stopAfterMs` has passed (never caught below `run`). */
class StoppedEarly extends Error {}

/**
 * Solving time after which contradictory assumptions and environment-only guarantees are
 * checked (`withoutVacuousAssumptions`, `probeEnvironmentGuarantees`). Below it a spec is simply
 * solved: both checks only pay off on specs that take long, and the answer never depends on them.
 */
const DEFERRED_CHECKS_MS = 100;

/**
 * Solving time after which the parity route's verdict is checked beside the bounded engine
 * building a TSL controller (`parityVerdict`), and the environment-only guarantees after it.
 * Later than the other checks: for a realizable spec the verdict only saves the dual game, and
 * where that takes a few hundred milliseconds the route costs about as much (KitchenTimerV7–V9).
 */
const PARITY_CHECK_AFTER_MS = 300;

/**
 * Thrown from the budget's tick when a deferred check settled the spec (caught in `run`): with
 * the outcome, or with the spec to solve instead (its assumptions contradict each other).
 */
class DeferredVerdict extends Error {
  constructor(readonly settled: { readonly outcome?: GameOutcome; readonly spec?: GameSpec }) {
    super('settled by a deferred check');
  }
}

/** The `unknown` reason when the spec is realizable but its controller exceeds the size cap. */
export const CONTROLLER_TOO_LARGE = 'realizable, but the controller is too large to build';

/** Thrown when a synthesized controller fails the independent check: a bug in tslc, never output. */
export class InternalSynthesisError extends Error {}

export function synthesize(spec: GameSpec, options: SynthesisOptions = {}): SynthesisResult {
  return run(spec, options, { controller: true, counterstrategy: true }) as SynthesisResult;
}

/** Realizability only: no controller extraction, minimization or model check. */
export function checkRealizability(spec: GameSpec, options: SynthesisOptions = {}): CheckResult {
  return run(spec, options, { controller: false, counterstrategy: false }) as CheckResult;
}

export type ControllerResult =
  | { verdict: 'realizable'; controller: MealyMachine; seconds: number; stats: SynthesisStats }
  | { verdict: 'unrealizable'; seconds: number; stats: SynthesisStats }
  | { verdict: 'unknown'; reason: 'timeout' | string; seconds: number };

/**
 * A verified controller when the spec is realizable, the bare verdict otherwise (`tslc check`
 * reports controller states): a part of a spec can prove unrealizability long before a
 * counterstrategy for the whole spec is found.
 */
export function synthesizeController(spec: GameSpec, options: SynthesisOptions = {}): ControllerResult {
  return run(spec, options, { controller: true, counterstrategy: false }) as ControllerResult;
}

/** What the caller needs beyond the verdict. */
interface Wanted {
  readonly controller: boolean;
  readonly counterstrategy: boolean;
}

/** Internal per-game outcome (controllers unminimized and unverified). */
type GameOutcome =
  | { verdict: 'realizable'; controller?: MealyMachine; stats: SynthesisStats }
  | { verdict: 'unrealizable'; counterstrategy?: Counterstrategy; stats: SynthesisStats }
  | { verdict: 'unknown'; reason: string };

interface Budget {
  readonly started: number;
  readonly deadline: number;
  readonly tick: () => void;
  /**
   * The tick without the deferred checks, for the parity route: it plays the whole spec at once,
   * so it sees contradictory assumptions and failing environment-only guarantees itself, and the
   * checks (which only help the bounded engine's per-guarantee games) would take its time
   * (patrolling-alarm14: 4.8 s of probes in a 5 s slice; the route alone decides it in 0.25 s).
   */
  readonly clock: () => void;
  /**
   * Milliseconds the deferred checks have taken so far: a probe that lets them run from inside
   * its own tick leaves their time out of its slice (see `probeDual`).
   */
  readonly deferredMs: () => number;
  readonly progress: (msg: string) => void;
  /**
   * A spec the deferred parity check found realizable, with that route's (unminimized) controller:
   * its bounded game plays no dual, and the controller answers if the bounded engine does not.
   */
  realizable?: { readonly spec: GameSpec; readonly outcome: GameOutcome };
  /** The decomposed parts being solved whose realizability follows from the whole spec's (`conclusive`). */
  readonly conclusiveParts: WeakMap<GameSpec, GameSpec>;
  /**
   * The games' automata by the formula translated (its id), for the run: a probe of an
   * environment-only guarantee plays a part of the spec, and its automaton is one of the main
   * game's (LightsTotal_2c5b09da: 72 and 79 of 413 states, built twice before). A translation's
   * result depends on the formula alone (the tableau-or-product choice reads no clock), so one
   * made under another time slice is the same automaton.
   */
  readonly automata: Map<number, Ucw>;
}

/** Whether `spec`, or the spec it is a conclusive part of, is known to be realizable. */
function knownRealizable(spec: GameSpec, budget: Budget): boolean {
  const whole = budget.realizable?.spec;
  return whole !== undefined && (whole === spec || budget.conclusiveParts.get(spec) === whole);
}

function run(spec: GameSpec, options: SynthesisOptions, want: Wanted): SynthesisResult | CheckResult | ControllerResult {
  const started = nowMs();
  const seconds = () => (nowMs() - started) / 1000;
  const deadline = started + (options.timeoutMs ?? 60_000);
  const stopAt = options.stopAfterMs === undefined ? Infinity : started + options.stopAfterMs;
  let ticks = 0;
  // The up-front checks, run from inside the solve once it has taken DEFERRED_CHECKS_MS (see below).
  let deferred: Array<{ readonly at: number; readonly run: () => void }> = [];
  const poll = (checks: boolean) => {
    if ((++ticks & 255) !== 0) return;
    const now = nowMs();
    if (now > deadline) throw new Timeout();
    if (now > stopAt || options.onPoll?.() === true) throw new StoppedEarly();
    if (checks && !inDeferred && deferred.length > 0 && now > deferred[0].at) runDeferred();
  };
  const tick = () => poll(true);
  // A check polls this same tick, and plays games of its own: the next check waits until it is
  // over rather than running inside it, where it took the first one's time slice (FelixSpecFixed2
  // with a controller: the parity check and its probes ran inside the vacuity check, whose slice
  // then ran out before it found the assumptions contradictory; 10 s, unknown).
  let inDeferred = false;
  let deferredMs = 0;
  const runDeferred = () => {
    // Taken off the list first.
    const checks = deferred.shift();
    if (!checks) return;
    const began = nowMs();
    inDeferred = true;
    try {
      checks.run();
    } finally {
      inDeferred = false;
      deferredMs += nowMs() - began;
    }
  };
  const budget: Budget = {
    started,
    deadline,
    tick,
    clock: () => poll(false),
    deferredMs: () => deferredMs,
    progress: options.onProgress ?? (() => {}),
    conclusiveParts: new WeakMap(),
    automata: new Map(),
  };
  const declared = new Set([...inputNames(spec), ...outputNames(spec)]);
  for (const part of [...spec.initially, ...spec.preset, ...spec.assumptions, ...spec.guarantees])
    for (const name of atoms(part.formula))
      if (!declared.has(name)) throw new Error(`proposition '${name}' is neither an input nor an output`);

  try {
    // Propositions of one polarity are fixed first (polarity.ts: realizability is unchanged); the
    // witnesses are lifted back below and checked against the original spec like any other. Not
    // for a TSL controller: one for the fixed spec acts as if every fixed predicate always had its
    // worst value (an update every turn where the spec asks for one only when a predicate holds).
    // There only the dual game, which can only prove unrealizability, plays the fixed spec
    // (`solveGame`).
    const asWritten = withImplicationLifted(spec);
    const tslController = want.controller && asWritten.signals.length > 0;
    const fixing = options.polarity === false || tslController ? undefined : fixSinglePolarity(asWritten);
    if (fixing) budget.progress(`fixed ${describeFixed(fixing.fixed)}`);
    const lifted = fixing?.spec ?? asWritten;
    // Contradictory assumptions and environment-only guarantees that fail are checked up front
    // only for specs that are not solved at once: on a spec solved in tens of milliseconds the two
    // checks were a tenth of the time and never changed the answer. They run from inside the solve
    // (its tick), which goes on undisturbed unless one of them settles the spec.
    const checksAt = started + (options.checksAfterMs ?? DEFERRED_CHECKS_MS);
    const bothGames = options.games === undefined || options.games === 'both';
    // The parity route's verdict (`parityVerdict`) where the bounded engine builds a TSL controller.
    const parityCheck = bothGames && (options.route ?? 'auto') === 'auto' && want.controller && lifted.signals.length > 0;
    const probe = () => {
      // The probes can only prove unrealizability.
      const probed = bothGames && !budget.realizable ? probeEnvironmentGuarantees(lifted, options, want, budget) : undefined;
      if (probed) throw new DeferredVerdict({ outcome: probed });
    };
    deferred = [
      {
        at: Math.min(checksAt, deadline),
        run: () => {
          const devoid = withoutVacuousAssumptions(lifted, budget);
          if (devoid !== lifted) throw new DeferredVerdict({ spec: devoid });
          if (!parityCheck) probe();
        },
      },
    ];
    if (parityCheck)
      deferred.push({
        at: Math.min(checksAt + (options.checksAfterMs === 0 ? 0 : PARITY_CHECK_AFTER_MS - DEFERRED_CHECKS_MS), deadline),
        run: () => {
          const verdict = parityVerdict(lifted, want, budget);
          if (verdict?.verdict === 'unrealizable') throw new DeferredVerdict({ outcome: verdict });
          if (verdict?.verdict === 'realizable') budget.realizable = { spec: lifted, outcome: verdict };
          probe();
        },
      });
    let outcome: GameOutcome;
    try {
      if (options.checksAfterMs === 0) while (deferred.length > 0) runDeferred();
      outcome = solveDecomposed(lifted, options, want, budget);
    } catch (err) {
      if (!(err instanceof DeferredVerdict)) throw err;
      // The contradiction case starts over on the spec without its assumptions (vacuously
      // realizable: the checks of the original are moot).
      deferred = [];
      outcome = err.settled.outcome ?? solveDecomposed(err.settled.spec!, options, want, budget);
    }
    // A part the bounded engine did not finish, of a spec the parity route found realizable: its
    // controller (checked below like any other).
    if (outcome.verdict === 'unknown' && budget.realizable?.spec === lifted && nowMs() < deadline) outcome = budget.realizable.outcome;
    if (fixing) outcome = liftOutcome(outcome, spec, fixing.fixed);
    if (outcome.verdict === 'unknown') return { verdict: 'unknown', reason: outcome.reason, seconds: seconds() };
    if (outcome.verdict === 'unrealizable') {
      if (!want.counterstrategy) return { verdict: 'unrealizable', seconds: seconds(), stats: outcome.stats };
      const counterstrategy = outcome.counterstrategy!;
      // Every counterstrategy that leaves here has passed the independent check, as every
      // controller has: extraction had bugs that the verdicts did not (generated specs, see
      // docs/conformance.md). The parity route's were checked where they were made, unless they
      // were made for the spec with propositions fixed.
      if (outcome.stats.route !== 'parity' || fixing) {
        const checked = verifyCounterstrategy(spec, counterstrategy, { poll: budget.clock });
        if (!checked.ok)
          throw new InternalSynthesisError(`synthesized counterstrategy failed independent verification (${checked.kind}): ${checked.message}`);
      }
      return { verdict: 'unrealizable', counterstrategy, seconds: seconds(), stats: outcome.stats };
    }
    if (!want.controller) return { verdict: 'realizable', seconds: seconds(), stats: outcome.stats };
    const raw = outcome.controller!;
    // The checks keep to the run's deadline (a check that runs out answers `unknown`, in time).
    const minimized = minimizeController(spec, raw, options.minimize, true, budget.clock);
    // Outputs a parity-route move left free helped minimization merge states; the controller the
    // caller gets fixes every output (booleans false, signals their preferred update: where an
    // INITIALLY part keeps the route from enforcing one-hot signals it may leave them open), and
    // is then checked as it is. The bounded engine's controllers are passed on unchanged.
    const controller = outcome.stats.route === 'parity' ? withCompleteOutputs(minimized.controller, spec) : minimized.controller;
    // A machine checked with outputs left free passed for every way of fixing them, so fixing
    // them needs no second check, only the (independent) test that nothing else changed.
    const verified = minimized.verified && (controller === minimized.controller || fixesOutputsOf(spec, minimized.controller, controller));
    // Every controller that leaves here has passed the independent check against the whole spec.
    if (!verified) budget.progress(`independent check of the controller (${controller.stateCount} states)`);
    const verdict = verified ? undefined : verifyController(spec, controller, { poll: budget.clock });
    if (verdict && !verdict.ok && outcome.stats.route === 'parity' && options.route === undefined) {
      // A bug in the parity route, caught by the check: never a verdict, and not the user's
      // problem either: the bounded engine solves the spec with the time that is left.
      budget.progress(`parity route: its controller failed the independent check (${verdict.kind}); solving with the bounded engine`);
      const rest = run(spec, { ...options, route: 'bounded', timeoutMs: Math.max(1, deadline - nowMs()) }, want);
      return { ...rest, seconds: seconds() };
    }
    if (verdict && !verdict.ok)
      throw new InternalSynthesisError(
        `synthesized controller failed independent verification (${verdict.kind}): ${verdict.message}`,
      );
    return {
      verdict: 'realizable',
      controller,
      seconds: seconds(),
      stats: { ...outcome.stats, unminimizedStates: raw.stateCount },
    };
  } catch (err) {
    if (err instanceof Timeout || err instanceof TimeoutError) return { verdict: 'unknown', reason: 'timeout', seconds: seconds() };
    if (err instanceof StoppedEarly) return { verdict: 'unknown', reason: STOPPED_EARLY, seconds: seconds() };
    if (err instanceof ControllerTooLarge) return { verdict: 'unknown', reason: CONTROLLER_TOO_LARGE, seconds: seconds() };
    // The automata and the checks walk formulas recursively: thousands of nested operators (a
    // TLSF `X[3000] p`) exhaust the stack somewhere below. The walk was only reading the spec, so
    // the solver answers `unknown` instead of an internal error.
    if (err instanceof RangeError && /call stack/i.test(err.message)) return { verdict: 'unknown', reason: NESTED_TOO_DEEPLY, seconds: seconds() };
    throw err;
  }
}

/** An outcome for the spec with propositions fixed, as one for the original spec. */
function liftOutcome(outcome: GameOutcome, original: GameSpec, fixed: FixedPropositions): GameOutcome {
  if (outcome.verdict === 'realizable' && outcome.controller) return { ...outcome, controller: liftController(outcome.controller, original, fixed) };
  if (outcome.verdict === 'unrealizable' && outcome.counterstrategy)
    return { ...outcome, counterstrategy: liftCounterstrategy(outcome.counterstrategy, original, fixed) };
  return outcome;
}

function describeFixed(fixed: FixedPropositions): string {
  const list = (m: ReadonlyMap<string, boolean>) => [...m].map(([name, v]) => `${name}=${v}`).join(', ');
  const parts = [fixed.inputs.size > 0 ? `inputs ${list(fixed.inputs)}` : '', fixed.outputs.size > 0 ? `outputs ${list(fixed.outputs)}` : ''];
  return `${fixed.inputs.size + fixed.outputs.size} propositions of one polarity: ${parts.filter(Boolean).join('; ')}`;
}

/** The `unknown` reason when the formulas are nested too deeply for the recursive algorithms. */
export const NESTED_TOO_DEEPLY = 'formula nested too deeply for the solver';

/** The machine with every output cube complete (see `run`); the same object if it is already. */
function withCompleteOutputs(m: MealyMachine, spec: GameSpec): MealyMachine {
  const outputs = outputNames(spec);
  if (m.transitions.every((t) => outputs.every((o) => Object.hasOwn(t.output, o)))) return m;
  const dims = dimensionsFor(outputs, spec.signals);
  const complete = (cube: MealyMachine['transitions'][number]['output']) => {
    const out: Record<string, boolean> = completeCube(cube, dims);
    // A signal the cube fixes only partly: the updates it leaves open are off.
    for (const o of outputs) if (!Object.hasOwn(out, o)) out[o] = false;
    return out;
  };
  return { ...m, transitions: m.transitions.map((t) => ({ ...t, output: complete(t.output) })) };
}

/**
 * Bisimulation, then (unless disabled) exact minimization within a deterministic budget. The
 * exact result is kept only when it is smaller and passes the independent check; `verified` says
 * whether the returned machine has passed it already (the caller checks it otherwise).
 */
function minimizeController(
  spec: GameSpec,
  raw: MealyMachine,
  mode: SynthesisOptions['minimize'],
  /** Check the exact result here (else the caller checks whatever it keeps). */
  check = true,
  /** The check's clock poll (it may throw to abandon the check). */
  poll?: () => void,
): { controller: MealyMachine; verified: boolean } {
  // A controller from `realizable` is bisimulation-minimal already, and may have been minimized exactly.
  const bisim = { controller: exactResults.has(raw) ? raw : minimizeMealy(raw), verified: false };
  if (mode === 'bisim') return bisim;
  const exact = exactOf(bisim.controller, mode);
  if (!exact || exact.stateCount >= bisim.controller.stateCount) return bisim;
  if (!check) return { controller: exact, verified: false };
  return verifyController(spec, exact, { poll }).ok ? { controller: exact, verified: true } : bisim;
}

const exactBudget = (mode: SynthesisOptions['minimize']) =>
  mode === 'exact' ? { ...DEFAULT_EXACT_BUDGET, maxStates: 40, maxClauses: 400_000 } : DEFAULT_EXACT_BUDGET;

/**
 * The states a bisimulation-minimal controller will have after `minimizeController` (assuming
 * the exact result passes the check, as it does unless tslc has a bug): for choosing among
 * extractions by the size the user gets.
 */
function minimizedSize(bisim: MealyMachine, mode: SynthesisOptions['minimize']): number {
  if (mode === 'bisim') return bisim.stateCount;
  return Math.min(bisim.stateCount, exactOf(bisim, mode)?.stateCount ?? Infinity);
}

/** Exact minimization results per bisimulation-minimal controller (and mode), computed once. */
const exactResults = new WeakMap<MealyMachine, Map<SynthesisOptions['minimize'], MealyMachine | undefined>>();
function exactOf(bisim: MealyMachine, mode: SynthesisOptions['minimize']): MealyMachine | undefined {
  let byMode = exactResults.get(bisim);
  if (!byMode) exactResults.set(bisim, (byMode = new Map()));
  if (!byMode.has(mode)) byMode.set(mode, exactMinimize(bisim, exactBudget(mode)));
  return byMode.get(mode);
}

/**
 * Many TLSF files (all of the TSL paper's benchmarks) have no ASSUME block and one guarantee
 * `M ∧ (A → G)`. That is exactly PRESET M, ASSUME A, GUARANTEE G; in that form each guarantee
 * conjunct is solved with only the assumptions relevant to it, instead of one automaton for the
 * whole implication.
 */
function withImplicationLifted(spec: GameSpec): GameSpec {
  if (spec.assumptions.length > 0) return spec;
  const parts = spec.guarantees.flatMap((p) => conjuncts(p.formula).map((formula) => ({ ...p, formula })));
  const implications = parts.filter((p) => p.formula.kind === 'implies');
  if (implications.length !== 1) return spec;
  const lifted = implications[0];
  if (lifted.formula.kind !== 'implies') return spec;
  const { left, right } = lifted.formula;
  return {
    ...spec,
    preset: [...spec.preset, ...parts.filter((p) => p !== lifted)],
    assumptions: conjuncts(left).map((formula) => ({ ...lifted, formula })),
    guarantees: conjuncts(right).map((formula) => ({ ...lifted, formula })),
  };
}

/**
 * When the assumptions (with INITIALLY) contradict each other, every guarantee holds vacuously
 * and only the parts outside `A → G` remain. Games built from subsets of the assumptions (the
 * relevant ones per guarantee, the decomposed parts) cannot see the contradiction, so it is
 * checked once up front: one product automaton of all assumptions, within a slice of the budget.
 * The independent check still runs against the original spec.
 */
function withoutVacuousAssumptions(spec: GameSpec, budget: Budget): GameSpec {
  if (spec.assumptions.length === 0) return spec;
  // Satisfiable assumptions with many `X` obligations have exponential automata, so the check
  // gets a small slice: contradictions show up early in the product (Felix*: 10 ms).
  const slice = Math.min(budget.deadline, nowMs() + Math.max(50, Math.min(1000, (budget.deadline - nowMs()) / 20)));
  try {
    // The product finds an empty conjunction fast: once a partial product is empty, the rest are trivial.
    // Only emptiness matters, so the guards stay BDDs (turning them into formulas cost seconds on
    // TwoCountersDisBut*). An empty language comes out as one state without edges.
    const formula = and(conj(spec.initially), conj(spec.assumptions));
    // Satisfiable assumptions (the usual case) are shown so by a word of one or two letters
    // repeated, found with a BDD over the letters, before any automaton is built: the product
    // below cost Lights2_2c5b09da 0.3 s of its 1.1 s and found the assumptions satisfiable.
    const witness = satisfyingLasso(formula, () => new BddManager());
    if (witness) {
      budget.progress(`the assumptions are satisfiable: a word of ${witness.prefix.length + witness.cycle.length} letters (cycle ${witness.cycle.length}) satisfies them`);
      return spec;
    }
    const automaton = translateLtlSymbolic(formula, new BddManager(), { deadline: slice, tick: budget.tick, productOfConjuncts: true });
    if (automaton.edges.some((out) => out.length > 0)) return spec;
  } catch (err) {
    if (err instanceof TimeoutError && nowMs() < budget.deadline) return spec;
    throw err;
  }
  budget.progress('the assumptions contradict each other: every guarantee holds vacuously');
  return { ...spec, assumptions: [{ ...spec.assumptions[0], formula: FALSE }] };
}

/**
 * A guarantee that mentions no output is a claim about the environment alone; if it fails under
 * the assumptions even on its own, the whole spec is unrealizable (a controller for the whole
 * would be one for this part), and the small game says so quickly. Each probe gets a slice of
 * the budget; only an "unrealizable" answer is used.
 */
function probeEnvironmentGuarantees(spec: GameSpec, options: SynthesisOptions, want: Wanted, budget: Budget): GameOutcome | undefined {
  const outputs = new Set(outputNames(spec));
  const all = spec.guarantees.flatMap((p) => conjuncts(p.formula).map((formula) => ({ ...p, formula })));
  if (all.length <= 1) return undefined;
  const probes = all.filter((g) => ![...atoms(g.formula)].some((a) => outputs.has(a)));
  for (const g of probes) {
    const sliceEnd = Math.min(budget.deadline, nowMs() + Math.max(200, (budget.deadline - nowMs()) / 8));
    let ticks = 0;
    const sub: Budget = {
      ...budget,
      deadline: sliceEnd,
      tick: () => {
        budget.tick();
        if ((++ticks & 255) === 0 && nowMs() > sliceEnd) throw new ProbeTimeout();
      },
    };
    try {
      // Only an "unrealizable" answer is used, so a controller for the probe would be thrown away.
      const outcome = solveGame({ ...spec, guarantees: [g] }, { ...options, maxK: Math.min(options.maxK ?? 40, 8) }, { ...want, controller: false }, sub);
      budget.progress(`probe of an environment-only guarantee: ${outcome.verdict}${outcome.verdict === 'unrealizable' ? ` (K=${outcome.stats.K})` : ''}`);
      if (outcome.verdict === 'unrealizable') return outcome;
    } catch (err) {
      // The probe's slice ran out: its own tick, or a translation given the slice as deadline
      // (which used to escape as a timeout of the whole spec when the probe ran early).
      const sliceOver = (err instanceof TimeoutError || err instanceof Timeout) && nowMs() < budget.deadline;
      if (!(err instanceof ProbeTimeout) && !sliceOver) throw err;
    }
  }
  return undefined;
}

class ProbeTimeout extends Error {}

/** A primal game's time slice ran out while the dual game may still answer (see `solveGame`). */
class GameSliceOver extends Error {}

/** The dual side's work stopped: the spec became known to be realizable meanwhile (see `dualTick`). */
class DualMoot extends Error {}

/**
 * The parity route's verdict on a TSL spec whose controller the bounded engine is building (a
 * deferred check, so specs solved quickly never pay for it), within PARITY_VERDICT_SHARE of the
 * time left. An unrealizable verdict comes with a counterstrategy the independent checker has
 * accepted and settles the spec (the controller was wanted only if it is realizable: TwoCounters,
 * OneCounterGui* took the bounded engine seconds). A realizable one spares the bounded engine its
 * dual game; it is not checked here: a wrong one could only cost the dual game's answer (unknown
 * instead of unrealizable), and the route's controller, if it is used, is checked in `run`.
 */
function parityVerdict(spec: GameSpec, want: Wanted, budget: Budget): GameOutcome | undefined {
  const verdict = solveByParity(spec, want, budget, PARITY_VERDICT_SHARE, true);
  budget.progress(`parity route (deferred check): ${typeof verdict === 'string' ? verdict : verdict.verdict}`);
  return typeof verdict === 'string' ? undefined : verdict;
}

function solveDecomposed(spec: GameSpec, options: SynthesisOptions, want: Wanted, budget: Budget): GameOutcome {
  const plan = options.decompose === false ? undefined : decompose(spec, budget.clock);
  if (!plan || plan.parts.length <= 1) return solveSpec(spec, options, want, budget);
  budget.progress(`solving ${plan.parts.length} independent parts`);
  const controllers: MealyMachine[] = [];
  let K = 0;
  let automatonStates = 0;
  let positions = 0;
  let parity = false;
  for (const part of plan.parts) {
    // Unrealizable alone, a conclusive part makes the whole spec unrealizable: so it is realizable when the whole is.
    if (part.conclusive) budget.conclusiveParts.set(part.spec, spec);
    const outcome = solveDecomposed(part.spec, { ...options, decompose: false }, want, budget);
    budget.progress(`part ${part.spec.name}: ${outcome.verdict}`);
    if (outcome.verdict === 'unknown') return outcome;
    if (outcome.verdict === 'unrealizable') {
      if (want.counterstrategy ? part.counterstrategyCarries : part.conclusive) {
        const counterstrategy = outcome.counterstrategy && widenCounterstrategy(outcome.counterstrategy, inputNames(spec), outputNames(spec));
        return { ...outcome, ...(counterstrategy ? { counterstrategy } : {}), stats: { ...outcome.stats, parts: plan.parts.length } };
      }
      // The part may lean on assumptions that other parts own: decide the whole spec instead.
      budget.progress(`part ${part.spec.name} is unrealizable on its own; solving the whole spec`);
      return solveSpec(spec, options, want, budget);
    }
    K = Math.max(K, outcome.stats.K);
    automatonStates += outcome.stats.automatonStates;
    positions += outcome.stats.gamePositions;
    parity ||= outcome.stats.route === 'parity';
    // A parity-route controller leaves outputs free: minimize it while that freedom is there
    // (the product below fixes every output).
    if (outcome.controller)
      controllers.push(outcome.stats.route === 'parity' ? minimizeController(part.spec, outcome.controller, options.minimize, false).controller : outcome.controller);
  }
  const stats: SynthesisStats = { K, automatonStates, gamePositions: positions, parts: plan.parts.length, ...(parity ? { route: 'parity' as const } : {}) };
  if (!want.controller) return { verdict: 'realizable', stats };
  const outputDims = dimensionsFor(outputNames(spec), spec.signals);
  const controller = productOfControllers(inputNames(spec), outputNames(spec), controllers, completeCube(dict(), outputDims), budget.tick);
  return { verdict: 'realizable', controller, stats };
}

/**
 * One (part of a) spec, by the route that suits it. The parity-game route (parity-route.ts) is
 * direct where it applies: no bound K to grow, no nondeterministic automaton to count runs in,
 * and ltlsynt's kind of algorithm (deterministic automaton, parity game, Zielonka). It applies to
 * specs whose conjuncts are Boolean combinations of safety, co-safety, `G` of co-safety and `F`
 * of safety formulas (two thirds of SYNTCOMP's LTL track, most of the corpus). It gets up to
 * PARITY_SHARE of the remaining time (and a cap on its game's size); the bounded engine takes
 * what is left, and everything outside the fragment. Where a TSL spec's controller is wanted, the
 * bounded engine goes first instead: its strategy choice (controllers that act on pending
 * obligations, see docs/synthesis.md) is tuned for the agents' controllers.
 */
function solveSpec(spec: GameSpec, options: SynthesisOptions, want: Wanted, budget: Budget): GameOutcome {
  const route = options.route ?? 'auto';
  // Choosing the primal or the dual game alone (`games`) is a setting of the bounded engine.
  const boundedOnly = route === 'auto' && options.games !== undefined && options.games !== 'both';
  if (route === 'bounded' || boundedOnly) return solveGame(spec, options, want, budget);
  if (route === 'auto' && want.controller && spec.signals.length > 0) {
    const bounded = solveGame(spec, options, want, budget);
    if (bounded.verdict !== 'unknown' || nowMs() > budget.deadline) return bounded;
    if (budget.realizable?.spec === spec) return budget.realizable.outcome;
    const late = solveByParity(spec, want, budget, 1, false, true);
    return typeof late === 'string' ? bounded : late;
  }
  const share = route === 'parity' ? 1 : PARITY_SHARE;
  const parity = solveByParity(spec, want, budget, share, false, route === 'parity');
  if (typeof parity !== 'string') return parity;
  budget.progress(`parity route: ${parity}`);
  if (route === 'parity') return { verdict: 'unknown', reason: `parity route: ${parity}` };
  return solveGame(spec, options, want, budget);
}

/**
 * The parity route's outcome, or why it has none: the spec is outside its fragment, its game is
 * too large, it ran out of its time slice, or the independent checker refused its witness.
 */
function solveByParity(
  spec: GameSpec,
  want: Wanted,
  budget: Budget,
  share: number,
  /**
   * The independent check of the route's witness keeps to the slice too (else only to the whole
   * budget): where the route is a deferred check beside the bounded engine, a counterstrategy
   * whose check takes seconds must not hold that engine up (ModdifiedLedMatrix4X: 4 s).
   */
  checkWithinSlice = false,
  /**
   * Atoms outside the fragment through the Master Theorem. Only where the route is all there is
   * (asked for, or after the bounded engine gave up): on the corpus's TSL-derived specs its games
   * cost more than the bounded engine's (docs/synthesis.md, "General LTL").
   */
  general = false,
): GameOutcome | string {
  const began = nowMs();
  const sliceEnd = share >= 1 ? budget.deadline : Math.min(budget.deadline, began + Math.max(200, (budget.deadline - began) * share));
  let ticks = 0;
  const tick = () => {
    budget.clock();
    if ((++ticks & 255) === 0 && nowMs() > sliceEnd) throw new ProbeTimeout();
  };
  const checkPoll = checkWithinSlice ? tick : budget.clock;
  try {
    // Both witnesses are always built: the route's verdict is only trusted once the independent
    // checker (src/verify) has accepted the witness for it, whatever the caller wants back.
    const r = solveByParityGame(spec, { tick, controller: true, counterstrategy: true, progress: budget.progress, general });
    if (r.verdict === 'unsupported') return r.reason;
    const stats: SynthesisStats = { K: 0, automatonStates: r.stats.positions, gamePositions: r.stats.vertices, route: 'parity' };
    if (r.verdict === 'realizable') {
      if (!r.controller) return 'no controller';
      // A wanted controller is checked in `run` once minimized (or, for a part, as part of the
      // product); a verdict given without one is checked here.
      if (!want.controller) {
        // The bisimulation quotient is checked (it is found in a fraction of the check's time and
        // has about half the states: chain-simple-40's 579 states are 289).
        const checked = verifyController(spec, minimizeMealy(r.controller), { poll: checkPoll });
        // A refused witness is a bug in the route, never a verdict: the bounded engine decides.
        if (!checked.ok) return `controller failed the independent check (${checked.kind}): ${checked.message}`;
      }
      return { verdict: 'realizable', controller: r.controller, stats };
    }
    if (!r.counterstrategy) return 'no counterstrategy';
    // Unrealizable only with a counterstrategy the independent checker has accepted: it answers
    // every output and no play it allows satisfies the spec.
    const checked = verifyCounterstrategy(spec, r.counterstrategy, { poll: checkPoll });
    if (!checked.ok) return `counterstrategy failed the independent check (${checked.kind}): ${checked.message}`;
    return { verdict: 'unrealizable', counterstrategy: r.counterstrategy, stats };
  } catch (err) {
    if (!(err instanceof ProbeTimeout)) throw err;
    if (nowMs() < budget.deadline) return 'did not finish in its time slice';
    // A slice that ends with the whole budget (`route: 'parity'`) is the budget's own timeout,
    // whichever of the two polls saw it first (this one was an internal error).
    throw new Timeout();
  }
}

/** The parity route's share of the remaining time before the bounded engine takes over. */
const PARITY_SHARE = 0.5;
/** Its share as a deferred check beside the bounded engine (`parityVerdict`). */
const PARITY_VERDICT_SHARE = 0.1;

function disjuncts(f: Formula): Formula[] {
  if (f.kind === 'or') return f.args.flatMap(disjuncts);
  if (f.kind === 'implies') return [...disjuncts(not(f.left)), ...disjuncts(f.right)];
  if (f.kind === 'not' && f.arg.kind === 'and') return f.arg.args.flatMap((a) => disjuncts(not(a)));
  if (f.kind === 'false') return [];
  return [f];
}
const conj = (parts: readonly SpecPart[]) => and(...parts.map((p) => p.formula));

/** Disjoint union of automata: a universal automaton for the conjunction of their complements. */
function union(ucws: readonly Ucw[]): Ucw {
  let offset = 0;
  const edges: Ucw['edges'][number][] = [];
  const out: number[][] = [];
  const initial: number[] = [];
  let terminal = true;
  for (const u of ucws) {
    for (const q of u.initial) initial.push(q + offset);
    for (let q = 0; q < u.stateCount; q++) out.push(u.out[q].map((i) => i + edges.length));
    for (const e of u.edges) edges.push({ ...e, from: e.from + offset, to: e.to + offset });
    offset += u.stateCount;
    terminal &&= u.terminal;
  }
  return { stateCount: offset, initial, edges, out, terminal };
}

function mover(dims: Dimension[], merge: boolean): Mover {
  return { dims, merge };
}

/**
 * Work budget for solving a won game again completely before extracting its strategy (see
 * `forExtraction`; units of `solveBounded`'s workCap, 0.07–0.2 µs each: 1.5–4 s). On the corpus
 * only two games exceed it, both undecided before on-the-fly solving (tmp_13cfc6f2: 190 million,
 * Alarm_a5f99bc6: 26 million); the largest that fit are SPIReadManag (19 million) and
 * Alarm_70523fbe (16 million, 5 states instead of 8 from the on-the-fly game).
 */
const EXTRACTION_WORK = 20_000_000;

/** Largest tableau per guarantee for acting while the spec waits (waiting.ts); larger: skipped. */
const GUARANTEE_AUTOMATON_STATES = 300;

/** Primal automata from this size on let the dual's K = 0 game go first (see probeDual). */
const LARGE_PRIMAL_AUTOMATON = 100;
/** The dual probe's share of the remaining time (1/n). */
const DUAL_PROBE_SHARE = 5;
/** The first primal automaton's share of the remaining time, while the dual has not been tried (1/n). */
const FIRST_PRIMAL_SHARE = 6;

const K_SCHEDULE = (k: number) => (k < 4 ? k + 1 : Math.ceil(k * 1.5));

/** Where the bounded engine's primal and dual games stand, for choosing which plays next. */
export interface SidesState {
  /** The side may still answer (not stuck, its K not past the bound). */
  readonly primalOpen: boolean;
  readonly dualOpen: boolean;
  /** The side's last automaton attempt did not fit its time slice. */
  readonly primalBlocked: boolean;
  readonly dualBlocked: boolean;
  /** Milliseconds each side has spent, failed automaton attempts included. */
  readonly spentPrimal: number;
  readonly spentDual: number;
}

/**
 * Which sides may play next, before the loop picks the one that has spent less. A blocked side
 * is ready again once the other side has spent as long as it has: otherwise a dual whose games
 * only grow keeps a primal automaton that needed a little more than its first slice away until
 * the deadline. Both blocked, neither is ready: the primal then gets the rest of the time.
 */
export function sidesReady(s: SidesState): { primalReady: boolean; dualReady: boolean } {
  return {
    primalReady: s.primalOpen && (!s.primalBlocked || (!s.dualBlocked && s.spentDual >= s.spentPrimal)),
    dualReady: s.dualOpen && (!s.dualBlocked || (!s.primalBlocked && s.spentPrimal >= s.spentDual)),
  };
}

/** `G ψ` with ψ propositional over inputs only: an invariant the environment must keep. */
function inputInvariant(f: Formula, inputs: ReadonlySet<string>): Formula | undefined {
  if (f.kind !== 'G' || !isPropositional(f.arg)) return undefined;
  for (const a of atoms(f.arg)) if (!inputs.has(a)) return undefined;
  return f.arg;
}

/** The assumptions linked to `g` by shared propositions, directly or through other assumptions. */
function relevantAssumptions(g: Formula, assumptions: readonly Formula[]): Formula[] {
  const reached = new Set(atoms(g));
  const chosen = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    assumptions.forEach((a, i) => {
      if (chosen.has(i)) return;
      const names = atoms(a);
      // A constant assumption (FALSE after a vacuity check) concerns every guarantee.
      if (names.size > 0 && ![...names].some((n) => reached.has(n))) return;
      chosen.add(i);
      for (const n of names) reached.add(n);
      grew = true;
    });
  }
  return assumptions.filter((_, i) => chosen.has(i));
}

/** What the bounded engine's games need of a spec: movers, the environment's invariants, each side's formulas. */
function sidesOf(spec: GameSpec) {
  const mealy = spec.semantics === 'mealy';
  const inputs = inputNames(spec);
  const outputs = outputNames(spec);
  const outputDims = dimensionsFor(outputs, spec.signals);
  const enforced = spec.signals.filter((g) => outputDims.some((d) => d.vars.length > 1 && d.vars[0] === g.updates[0]));
  const inputDims = dimensionsFor(inputs, []);
  const freeOutputDims = dimensionsFor(outputs, []);

  // Signal groups the move enumeration cannot enforce stay in the formula.
  const unenforced = spec.signals.filter((g) => !enforced.includes(g)).map((g) => exactlyOne(g.updates));

  // Invariant assumptions over inputs restrict the environment's moves instead of growing the
  // automata. The restriction is exact only in Mealy games (the environment moves first) whose
  // every obligation sits under the assumptions: once the environment breaks an invariant, all of
  // `A → G` holds vacuously and the controller's answers no longer matter. A PRESET part, or a
  // signal rule the moves cannot enforce, must still hold then, so with one of those the
  // environment keeps all its moves (generated spec gen-780: PRESET `o0`, assumption `G i2`; the
  // restricted game's controller dropped `o0` on inputs with `¬i2`, and the independent check
  // refused it).
  const inputSet = new Set(inputs);
  const assumptionConjuncts = spec.assumptions.flatMap((p) => conjuncts(p.formula));
  const obligedAnyway = spec.preset.length > 0 || unenforced.length > 0;
  const invariants = mealy && !obligedAnyway ? assumptionConjuncts.map((f) => inputInvariant(f, inputSet)) : [];
  const envFilter = and(...invariants.filter((f): f is Formula => f !== undefined));
  const A = and(...assumptionConjuncts.filter((_, i) => invariants[i] === undefined));
  const I = conj(spec.initially);
  const assumptionList = assumptionConjuncts.filter((_, i) => invariants[i] === undefined);
  const guaranteeList = spec.guarantees.flatMap((p) => conjuncts(p.formula));
  const primalPartsWith = (assumptionsFor: (g: Formula) => Formula) =>
    [
      ...spec.preset.flatMap((p) => conjuncts(p.formula)),
      ...unenforced.map((f) => G(f)),
      ...guaranteeList.map((g) => implies(assumptionsFor(g), g)),
    ]
      .map((p) => implies(I, p))
      .filter((p) => p !== TRUE);
  // First try each guarantee under only the assumptions that share propositions with it
  // (transitively): much smaller automata, and sound — fewer assumptions only make the
  // controller's task harder. The full assumptions come in if that does not settle it.
  const relevantParts = primalPartsWith((g) => and(...relevantAssumptions(g, assumptionList)));
  const fullParts = primalPartsWith(() => A);
  const sameParts = relevantParts.length === fullParts.length && relevantParts.every((p, i) => p === fullParts[i]);

  // The dual may restrict the controller to signal-respecting outputs only when breaking a signal
  // violates φ outright, i.e. when there is no INITIALLY part that could excuse it.
  const dualRestricted = spec.initially.length === 0;
  const dualFormula = dualRestricted
    ? and(...spec.preset.map((p) => p.formula), ...unenforced.map((f) => G(f)), implies(A, conj(spec.guarantees)))
    : implies(
        I,
        and(conj(spec.preset), ...spec.signals.map((g) => G(exactlyOne(g.updates))), implies(A, conj(spec.guarantees))),
      );

  const envMover = mover(inputDims, true);
  const sysMover = mover(outputDims, true);
  return { inputs, outputs, outputDims, freeOutputDims, envFilter, envMover, sysMover, dualRestricted, dualFormula, relevantParts, fullParts, sameParts, I, assumptionList, guaranteeList };
}

/**
 * Solve one game: primal and dual interleaved with a growing bound K. Once the spec is known to be
 * realizable (`Budget.realizable`), only the primal game is played, with the time slices it would
 * have had beside the dual.
 */
function solveGame(spec: GameSpec, options: SynthesisOptions, want: Wanted, budget: Budget): GameOutcome {
  const { tick, progress } = budget;
  // Translations poll the same budget, so a huge tableau cannot outlive the time limit.
  const automatonOf = (f: Formula, deadline = budget.deadline, translationTick = tick): Ucw => {
    let ucw = budget.automata.get(f.id);
    if (ucw !== undefined) return ucw;
    // No direct-simulation reduction (bisimulation only): in paired runs against the build with
    // it, checks were faster on every band of the corpus and of SYNTCOMP (a median 0.8 ms less
    // on quick specs, 2–6 ms on those of 0.15–3 s, 70 ms on those of 1.5 s or more), with the
    // same verdicts; minimized controllers were smaller on five specs and larger on one
    // (docs/synthesis.md, "Automata for the bounded engine").
    const tgba = translateLtlSymbolic(f, new BddManager(), { deadline, tick: translationTick, simulation: false });
    budget.automata.set(f.id, (ucw = ucwFromTgba(tgba)));
    return ucw;
  };
  const maxK = Math.min(options.maxK ?? 40, 120);
  const nodeCap = options.nodeCap ?? 400_000;
  const mealy = spec.semantics === 'mealy';
  // Once a game is decided, the run's deferred checks (see `run`) are moot: they can only settle
  // the spec, which the game has. Strategy extraction polls the clock alone, so they do not run
  // inside it: there they played games of their own for seconds (AllLights_2c5b09da through
  // `synthesize`: the counterstrategy came at 5.2 s from a game won at 0.5 s), and an extraction
  // that runs out of time falls back to the on-the-fly strategy.
  const extractionTick = budget.clock;

  const primalSide = sidesOf(spec);
  const { inputs, outputs, outputDims, envFilter, envMover, sysMover, dualRestricted, relevantParts, fullParts, sameParts, I, assumptionList, guaranteeList } = primalSide;
  // The dual game only ever proves unrealizability, which the spec with its single-polarity
  // propositions fixed has exactly when the spec has (polarity.ts): where the primal game plays the
  // spec as written (a TSL controller is wanted), the dual plays the fixed spec, a smaller
  // automaton over fewer inputs, and its counterstrategy is lifted back.
  // (Elsewhere `run` has fixed the whole spec already.)
  const fixedForDual = options.polarity === false || !(want.controller && spec.signals.length > 0) ? undefined : fixSinglePolarity(spec);
  const dualSide = fixedForDual ? sidesOf(fixedForDual.spec) : primalSide;
  const primalTable = (parts: readonly Formula[], label: string, deadline: number): MoveTable => {
    const automaton = union(parts.map((p) => automatonOf(not(p), deadline)));
    progress(`automaton for ¬φ (${label}): ${automaton.stateCount} states`);
    return mealy
      ? new MoveTable(automaton, envMover, sysMover, true, envFilter)
      : // Moore: the controller's strategy answers every input, so no input may be skipped.
        new MoveTable(automaton, sysMover, envMover, false, TRUE, false);
  };
  /** `complete`: list every controller output, as a counterstrategy must answer each. */
  const dualTableFor = (dualUcw: Ucw, complete = false): MoveTable => {
    const adversary = mover(dualSide.dualRestricted ? dualSide.outputDims : dualSide.freeOutputDims, false);
    return mealy
      ? new MoveTable(dualUcw, dualSide.envMover, adversary, false, dualSide.envFilter, !complete)
      : new MoveTable(dualUcw, adversary, dualSide.envMover, true);
  };
  /**
   * The tick of the dual side's work (its automaton, its games): the budget's, and DualMoot once
   * a deferred check (the parity route's verdict, run from inside this very tick) has found the
   * spec realizable. The dual can then only lose, and a translation with a time slice would
   * otherwise run on to the end of its slice (Automata32S: the dual probe's translation did not
   * fit its 0.6 s whether or not the verdict came in its first 0.1 s).
   */
  const dualTick = () => {
    tick();
    if (knownRealizable(spec, budget)) throw new DualMoot();
  };
  const dualTable = (deadline: number): MoveTable => {
    // NBA(φ) as a union over φ's top-level disjuncts, e.g. ¬a₁ ∨ … ∨ ¬aₙ ∨ G.
    const dualUcw = union(disjuncts(dualSide.dualFormula).map((p) => automatonOf(p, deadline, dualTick)));
    progress(`automaton for φ: ${dualUcw.stateCount} states`);
    return dualTableFor(dualUcw);
  };
  // While the other side may still answer, an automaton gets a share of the remaining time: one
  // exponential translation (many `X` obligations under all assumptions) must not starve the
  // other game. `undefined` = the slice ran out; the global deadline still throws.
  // `atLeastMs`: a retry after a slice that did not fit gets at least twice that slice.
  const sliced = (build: (deadline: number) => MoveTable, final: boolean, share = 3, atLeastMs = 0): MoveTable | undefined => {
    const now = nowMs();
    const deadline = final ? budget.deadline : Math.min(budget.deadline, now + Math.max(200, atLeastMs, (budget.deadline - now) / share));
    try {
      return build(deadline);
    } catch (err) {
      if (!final && err instanceof TimeoutError && nowMs() < budget.deadline) return undefined;
      throw err;
    }
  };

  // The two games are interleaved by time spent, each with its own bound: whichever side is
  // cheaper gets to raise its K next, so a quick refutation is not held up by a costly primal.
  const usePrimal = options.games !== 'dual';
  const useDual = options.games !== 'primal';
  let primal: MoveTable | undefined;
  let primalComplete = sameParts;
  let dual: MoveTable | undefined;
  // A side is blocked when its automaton did not fit its slice; it gets the rest of the budget
  // once nothing else is left, and before that another slice, at least twice as long, once the
  // other side has spent as long as it has (sidesReady). Before, a blocked primal waited for the
  // deadline while the dual's games grew (Alarm_68c86764.tsl: its translation takes 1.2–1.8 s
  // against a first slice of about 1.7, so the spec was realizable in 2.5 s or unknown after 10
  // from one run to the next). `fullBlocked`: the all-assumptions automaton did not fit.
  let primalBlocked = false;
  let fullBlocked = false;
  let dualBlocked = false;
  let primalStuck = !usePrimal;
  let dualStuck = !useDual;
  let Kp = 0;
  let Kd = 0;
  let spentPrimal = 0;
  let spentDual = 0;
  let primalGameSlice = 0;
  /** How long the last automaton attempt of each side that did not fit had (0: none failed). */
  let primalFailedSlice = 0;
  let dualFailedSlice = 0;
  /** The budget's tick, and GameSliceOver once `end` has passed. */
  const slicedTick = (end: number) => {
    let ticks = 0;
    return () => {
      tick();
      if ((++ticks & 255) === 0 && nowMs() > end) throw new GameSliceOver();
    };
  };
  // With propositions fixed, the dual's automaton is the smaller one: its K = 0 game goes first
  // (the probe of a large primal automaton, before that automaton is built): TwoCountersDisButA9's
  // primal automaton takes 1.4 s to build, while the fixed spec's dual wins at once.
  if (fixedForDual && useDual && usePrimal && !knownRealizable(spec, budget)) {
    const decided = probeDual(`${fixedForDual.fixed.inputs.size + fixedForDual.fixed.outputs.size} propositions fixed, probed first`);
    if (decided) return decided;
  }
  for (;;) {
    // Set by a deferred check, possibly during the last step.
    const known = knownRealizable(spec, budget);
    const primalOpen = usePrimal && (!primalStuck || (!primalComplete && !fullBlocked)) && Kp <= maxK;
    const dualOpen = !dualStuck && !known && Kd <= maxK;
    const { primalReady, dualReady } = sidesReady({ primalOpen, dualOpen, primalBlocked, dualBlocked, spentPrimal, spentDual });
    let side: 'primal' | 'dual';
    if (primalReady && (!dualReady || spentPrimal <= spentDual)) side = 'primal';
    else if (dualReady) side = 'dual';
    else if (primalOpen) side = 'primal';
    else if (dualOpen) side = 'dual';
    else break;
    // Final: no other side could still answer, so this one may use all the remaining time.
    // Known realizable, the primal keeps the slices it had beside the dual until one did not fit.
    const dualLeft = !dualStuck && Kd <= maxK;
    const final =
      side === 'primal' ? !dualLeft || (dualBlocked && primalBlocked) || (known && (primalBlocked || fullBlocked)) : !primalOpen;
    let began = nowMs();
    if (side === 'primal') {
      const switchToFull = primal !== undefined && !primalComplete && !fullBlocked && (Kp >= 2 || primalStuck);
      if (primal === undefined || switchToFull) {
        const label = switchToFull || sameParts ? 'all assumptions' : 'relevant assumptions';
        // The first primal automaton gets a sixth: on the corpus a realizable spec's takes at most
        // 0.6 s, while the ones that overrun (TwoCountersDisButAC, TwoCounters5) are refuted by
        // the dual game, which needs the time.
        const share = dual === undefined && (!known || primal === undefined) ? FIRST_PRIMAL_SHARE : 3;
        const retry = switchToFull ? 0 : 2 * primalFailedSlice;
        const built = sliced((deadline) => primalTable(switchToFull ? fullParts : relevantParts, label, deadline), final, share, retry);
        if (!built) {
          if (!switchToFull) primalFailedSlice = nowMs() - began;
          spentPrimal += nowMs() - began;
          progress(`automaton for ¬φ (${label}) did not fit its time slice`);
          if (switchToFull) fullBlocked = true;
          else primalBlocked = true;
          continue;
        }
        primal = built;
        primalBlocked = false;
        // A primal automaton that was built is not charged to the primal side (only a failed
        // attempt is): charging it hands the dual several rounds first, which cost Lights2* seconds.
        began = nowMs();
        if (switchToFull) {
          primalComplete = true;
          primalStuck = false;
        }
        if (useDual && !known && dual === undefined && !dualBlocked && primal.ucw.stateCount >= LARGE_PRIMAL_AUTOMATON) {
          const decided = probeDual();
          if (decided) return decided;
          began = nowMs();
        }
      }
      const K = Kp;
      // While the dual may still answer, one primal game gets a third of the time left (doubled
      // after each pause): then the dual plays as long, and the primal game starts over (its move
      // table keeps what it split). A game that ran until the deadline starved the dual
      // (AllLights_aeb1d897: K = 0 on 789 states for 9 s, where the dual wins at K = 1 in 3 s).
      const dualMayAnswer = !dualStuck && !knownRealizable(spec, budget) && Kd <= maxK;
      const gameEnd = final || !dualMayAnswer ? Infinity : began + Math.max(primalGameSlice, (budget.deadline - began) / 3);
      let game: SolvedGame;
      try {
        game = solveOnTheFly(primal, K, nodeCap, gameEnd === Infinity ? tick : slicedTick(gameEnd));
      } catch (err) {
        if (!(err instanceof GameSliceOver)) throw err;
        primalGameSlice = 2 * (nowMs() - began);
        spentPrimal += nowMs() - began;
        progress(`primal K=${K}: paused after ${Math.round(nowMs() - began)} ms for the dual game`);
        continue;
      }
      progress(`primal K=${K}: ${game.status} (${game.nodeCount} positions)`);
      if (game.status === 'win') return realizable(game);
      if (game.status === 'overflow') primalStuck = true;
      else if (primalComplete && primal.ucw.terminal && mealy && dualRestricted) {
        // Losing the K = 0 game of a terminal automaton is final: one rejecting visit suffices.
        const stats = { K, automatonStates: primal.ucw.stateCount, gamePositions: game.nodeCount };
        if (!want.counterstrategy) return { verdict: 'unrealizable', stats };
        // The environment's answer must cover every output, including the dominated ones the
        // solving table skipped: replay the (lost) K = 0 game on a table that lists them all.
        const complete = new MoveTable(primal.ucw, envMover, sysMover, true, envFilter, false);
        const replayed = solveBounded(complete, K, nodeCap, extractionTick);
        const keepsInvariants = new BddManager();
        const sinkInput = dict<boolean>(keepsInvariants.satisfyingAssignment(keepsInvariants.fromFormula(envFilter)) ?? []);
        return { verdict: 'unrealizable', counterstrategy: extractAttractorCounterstrategy(replayed, inputs, outputs, sinkInput), stats };
      }
      Kp = K_SCHEDULE(Kp);
      spentPrimal += nowMs() - began;
    } else {
      let game: SolvedGame;
      const K = Kd;
      try {
        if (dual === undefined) {
          const built = sliced(dualTable, final, 3, 2 * dualFailedSlice);
          spentDual += nowMs() - began;
          if (!built) {
            dualFailedSlice = nowMs() - began;
            progress('automaton for φ did not fit its time slice');
            dualBlocked = true;
            continue;
          }
          dual = built;
          dualBlocked = false;
        }
        game = solveOnTheFly(dual, K, nodeCap, dualTick);
      } catch (err) {
        if (!(err instanceof DualMoot)) throw err;
        // Known realizable now: the loop leaves the dual side alone from here on.
        progress('the spec is known realizable: the dual game stops');
        spentDual += nowMs() - began;
        continue;
      }
      progress(`dual K=${K}: ${game.status} (${game.nodeCount} positions)`);
      if (game.status === 'win') return unrealizable(game);
      if (game.status === 'overflow') dualStuck = true;
      Kd = K_SCHEDULE(Kd);
      spentDual += nowMs() - began;
    }
  }
  if (primalStuck || dualStuck) return { verdict: 'unknown', reason: 'game too large' };
  return { verdict: 'unknown', reason: `no decision up to bound K=${maxK}` };

  function unrealizable(game: SolvedGame): GameOutcome {
    const stats = {
      K: game.K,
      automatonStates: primal?.ucw.stateCount ?? 0,
      dualAutomatonStates: game.table.ucw.stateCount,
      gamePositions: game.nodeCount,
    };
    if (!want.counterstrategy) return { verdict: 'unrealizable', stats };
    const lifted = (cs: Counterstrategy) => (fixedForDual ? liftCounterstrategy(cs, spec, fixedForDual.fixed) : cs);
    const { inputs: dualInputs, outputs: dualOutputs } = dualSide;
    if (!mealy)
      return {
        verdict: 'unrealizable',
        counterstrategy: lifted(extractDualMooreCounterstrategy(forExtraction(game), dualInputs, dualOutputs, dualSide.dualRestricted)),
        stats,
      };
    // The solving table skipped dominated controller outputs: replay on one that lists them all.
    const replayed = forExtraction(solveOnTheFly(dualTableFor(game.table.ucw, true), game.K, nodeCap, extractionTick));
    const counterstrategy = lifted(extractDualCounterstrategy(replayed, dualInputs, dualOutputs, dualSide.dualRestricted));
    return { verdict: 'unrealizable', counterstrategy, stats };
  }

  /**
   * The first game on a large primal automaton can take minutes (TwoCountersDisButA7: 200
   * states), while the dual's K = 0 game often refutes an unrealizable spec in a second
   * (36 states, 43 positions). So the dual's automaton and its K = 0 game go first, together
   * within a slice of the remaining time; the dual's time is charged as usual, so the
   * interleaving afterwards is unchanged. `undefined` = not decided (the slice may have run out).
   */
  function probeDual(why = 'probed before the large primal game'): GameOutcome | undefined {
    const began = nowMs();
    const sliceEnd = Math.min(budget.deadline, began + Math.max(200, (budget.deadline - began) / DUAL_PROBE_SHARE));
    // The translation gets a smaller part of the slice: where the probe pays off, φ's automaton
    // is small (36–45 states, under 0.6 s), and a costly one is better left to the usual schedule.
    const translationEnd = Math.min(sliceEnd, began + Math.max(200, (budget.deadline - began) / 16));
    // The run's deferred checks may run from inside the probe's tick (a contradiction they find
    // settles the spec at once: FelixSpecFixed*), but their time is not the probe's: they played
    // games of their own for seconds, and the probe's slice ran out before its K = 0 game, which
    // decides the spec (AllLights_2c5b09da with a controller: 10 s, unknown; now 0.3–2.9 s).
    const deferredBefore = budget.deferredMs();
    const over = (end: number) => nowMs() > end + (budget.deferredMs() - deferredBefore);
    let ticks = 0;
    const within = (end: number) => () => {
      dualTick();
      if ((++ticks & 255) === 0 && over(end)) throw new ProbeTimeout();
    };
    try {
      // The translation's own deadline is the run's: its slice is kept by the tick above.
      const ucw = union(disjuncts(dualSide.dualFormula).map((p) => automatonOf(p, budget.deadline, within(translationEnd))));
      progress(`automaton for φ: ${ucw.stateCount} states (${why})`);
      dual = dualTableFor(ucw);
      const game = solveOnTheFly(dual, Kd, nodeCap, within(sliceEnd));
      progress(`dual K=${Kd}: ${game.status} (${game.nodeCount} positions)`);
      if (game.status === 'win') return unrealizable(game);
      if (game.status === 'overflow') dualStuck = true;
      Kd = K_SCHEDULE(Kd);
    } catch (err) {
      if (err instanceof DualMoot) {
        progress('the spec is known realizable: the dual probe stops');
        return undefined;
      }
      const sliceOver = err instanceof ProbeTimeout || err instanceof TimeoutError;
      if (!sliceOver || nowMs() > budget.deadline) throw err;
      progress('the dual probe did not finish in its slice');
    } finally {
      spentDual += nowMs() - began;
    }
    return undefined;
  }

  /**
   * The won game for strategy extraction. Games are decided on the fly (otf.ts), which explores
   * one option per decision; extraction makes smaller strategies from a completely explored game
   * (more winning positions to reuse and widen to), so the game is solved again completely when
   * that fits a deterministic work budget (the same strategies as before on-the-fly solving, for
   * all but the largest games), else the on-the-fly game is used.
   */
  function forExtraction(game: SolvedGame): SolvedGame {
    if (game.status !== 'win') throw new InternalSynthesisError(`a strategy was asked of a game that was not won (${game.status})`);
    let complete: SolvedGame;
    try {
      complete = solveBounded(game.table, game.K, nodeCap, extractionTick, options.extractionWork ?? EXTRACTION_WORK, game.losingSet);
    } catch (err) {
      // Out of time: the game is decided already, so its on-the-fly strategy will do.
      if (err instanceof Timeout) return game;
      throw err;
    }
    if (complete.status === 'lose') throw new InternalSynthesisError('the game won on the fly was lost when solved completely');
    return complete.status === 'win' ? complete : game;
  }

  /**
   * The guarantees alone, as a universal automaton (`I → g` per PRESET part and guarantee that
   * has an eventuality, without assumptions), for `actWhileWaiting`; undefined when one has more
   * than GUARANTEE_AUTOMATON_STATES states (the pass is then skipped).
   */
  function obligationsAutomaton(): GuaranteeAutomaton[] | undefined {
    const parts = [...spec.preset.flatMap((p) => conjuncts(p.formula)), ...guaranteeList].filter(hasEventuality);
    if (parts.length === 0) return undefined;
    try {
      return parts.map((g) => ({
        // A size cap, not a time slice, so the controller is the same on every machine.
        ucw: ucwFromTgba(
          translateLtlSymbolic(not(implies(I, g)), new BddManager(), {
            deadline: budget.deadline,
            tick: extractionTick,
            maxStates: GUARANTEE_AUTOMATON_STATES,
            productOfConjuncts: false,
          }),
        ),
        props: new Set([g, ...relevantAssumptions(g, assumptionList)].flatMap((f) => [...atoms(f)])),
      }));
    } catch (err) {
      if (err instanceof TimeoutError && nowMs() < budget.deadline) return undefined;
      throw err;
    }
  }

  function realizable(won: SolvedGame): GameOutcome {
    const stats = { K: won.K, automatonStates: won.table.ucw.stateCount, gamePositions: won.nodeCount };
    if (!want.controller) return { verdict: 'realizable', stats };
    const game = forExtraction(won);
    if (!mealy) return { verdict: 'realizable', controller: extractMooreController(game, inputs, outputs, outputDims), stats };
    // Four extractions: widened states (largest winning positions, usually fewer states) or plain
    // ones, choosing moves eagerly (progress toward pending obligations first, extract.ts) or
    // lazily (the first winning move, as tslc did before); each then also acting while the spec
    // waits (waiting.ts). Preferred in that order (eager and acting first), but none may be larger
    // than the lazy controller: on the corpus, eager moves made a few controllers several times
    // larger (Lights2_06e9cad4: 39 states instead of 8), while the seed tasks' got smaller.
    const oracle = progressOracle(game, outputDims);
    const extracted = (eager: boolean) => {
      const both = [true, false].map((widen) => {
        const { choiceStats, equivalents, ...raw } = extractMealyController(game, inputs, outputs, outputDims, widen, oracle, eager);
        return { raw, equivalents, stats: choiceStats, machine: minimizeMealy(raw) };
      });
      both.sort(
        (a, b) =>
          a.machine.stateCount - b.machine.stateCount ||
          a.stats.idleWhilePending - b.stats.idleWhilePending ||
          a.stats.busyWhileQuiet - b.stats.busyWhileQuiet,
      );
      return both[0];
    };
    const eager = extracted(true);
    const lazy = extracted(false);
    // The lazy controller is the yardstick: the first candidate, in order of preference, that is
    // no larger after minimization is kept (exact minimization only where the bisimulation
    // quotient does not settle it). The guarantees' automata are built only when needed.
    const limit = minimizedSize(lazy.machine, options.minimize);
    const fits = (m: MealyMachine) => m.stateCount <= limit || minimizedSize(m, options.minimize) <= limit;
    let waiting: GuaranteeAutomaton[] | undefined | null = null; // null: not built yet
    let controller = lazy.machine;
    for (const { raw, equivalents, machine } of [eager, lazy]) {
      if (equivalents.size > 0) {
        if (waiting === null) waiting = obligationsAutomaton();
        const acting = waiting ? actWhileWaiting(raw, equivalents, waiting, extractionTick) : raw;
        const quotient = acting === raw ? undefined : minimizeMealy(acting);
        if (quotient && fits(quotient)) {
          controller = quotient;
          break;
        }
      }
      if (machine === lazy.machine || fits(machine)) {
        controller = machine;
        break;
      }
    }
    return { verdict: 'realizable', controller, stats };
  }
}
