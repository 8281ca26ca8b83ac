/**
 * Specs whose meaning depends on the theory: realizable when read in `#LIA`/`#UF` (and only
 * then), and the ones whose guarantees are false under integer semantics stay unrealizable
 * whatever is assumed. Every controller passes the independent checker against the spec with
 * the theory's assumptions.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTslGame } from '../../src/tsl/index.js';
import { synthesize } from '../../src/synthesis/index.js';
import { verifyController } from '../../src/verify/index.js';

const dir = 'test/fixtures/theories';
const load = (name: string, theory?: 'none') => loadTslGame(`${dir}/${name}`, readFileSync(`${dir}/${name}`, 'utf8'), { theory }).game;

const cases: Array<[file: string, withTheory: 'realizable' | 'unrealizable', without: 'realizable' | 'unrealizable']> = [
  ['retry-escalate.tsl', 'realizable', 'unrealizable'],
  ['count-to-three.tsl', 'realizable', 'unrealizable'],
  ['count-and-hold.tsl', 'realizable', 'unrealizable'],
  ['kitchen-timer.tsl', 'realizable', 'unrealizable'],
  ['counter-in-range.tsl', 'realizable', 'unrealizable'],
  ['increment-past-bound.tsl', 'unrealizable', 'unrealizable'],
  ['budget-overspent.tsl', 'unrealizable', 'unrealizable'],
  ['uf-equal.tsl', 'realizable', 'unrealizable'],
  ['uf-congruence.tsl', 'realizable', 'unrealizable'],
];

describe('theory-dependent verdicts', () => {
  it.each(cases)('%s: %s in its theory, %s without', (file, withTheory, without) => {
    const game = load(file);
    expect(game.theory).toBeDefined();
    expect(game.assumptions.some((p) => p.theory !== undefined)).toBe(true);
    const result = synthesize(game, { timeoutMs: 60_000 });
    expect(result.verdict).toBe(withTheory);
    if (result.verdict === 'realizable') expect(verifyController(game, result.controller).ok).toBe(true);
    const plain = load(file, 'none');
    expect(plain.assumptions.some((p) => p.theory !== undefined)).toBe(false);
    expect(synthesize(plain, { timeoutMs: 60_000 }).verdict).toBe(without);
  }, 120_000);

  it('the issue\'s retry/escalate spec needs no more than a few states', () => {
    const result = synthesize(load('retry-escalate.tsl'), { timeoutMs: 60_000 });
    expect(result.verdict).toBe('realizable');
    if (result.verdict === 'realizable') expect(result.controller.stateCount).toBeLessThanOrEqual(4);
  }, 60_000);
});

describe('the shipped counting specs', () => {
  const spec = (path: string, theory?: 'none') => loadTslGame(path, readFileSync(path, 'utf8'), { theory }).game;

  it.each(['specs/tutor.tsl', 'specs/choices.tsl', 'specs/retry.tsl', 'specs/budget.tsl'])(
    '%s: realizable in #LIA, with a verified controller; unrealizable read without it',
    (path) => {
      const game = spec(path);
      expect(game.theory).toBe('LIA');
      const result = synthesize(game, { timeoutMs: 60_000 });
      expect(result.verdict).toBe('realizable');
      if (result.verdict === 'realizable') expect(verifyController(game, result.controller).ok).toBe(true);
      expect(synthesize(spec(path, 'none'), { timeoutMs: 60_000 }).verdict).toBe('unrealizable');
    },
    120_000,
  );

  it.each(['tutor-handwritten.tsl', 'choices-handwritten.tsl'])('the earlier %s, counting assumed by hand, stays realizable without a theory', (file) => {
    const game = spec(`${dir}/${file}`);
    expect(game.theory).toBeUndefined();
    expect(synthesize(game, { timeoutMs: 60_000 }).verdict).toBe('realizable');
  }, 60_000);
});
