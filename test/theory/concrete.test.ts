/**
 * The concrete-semantics test: each controller synthesized under a theory runs (through the
 * real runtime) against worlds that hold real integers and strings and compute every predicate
 * from them — many random runs, each judged exactly on its lasso (or by progression on its
 * prefix). The spec's guarantees and every theory fact must hold on every run; a world that
 * breaks the spec's own assumptions makes the run vacuous, and most runs must not be.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeGames } from '../../src/codegen/compose.js';
import type { GameSpec } from '../../src/game/spec.js';
import { synthesize } from '../../src/synthesis/index.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { hash, runConcrete, type World } from './concrete.js';

const load = (path: string): GameSpec => loadTslGame(path, readFileSync(path, 'utf8')).game;
const fixture = (name: string) => load(`test/fixtures/theories/${name}`);

const RUNS = 60;
const STEPS = 120;

/** User predicates and functions as pure functions of their arguments, with small ranges (so runs close lassos). */
function hashed(seed: number, predicates: readonly string[], functions: readonly string[]): Record<string, (...a: unknown[]) => unknown> {
  const impl: Record<string, (...a: unknown[]) => unknown> = {};
  for (const p of predicates) impl[p] = (...args) => hash(`${seed}:${p}:${JSON.stringify(args)}`) % 2 === 0;
  for (const f of functions) impl[f] = (...args) => `${f}#${hash(`${seed}:${f}:${JSON.stringify(args)}`) % 5}`;
  return impl;
}

const int = (r: () => number, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

interface Case {
  readonly name: string;
  readonly game: () => GameSpec;
  readonly world: (seed: number) => World;
  /** Runs that must close a lasso (judged in full, liveness included). */
  readonly minLassos: number;
}

const cases: Case[] = [
  {
    name: 'retry/escalate counter (the issue\'s spec)',
    game: () => fixture('retry-escalate.tsl'),
    world: (seed) => ({ impl: hashed(seed, ['failed'], ['retry', 'escalate', 'answer']), initial: { n: 0, reply: 'start' }, inputs: () => ({}) }),
    minLassos: RUNS,
  },
  {
    name: 'counting to three',
    game: () => fixture('count-to-three.tsl'),
    world: () => ({ impl: {}, initial: { x: 0 }, inputs: () => ({}) }),
    minLassos: 0,
  },
  {
    name: 'counting up to a bound and holding it',
    game: () => fixture('count-and-hold.tsl'),
    world: () => ({ impl: {}, initial: { x: 0 }, inputs: () => ({}) }),
    minLassos: RUNS,
  },
  {
    name: 'kitchen timer',
    game: () => fixture('kitchen-timer.tsl'),
    world: () => ({ impl: { ring: () => 'ring' }, initial: { t: 0 }, inputs: (r) => ({ start: r() < 0.2 }) }),
    minLassos: RUNS / 2,
  },
  {
    name: 'counter kept in range',
    game: () => fixture('counter-in-range.tsl'),
    world: () => ({ impl: {}, initial: { c: 0 }, inputs: (r) => ({ up: r() < 0.5, down: r() < 0.5 }) }),
    minLassos: RUNS / 2,
  },
  {
    name: 'agent with a budget (specs/budget.tsl)',
    game: () => load('specs/budget.tsl'),
    world: (seed) => ({
      impl: hashed(seed, ['wants'], ['run', 'decline']),
      initial: { budget: 10, out: 'idle' },
      inputs: (r) => ({ task: `t${int(r, 0, 2)}`, cost: int(r, 0, 6) }),
    }),
    minLassos: RUNS / 2,
  },
  {
    name: 'agent with retries and escalation (specs/retry.tsl)',
    game: () => load('specs/retry.tsl'),
    world: (seed) => ({
      impl: hashed(seed, ['failed'], ['retry', 'escalate', 'answer']),
      initial: { attempts: 0, reply: 'start' },
      inputs: (r) => ({ question: `q${int(r, 0, 1)}` }),
    }),
    minLassos: RUNS / 2,
  },
  {
    name: 'tutor (specs/tutor.tsl): hints counted in #LIA',
    game: () => load('specs/tutor.tsl'),
    world: () => ({
      impl: {
        teachChapter1: (q) => `ch1:${String(q)}`,
        teachChapter2: (q) => `ch2:${String(q)}`,
        hintFor: (p) => `hint:${String(p)}`,
        answerFor: (p) => `answer:${String(p)}`,
        chapter1content: (r) => /^(ch1|hint|answer):|^welcome$/.test(String(r)),
        chapter2content: (r) => String(r).startsWith('ch2:'),
        hint: (r) => String(r).startsWith('hint:'),
        giveAnswer: (r) => String(r).startsWith('answer:'),
      },
      initial: { response: 'welcome', hintCount: 0 },
      inputs: (r, signals) => ({ question: 'q', problem: 'p', chapter1complete: signals.response !== 'welcome' && r() < 0.3 }),
    }),
    minLassos: 1,
  },
  {
    name: 'adventure ∧ choices: safe choices counted in #LIA',
    game: () => composeGames('adventure-choices', [load('specs/adventure.tsl'), load('specs/choices.tsl')]),
    world: () => ({
      impl: {
        toCave: () => 'cave',
        toMarket: () => 'market',
        toTown: () => 'town',
        inCave: (s) => s === 'cave',
        inMarket: (s) => s === 'market',
        inTown: (s) => s === 'town',
      },
      initial: { safeCount: 0 },
      // The story summary follows the passage just asked for; a kept passage moves on to the road.
      inputs: (r, signals, last) => {
        const fresh = last.some((u) => u.startsWith('u_storyPassage_') && u !== 'u_storyPassage_storyPassage');
        return { s: last.length === 0 ? 'start' : fresh ? signals.storyPassage : 'road', safe: r() < 0.5 };
      },
    }),
    minLassos: 1,
  },
];

describe('controllers under concrete integer semantics', () => {
  it.each(cases)('$name', async ({ game, world, minLassos }) => {
    const spec = game();
    expect(spec.theory).toBeDefined();
    const result = synthesize(spec, { timeoutMs: 60_000 });
    expect(result.verdict).toBe('realizable');
    if (result.verdict !== 'realizable') return;
    let lassos = 0;
    let vacuous = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const outcome = await runConcrete(spec, result.controller, world(seed), seed, STEPS);
      expect(outcome.failures).toEqual([]);
      if (outcome.lasso) lassos++;
      if (outcome.vacuous) vacuous++;
    }
    expect(lassos).toBeGreaterThanOrEqual(minLassos);
    // Most judged runs keep the spec's assumptions, so the guarantees were really checked.
    expect(vacuous).toBeLessThanOrEqual(lassos / 2);
  }, 120_000);
});

describe('the concrete runs catch a fact that is not valid', () => {
  it('a false "x < 3 stays true" makes incrementing past the bound look realizable, and the runs refute it', async () => {
    const spec = fixture('increment-past-bound.tsl');
    const keep = spec.assumptions.find((p) => p.theory?.fact === '[x <- x] keeps x < 3 as it is');
    expect(keep).toBeDefined();
    // The same shape of fact for the increment: false in the integers (x = 2 → 3).
    const { G, implies, iff, X, ap } = await import('../../src/ltl/formula.js');
    const increment = spec.outputs.find((o) => o.update && !o.update.isSelfUpdate)!.name;
    const lt = spec.inputs.find((p) => p.predicate?.fn === 'lt')!.name;
    const bogus = { formula: G(implies(ap(increment), iff(ap(lt), X(ap(lt))))), text: 'bogus', theory: { theory: 'LIA' as const, kind: 'update' as const, fact: '[x <- x + 1] keeps x < 3 as it is' } };
    const unsound = { ...spec, assumptions: [...spec.assumptions, bogus] };
    const result = synthesize(unsound, { timeoutMs: 60_000 });
    expect(result.verdict).toBe('realizable');
    if (result.verdict !== 'realizable') return;
    const outcome = await runConcrete(unsound, result.controller, { impl: {}, initial: { x: 0 }, inputs: () => ({}) }, 1, STEPS);
    expect(outcome.failures.some((f) => f.includes('keeps x < 3') || f.includes('guarantee'))).toBe(true);
  }, 60_000);
});
