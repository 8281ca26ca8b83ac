import { test } from 'vitest';
import { buildControllerTable } from '../../src/codegen/table.js';
import { closestCause, parseEffect, renderCause } from '../../src/explain/trace-cause.js';
import { loadGame } from '../../src/frontend/load.js';
import { synthesize } from '../../src/synthesis/index.js';
import { simulateTrace } from './helpers.js';
test('x', async () => {
  const spec = await loadGame('specs/conflicts/adventure.tsl');
  const r = synthesize(spec, { timeoutMs: 30_000 });
  if (r.verdict !== 'realizable') throw new Error();
  const table = buildControllerTable(spec, r.controller);
  for (const env of [(s: number) => ({ inTown_s: s >= 1, inMarket_s: false, inCave_s: false }), () => ({ inTown_s: false, inMarket_s: false, inCave_s: false })]) {
    const trace = simulateTrace(table, 8, env);
    const e = parseEffect(table, 'never toCave');
    console.log(renderCause(table, trace, e, closestCause(table, trace, e)));
  }
}, 60000);
