import { test } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadTslGame } from '../../src/tsl/index.js';
import { composeGames } from '../../src/codegen/compose.js';
import { synthesize } from '../../src/synthesis/index.js';
test('seed', () => {
  const load = (f: string) => loadTslGame(f, readFileSync(f, 'utf8')).game;
  const a = load('specs/adventure.tsl'), fo = load('specs/forest.tsl'), c = load('specs/choices.tsl');
  for (const [name, parts] of [['a', [a]], ['af', [a, fo]], ['ac', [a, c]], ['acf', [a, c, fo]]] as const) {
    const spec = composeGames(name, parts as never);
    const r = synthesize(spec, { timeoutMs: 60000, onProgress: (m) => console.log('  ', m) });
    console.log(name, r.verdict, r.seconds.toFixed(2), r.verdict === 'realizable' ? `${r.controller.stateCount} (raw ${r.stats.unminimizedStates})` : '');
  }
});
