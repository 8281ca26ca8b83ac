import { describe, expect, it } from 'vitest';
import { InterveningMonitor, anyViolation, describeLtl, predict, type Turn } from '../../runtime/monitor/intervene.js';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { G, X, ap, bin, not, rng } from './helpers.js';

const properties = [
  { name: 'no-bad', formula: G(not(ap('bad'))) },
  { name: 'resp', formula: G(bin('->', ap('req'), X(ap('ack')))) },
];

type Out = 'req' | 'ack' | 'bad' | 'idle';

/** A seeded stochastic "model": careless by default, more careful when reminded. */
function agent(seed: number, care: { bad: number; ack: number }, careReminded = { bad: 0.02, ack: 0.9 }) {
  const r = rng(seed);
  return (history: readonly Turn<string, Out>[], input: string): Out => {
    const reminded = input.includes('Important:');
    const c = reminded ? careReminded : care;
    const last = history[history.length - 1]?.output;
    if (last === 'req' && r() < c.ack) return 'ack';
    const x = r();
    if (x < c.bad) return 'bad';
    return x < 0.5 ? 'req' : 'idle';
  };
}

const label = (t: Turn<string, Out>) => new Set([t.output]);

async function violationRate(strategy: 'none' | 'resample' | 'inject' | 'switch', seed: number): Promise<number> {
  const m = new InterveningMonitor<string, Out>({
    properties,
    generate: agent(seed, { bad: 0.15, ack: 0.4 }),
    alternative: agent(seed + 1000, { bad: 0.01, ack: 0.95 }),
    label,
    strategy,
    threshold: 0.3,
    horizon: 1,
    samples: 3,
    emptyInput: '',
  });
  const steps = 300;
  for (let i = 0; i < steps; i++) await m.step('continue the story');
  const v = m.violations();
  return (v['no-bad'] + v.resp) / steps;
}

describe('predictive monitor (sampling estimate of Definition 4.7)', () => {
  it('estimates the probability of a violation within k steps', () => {
    const mon = new ProgressionMonitor(properties);
    const r = rng(1);
    const p = predict(mon, () => [r() < 0.3 ? new Set(['bad']) : new Set<string>()], { samples: 4000 });
    expect(p.probability).toBeGreaterThan(0.27);
    expect(p.probability).toBeLessThan(0.33);
    expect(p.risk['no-bad']).toBeCloseTo(p.probability, 5);
    // Over k = 3 steps the chance of seeing at least one violation grows to 1 − 0.7³ ≈ 0.657.
    const p3 = predict(mon, () => [0, 1, 2].map(() => (r() < 0.3 ? new Set(['bad']) : new Set<string>())), { samples: 4000 });
    expect(p3.probability).toBeGreaterThan(0.62);
    expect(p3.probability).toBeLessThan(0.69);
    // The real monitor is untouched by prediction.
    expect(mon.steps).toBe(0);
  });

  it('depends on the monitor state: after req, a missing ack is a predicted violation', () => {
    const mon = new ProgressionMonitor(properties);
    const quiet = () => [new Set<string>()];
    expect(predict(mon, quiet, { samples: 5 }).probability).toBe(0);
    mon.step(new Set(['req']));
    const p = predict(mon, quiet, { samples: 5, pattern: anyViolation(['resp']) });
    expect(p.probability).toBe(1);
    expect(p.risk).toEqual({ 'no-bad': 0, resp: 1 });
  });
});

describe('intervening monitor (Algorithm 3)', () => {
  it('each intervention lowers the violation rate compared with no intervention (fixed seeds)', async () => {
    for (const seed of [1, 2, 3]) {
      const none = await violationRate('none', seed);
      expect(none).toBeGreaterThan(0.1);
      for (const strategy of ['resample', 'inject', 'switch'] as const) {
        const rate = await violationRate(strategy, seed);
        expect(rate, `${strategy} seed ${seed}`).toBeLessThan(none * 0.7);
      }
    }
  });

  it('records each intervention in the trace, with the property at risk named in plain English', async () => {
    const m = new InterveningMonitor<string, Out>({
      properties: [properties[0], { ...properties[1], description: 'answer every request in the next step' }],
      generate: (h) => (h[h.length - 1]?.output === 'req' ? 'idle' : 'req'),
      label,
      strategy: 'inject',
      threshold: 0.5,
      emptyInput: '',
    });
    await m.step('go');
    const e = await m.step('go');
    expect(e.risk).toBe(1);
    expect(e.intervention).toMatchObject({ kind: 'inject', properties: ['resp'], originalInput: 'go' });
    expect(e.input).toContain('answer every request in the next step');
    expect(m.trace).toHaveLength(2);
    expect(m.trace[0].intervention).toBeUndefined();
  });

  it('describes formulas in English', () => {
    expect(describeLtl(properties[1].formula)).toBe('always (if req then (in the next step ack))');
    expect(describeLtl(properties[0].formula)).toBe('always not bad');
  });
});
