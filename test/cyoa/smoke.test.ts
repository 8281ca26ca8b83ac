import { describe, expect, it } from 'vitest';
import { runEvaluation } from '../../examples/cyoa/eval.js';

describe('smoke', () => {
  it('runs', async () => {
    for (const h of [0, 0.3, 0.6]) for (const repair of [0, 3]) {
      const r = await runEvaluation({ tasks: ['adventure', 'forest', 'choices'], games: 20, steps: 12, model: 'sim', seed: 1, repair, hallucinationRate: h });
      console.log(h, repair, r.rows.map((x) => `${x.task}:${x.observedAdherence}/${x.proceduralAdherence} hall=${x.hallucinationErrors} ar=${x.arithmeticErrors}`).join('  '), r.seconds.toFixed(1));
    }
    expect(1).toBe(1);
  }, 120_000);
});
