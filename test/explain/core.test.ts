import { describe, expect, it } from 'vitest';
import { evaluateOnLasso } from '../../src/automata/lasso.js';
import { type ControllerModel, playAgainst, type Valuation, violatedOn } from '../../src/explain/counterplay.js';
import { restrictTo } from '../../src/explain/core.js';
import { explainUnrealizable, formatExplanation, type UnrealizableExplanation } from '../../src/explain/explain.js';
import { partLocation } from '../../src/explain/words.js';
import type { GameSpec } from '../../src/game/spec.js';
import { loadSpecs } from '../../src/report/build.js';
import { checkRealizability } from '../../src/synthesis/index.js';
import { mulberry32 as rng } from '../../runtime/random.js';
import { corpusPath } from '../support/corpus.js';

// Unrealizable corpus specs our solver decides well within 20 s (measured: each < 2 s alone).
const CORPUS = corpusPath('syntcomp-tsl') + '/';
const corpusSpecs = ['test8_88f351a6', 'test4_4b82b1f4', 'test9_dd3a27e1', 'Room_a50cadd7', 'CheckWindows_54e1f7d2', 'CheckAlarm_6bea956e'].map(
  (n) => [`${CORPUS}${n}.tsl`],
);
const conflicts: Array<{ files: string[]; core: string[] }> = [
  { files: ['specs/conflicts/adventure.tsl', 'specs/conflicts/strict.tsl'], core: ['adventure.tsl:23', 'strict.tsl:3'] },
  { files: ['specs/conflicts/shopkeeper.tsl', 'specs/conflicts/explorer.tsl'], core: ['shopkeeper.tsl:3', 'explorer.tsl:3'] },
];


/**
 * A random Mealy machine over the spec's updates (one update per signal, free outputs random),
 * built lazily per (state, input) — the same distribution as drawing the whole table up front.
 */
function randomController(spec: GameSpec, seed: number): ControllerModel<number> {
  const random = rng(seed);
  const states = 1 + Math.floor(random() * 4);
  const table = new Map<string, { output: Valuation; next: number }>();
  const grouped = new Set(spec.signals.flatMap((g) => g.updates));
  const decide = (s: number, input: Valuation | undefined) => {
    const key = `${s}|${input ? spec.inputs.map((p) => (input[p.name] ? 1 : 0)).join('') : '-'}`;
    let hit = table.get(key);
    if (!hit) {
      const output: Record<string, boolean> = {};
      for (const o of spec.outputs) if (!grouped.has(o.name)) output[o.name] = random() < 0.5;
      for (const g of spec.signals) {
        const pick = Math.floor(random() * g.updates.length);
        g.updates.forEach((u, i) => (output[u] = i === pick));
      }
      hit = { output, next: Math.floor(random() * states) };
      table.set(key, hit);
    }
    return hit;
  };
  return {
    initial: 0,
    key: (s) => String(s),
    output: (s, input) => decide(s, input).output,
    next: (s, input) => decide(s, spec.semantics === 'moore' ? undefined : input).next,
  };
}

async function explained(files: string[]): Promise<{ spec: GameSpec; e: UnrealizableExplanation }> {
  const spec = await loadSpecs(files);
  const e = explainUnrealizable(spec, { budgetMs: 20_000 });
  if (e.verdict !== 'unrealizable') throw new Error(`${files.join(' + ')}: expected unrealizable, got ${e.verdict}`);
  return { spec, e };
}

describe('unrealizability cores', () => {
  for (const files of [...corpusSpecs, ...conflicts.map((c) => c.files)]) {
    it(`${files.map((f) => f.split('/').pop()).join(' + ')}: core is unrealizable and every member is needed`, async () => {
      const { spec, e } = await explained(files);
      const core = e.core;
      expect(core.members.length).toBeGreaterThan(0);
      expect(core.minimal).toBe(true);
      expect(checkRealizability(core.coreSpec, { timeoutMs: 20_000 }).verdict).toBe('unrealizable');
      for (const m of core.members) {
        const without = restrictTo(spec, core.members.filter((x) => x !== m));
        expect(checkRealizability(without, { timeoutMs: 20_000 }).verdict, `without ${partLocation(m.part)}`).toBe('realizable');
      }
      expect(formatExplanation(e)).toMatch(/^unrealizable: /);
    }, 60_000);
  }

  for (const c of conflicts) {
    it(`composition ${c.core.join(' / ')}: each file alone is realizable, the core spans both files`, async () => {
      for (const f of c.files) expect(checkRealizability(await loadSpecs([f]), { timeoutMs: 20_000 }).verdict, f).toBe('realizable');
      const { e } = await explained(c.files);
      expect(e.core.members.map((m) => partLocation(m.part)).sort()).toEqual([...c.core].sort());
      expect(formatExplanation(e)).toContain(`${c.core[0]} and ${c.core[1]} cannot both hold`);
    }, 60_000);
  }
});

describe('counterplay replayed against random controllers', () => {
  for (const files of [...corpusSpecs, ...conflicts.map((c) => c.files)]) {
    it(`${files.map((f) => f.split('/').pop()).join(' + ')}: every random controller violates a core guarantee`, async () => {
      const { e } = await explained(files);
      const coreSpec = e.core.coreSpec;
      expect(e.counterstrategy).toBeDefined();
      expect(e.story).toBeDefined();
      const coreParts = e.core.members.map((m) => m.part);
      // The story names only core lines, and at least one.
      expect(e.story!.named.length).toBeGreaterThan(0);
      for (const p of e.story!.named) expect(coreParts).toContain(p);
      const environmentSide = [...coreSpec.initially, ...coreSpec.assumptions];
      for (let seed = 1; seed <= 150; seed++) {
        const play = playAgainst(e.counterstrategy!, randomController(coreSpec, seed));
        // The environment keeps its promises …
        for (const a of environmentSide) expect(evaluateOnLasso(a.formula, play.lasso), `seed ${seed}: assumption ${partLocation(a)}`).toBe(true);
        // … and the controller breaks a named core line.
        const broken = violatedOn(play, coreParts);
        expect(broken.length, `seed ${seed}`).toBeGreaterThan(0);
      }
    }, 60_000);
  }
});
