/**
 * The in-process attempt `tslc check` makes before it starts a worker (src/synthesis/isolated.ts):
 * the solver stops itself at `stopAfterMs` without changing how it divides its budget, and a `vm`
 * hard limit interrupts it mid-step. An interruption must leave the solver's module-level caches
 * consistent, so a later run in the same thread still yields a controller the independent checker
 * accepts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../../src/frontend/load.js';
import { STOPPED_EARLY, synthesizeController } from '../../src/synthesis/index.js';
import { runInProcess } from '../../src/synthesis/isolated.js';
import { verifyController } from '../../src/verify/index.js';

const adventure = join(import.meta.dirname, '../../specs/adventure.tsl');

describe('stopping early', () => {
  it('stopAfterMs ends a run with unknown (stopped early) while the budget lasts', async () => {
    const spec = await loadGame(adventure);
    const r = synthesizeController(spec, { timeoutMs: 60_000, stopAfterMs: 0 });
    expect(r).toMatchObject({ verdict: 'unknown', reason: STOPPED_EARLY });
  });

  it('the budget running out first is still a timeout', async () => {
    const spec = await loadGame(adventure);
    const r = synthesizeController(spec, { timeoutMs: 0, stopAfterMs: 60_000 });
    expect(r).toMatchObject({ verdict: 'unknown', reason: 'timeout' });
  });
});

describe('runInProcess with limits', () => {
  it('hands a request over when the solver stopped early, and says it was not interrupted', async () => {
    const r = await runInProcess({ file: adventure, timeoutMs: 60_000, synthesize: true }, { stopAfterMs: 0, hardLimitMs: 60_000 });
    expect(r).toMatchObject({ handOver: true, interrupted: false });
  });

  it('answers within its limits like an unlimited run', async () => {
    const limited = await runInProcess({ file: adventure, timeoutMs: 60_000, synthesize: true }, { stopAfterMs: 60_000, hardLimitMs: 60_000 });
    expect(limited).toMatchObject({ verdict: 'realizable', states: 5 });
  });

  it('after hard interruptions at many points, the same thread still synthesizes a verified controller', async () => {
    const interruptedAt: number[] = [];
    for (const ms of [1, 2, 4, 8, 16, 32, 64]) {
      const r = await runInProcess({ file: adventure, timeoutMs: 60_000, synthesize: true }, { stopAfterMs: 60_000, hardLimitMs: ms });
      if ('handOver' in r && r.interrupted) interruptedAt.push(ms);
    }
    // The solve takes far longer than a millisecond, so at least the first cuts were real.
    expect(interruptedAt).toContain(1);
    const spec = await loadGame(adventure);
    const r = synthesizeController(spec, { timeoutMs: 120_000 });
    expect(r.verdict).toBe('realizable');
    if (r.verdict !== 'realizable') return;
    expect(r.controller.stateCount).toBe(5);
    expect(verifyController(spec, r.controller).ok).toBe(true);
  });
});
