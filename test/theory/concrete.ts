/**
 * Concrete semantics for the theory tests: a synthesized controller, compiled to a table and run
 * by the real runtime (whose built-ins compute `+`, `<`, `=` on integers), against a world that
 * holds actual values and computes every predicate from them. The world is a function of the
 * configuration (controller state, signal values, last updates) seeded per run, so a run that
 * meets a configuration again is an exact lasso, and the full spec (liveness included) is judged
 * on it by the direct LTL semantics; a run that does not close a lasso within the step limit is
 * judged on its prefix by progression (a safety violation shows, a pending liveness does not).
 */
import type { TermData } from '../../runtime/table.js';
import { createController } from '../../runtime/controller.js';
import { theoryFunction } from '../../runtime/builtins.js';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { evaluateOnLasso, type Valuation } from '../../src/automata/lasso.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { type GameSpec, specFormula } from '../../src/game/spec.js';
import { and, type Formula } from '../../src/ltl/formula.js';
import { toSpot } from '../../src/ltl/print.js';
import { mulberry32 } from '../../runtime/random.js';

type Fn = (...args: unknown[]) => unknown;

export interface World {
  /** User predicates and functions (pure functions of their arguments). */
  readonly impl: Readonly<Record<string, Fn>>;
  /** Initial values of the cells (and outputs). */
  readonly initial: Readonly<Record<string, unknown>>;
  /** The inputs of one step, from the current signals and last updates, with a seeded random source. */
  inputs(random: () => number, signals: Readonly<Record<string, unknown>>, lastUpdates: readonly string[]): Record<string, unknown>;
}

export interface RunOutcome {
  readonly steps: number;
  /** The run closed a lasso (configuration seen before) and was judged exactly. */
  readonly lasso: boolean;
  /** The user's assumptions do not hold on the lasso: nothing to check. */
  readonly vacuous: boolean;
  /** Problems found: a guarantee or a theory fact that fails, a runtime answer that differs. */
  readonly failures: readonly string[];
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return mulberry32(seed);
}

export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Evaluates a term as the runtime does: theory built-ins natively, everything else by the world. */
function evaluate(t: TermData, values: Readonly<Record<string, unknown>>, world: World, theory: 'LIA' | 'UF' | undefined): unknown {
  switch (t.kind) {
    case 'signal':
      return values[t.name];
    case 'literal':
      return t.value;
    case 'call': {
      const args = t.args.map((a) => evaluate(a, values, world, theory));
      const fn = theoryFunction(theory, t.fn) ?? world.impl[t.fn];
      if (!fn) throw new Error(`the world has no ${t.fn}`);
      return fn(...args);
    }
  }
}

export async function runConcrete(game: GameSpec, machine: MealyMachine, world: World, seed: number, maxSteps: number): Promise<RunOutcome> {
  const table = buildControllerTable(game, machine);
  const controller = createController<Record<string, unknown>, Record<string, unknown>>({ table, impl: world.impl, initialSignals: world.initial });
  const userGame: GameSpec = { ...game, assumptions: game.assumptions.filter((p) => p.theory === undefined) };
  const spec = specFormula(userGame);
  const assumptions = and(...userGame.assumptions.map((p) => p.formula), ...userGame.initially.map((p) => p.formula));
  const facts = game.assumptions.filter((p) => p.theory !== undefined);
  const inputSignals = (game.tslSignals ?? []).filter((s) => s.role === 'input').map((s) => s.name);

  const letters: Valuation[] = [];
  const seen = new Map<string, number>();
  const failures: string[] = [];
  let lastUpdates: string[] = [];
  const monitor = new ProgressionMonitor([
    { name: 'spec', formula: parseLtl(toSpot(spec)) },
    ...facts.map((f, i) => ({ name: `fact ${i}: ${f.text}`, formula: parseLtl(toSpot(f.formula)) })),
  ]);
  for (let step = 0; step < maxSteps; step++) {
    const signals = controller.signals;
    const config = JSON.stringify([controller.state, Object.entries(signals).sort(), lastUpdates]);
    const earlier = seen.get(config);
    if (earlier !== undefined) {
      const lasso = { prefix: letters.slice(0, earlier), cycle: letters.slice(earlier) };
      for (const f of facts) if (!evaluateOnLasso(f.formula, lasso)) failures.push(`theory fact fails on a concrete run: ${f.text}`);
      const holds = evaluateOnLasso(spec, lasso);
      const vacuous = !evaluateOnLasso(assumptions, lasso);
      if (!holds) failures.push(`the spec fails on a concrete lasso of ${letters.length} steps (seed ${seed})`);
      return { steps: step, lasso: true, vacuous, failures };
    }
    seen.set(config, step);
    const inputs = world.inputs(rng(hash(`${seed}:${config}`)), signals, lastUpdates);
    const values: Record<string, unknown> = { ...signals, ...inputs };
    const letter = new Set<string>();
    const truth = new Map<string, boolean>();
    for (const p of table.predicates) {
      const value = p.signal !== undefined ? values[p.signal] === true : evaluate({ kind: 'call', fn: p.fn, args: p.args }, values, world, table.theory) === true;
      truth.set(p.proposition, value);
      if (value) letter.add(p.proposition);
    }
    const record = await controller.step(Object.fromEntries(inputSignals.map((s) => [s, inputs[s]])));
    for (const a of record.asked)
      if (truth.get(a.proposition) !== a.value) failures.push(`step ${step}: the runtime says ${a.text} is ${a.value}, the world says ${truth.get(a.proposition)}`);
    lastUpdates = record.updates.map((u) => u.proposition);
    for (const u of lastUpdates) letter.add(u);
    letters.push(letter);
    const verdicts = monitor.step(letter);
    for (const v of verdicts) if (v.verdict === 'violated') failures.push(`step ${step}: ${v.name === 'spec' ? 'a guarantee' : v.name} is violated`);
    if (failures.length > 0) return { steps: step + 1, lasso: false, vacuous: false, failures };
  }
  return { steps: maxSteps, lasso: false, vacuous: false, failures };
}

export type { Formula };
