import { beforeAll, describe, expect, it } from 'vitest';
import { replayTrace } from '../../runtime/decision.js';
import type { ControllerTable } from '../../runtime/table.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { closestCause, effectHolds, parseEffect, renderCause } from '../../src/explain/trace-cause.js';
import { loadGame } from '../../src/frontend/load.js';
import { synthesize } from '../../src/synthesis/index.js';
import { simulateTrace } from './helpers.js';

let table: ControllerTable;
beforeAll(async () => {
  const spec = await loadGame('specs/conflicts/adventure.tsl');
  const r = synthesize(spec, { timeoutMs: 30_000 });
  if (r.verdict !== 'realizable') throw new Error(`adventure: ${r.verdict}`);
  table = buildControllerTable(spec, r.controller);
}, 60_000);

describe('closest cause on the adventure controller', () => {
  // The papers' example: the player got to town but never to a market; why no cave yet?
  const noMarketWorld = (step: number): Record<string, boolean> => ({ inTown_s: step >= 1, inMarket_s: false, inCave_s: false });

  it('"why no cave yet" is "no market yet"', () => {
    const trace = simulateTrace(table, 8, noMarketWorld, true);
    expect(replayTrace(table, trace).ok).toBe(true);
    const effect = parseEffect(table, 'never toCave');
    expect(effectHolds(effect, trace)).toBe(true);
    const cause = closestCause(table, trace, effect);
    expect(cause).toBeDefined();
    // One change suffices, and it is the market predicate going from false to true.
    expect(cause!.changes).toHaveLength(1);
    expect(cause!.changes[0].text).toMatch(/inMarket/);
    expect(cause!.changes[0]).toMatchObject({ from: false, to: true });
    // The counterfactual run really chooses the cave passage at the effect step.
    const last = cause!.counterfactual[cause!.counterfactual.length - 1];
    expect(last.updates.map((u) => table.updates[u].text).join()).toMatch(/toCave/);
    const text = renderCause(table, trace, effect, cause);
    expect(text).toMatch(/inMarket s was false/);
    expect(cause!.assumed).toHaveLength(0);
    // "no market yet": the same single change works at every step after the town was reached.
    expect(cause!.sameCauseSteps.length).toBeGreaterThan(3);
    expect(text).toMatch(/trace diff/);
  });

  it('needs two changes when neither town nor market was reached', () => {
    const trace = simulateTrace(table, 8, () => ({ inTown_s: false, inMarket_s: false, inCave_s: false }), true);
    const cause = closestCause(table, trace, parseEffect(table, 'never toCave'));
    expect(cause).toBeDefined();
    expect(cause!.changes.length).toBe(2);
    expect(new Set(cause!.changes.map((c) => c.text.split(' ')[0]))).toEqual(new Set(['inMarket', 'inTown']));
  });

  it('the counterfactual run is a run of the controller (replays against the table)', () => {
    const trace = simulateTrace(table, 10, (s) => ({ inTown_s: s % 3 === 1, inMarket_s: false, inCave_s: false }));
    const cause = closestCause(table, trace, parseEffect(table, 'never toCave'))!;
    for (let k = 1; k < cause.counterfactual.length; k++)
      expect(cause.counterfactual[k].state).toBe(cause.counterfactual[k - 1].next);
    expect(cause.counterfactual[0].state).toBe(trace[0].stateBefore);
  });

  it('explains a chosen update at a step, and rejects unknown updates', () => {
    const trace = simulateTrace(table, 6, noMarketWorld, true);
    const at = trace.findIndex((r) => r.updates.some((u) => !u.isSelfUpdate));
    expect(at).toBeGreaterThanOrEqual(0);
    const first = trace[at].updates.find((u) => !u.isSelfUpdate)!;
    const effect = parseEffect(table, `${first.text} at ${at}`);
    const cause = closestCause(table, trace, effect)!;
    expect(cause.effectStep).toBe(at);
    const last = cause.counterfactual[cause.counterfactual.length - 1];
    expect(last.updates).not.toContain(first.index);
    expect(cause.changes.length).toBeGreaterThanOrEqual(1);
    expect(() => parseEffect(table, 'never toMoon')).toThrow(/no update/);
    expect(() => parseEffect(table, 'sometimes toCave')).toThrow(/cannot read effect/);
  });
});
