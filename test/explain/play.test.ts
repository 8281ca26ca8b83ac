import { describe, expect, it } from 'vitest';
import { explainUnrealizable } from '../../src/explain/explain.js';
import { playAsController, playAsEnvironment, type PlayIO } from '../../src/explain/play.js';
import { partLocation } from '../../src/explain/words.js';
import { loadSpecs } from '../../src/report/build.js';
import { synthesize } from '../../src/synthesis/index.js';

function scripted(answers: string[]): PlayIO & { out: string[] } {
  const out: string[] = [];
  return {
    out,
    ask: async (prompt) => {
      out.push(prompt);
      return answers.shift();
    },
    print: (t) => out.push(t),
  };
}

describe('tslc play', () => {
  it('as the controller: choosing the forbidden passage violates strict.tsl:3 at that step', async () => {
    const spec = await loadSpecs(['specs/conflicts/adventure.tsl', 'specs/conflicts/strict.tsl']);
    const e = explainUnrealizable(spec, { budgetMs: 20_000 });
    if (e.verdict !== 'unrealizable' || !e.counterstrategy) throw new Error('expected a counterstrategy');
    const game = e.core.coreSpec;
    const group = game.signals[0];
    const cave = group.updates.findIndex((u) => u.includes('toCave')) + 1;
    const keep = group.updates.findIndex((u) => u === group.selfUpdate) + 1;
    // Keep twice, then give in and send the player to the cave.
    const io = scripted(['oops', String(keep), String(keep), String(cave)]);
    const outcome = await playAsController(game, e.counterstrategy, io);
    expect(outcome.kind).toBe('violated');
    if (outcome.kind !== 'violated') return;
    expect(outcome.step).toBe(3);
    expect(outcome.parts.map(partLocation)).toEqual(['strict.tsl:3']);
    expect(io.out.join('\n')).toContain('please answer 1–');
  });

  it('as the controller: never choosing the cave loops without ever satisfying F inCave', async () => {
    const spec = await loadSpecs(['specs/conflicts/adventure.tsl', 'specs/conflicts/strict.tsl']);
    const e = explainUnrealizable(spec, { budgetMs: 20_000 });
    if (e.verdict !== 'unrealizable' || !e.counterstrategy) throw new Error('expected a counterstrategy');
    const group = e.core.coreSpec.signals[0];
    const keep = String(group.updates.findIndex((u) => u === group.selfUpdate) + 1);
    const io = scripted(Array(20).fill(keep));
    const outcome = await playAsController(e.core.coreSpec, e.counterstrategy, io);
    expect(outcome.kind).toBe('loop');
    if (outcome.kind !== 'loop') return;
    expect(outcome.pending.map(partLocation)).toContain('adventure.tsl:23');
    // strict.tsl:3 (never toCave) is still pending, but keeping the passage never breaks it:
    // only F inCave is named as never satisfied.
    expect(outcome.pending.map(partLocation)).toContain('strict.tsl:3');
    expect(outcome.unsatisfied.map(partLocation)).toEqual(['adventure.tsl:23']);
    const closing = io.out[io.out.length - 1];
    expect(closing).toMatch(/adventure\.tsl:23 \(F inCave\(s\)\) would never be satisfied\.$/);
    expect(closing).not.toContain('strict.tsl');
  });

  it('as the environment: counts the controller’s states in the singular too', async () => {
    const spec = await loadSpecs(['specs/forest.tsl']);
    const r = synthesize(spec, { timeoutMs: 20_000 });
    if (r.verdict !== 'realizable') throw new Error('expected realizable');
    const io = scripted([]);
    await playAsEnvironment(spec, r.controller, io);
    expect(r.controller.stateCount).toBe(1);
    expect(io.out[0]).toContain('the controller (1 state) tries to satisfy');
  });

  it('as the environment: the controller answers and stops at end of input', async () => {
    const spec = await loadSpecs(['specs/conflicts/shopkeeper.tsl']);
    const r = synthesize(spec, { timeoutMs: 20_000 });
    if (r.verdict !== 'realizable') throw new Error('expected realizable');
    const io = scripted(['y']);
    const outcome = await playAsEnvironment(spec, r.controller, io);
    expect(outcome.kind).toBe('stopped');
    expect(io.out.join('\n')).toContain('the controller chooses [storyPassage <- toMarket s]');
  });
});
