import { describe, expect, it } from 'vitest';
import { AutomatonMonitor, type MonitorAutomaton } from '../../runtime/monitor/automaton.js';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { buildMonitorAutomaton } from '../../src/audit/automaton.js';
import { F, G, and, ap, evalLasso, not, randomFormula, randomLetter, rng } from './helpers.js';

describe('automaton monitor (LTL3)', () => {
  it('runs a hand-written monitor automaton given as JSON', () => {
    const a: MonitorAutomaton = JSON.parse(
      JSON.stringify({
        version: 1,
        aps: ['a'],
        positive: { initial: [0], states: [{ live: true, edges: [{ to: 0, guard: { op: 'ap', name: 'a' } }] }] },
        negative: {
          initial: [0],
          states: [
            { live: true, edges: [{ to: 0, guard: { op: 'true' } }, { to: 1, guard: { op: '!', arg: { op: 'ap', name: 'a' } } }] },
            { live: true, edges: [{ to: 1, guard: { op: 'true' } }] },
          ],
        },
      }),
    );
    const m = new AutomatonMonitor(a);
    expect(m.step(new Set(['a']))).toBe('pending');
    expect(m.step({ a: false })).toBe('violated');
    expect(m.decidedStep).toBe(1);
    m.reset();
    expect(m.verdict).toBe('pending');
    expect(m.step(new Set(['a']))).toBe('pending');
  });

  it('fresh() copies share the compiled automata but not their state', () => {
    const template = new AutomatonMonitor(buildMonitorAutomaton(G(ap('a'))));
    const [x, y] = [template.fresh(), template.fresh()];
    expect(x.step(new Set(['a']))).toBe('pending');
    expect(y.step(new Set())).toBe('violated');
    expect(y.decidedStep).toBe(0);
    expect([x.verdict, x.steps, x.decidedStep]).toEqual(['pending', 1, undefined]);
    expect([template.verdict, template.steps]).toEqual(['pending', 0]);
    expect(x.step(new Set())).toBe('violated');
    expect(x.decidedStep).toBe(1);
  });

  it('is complete where progression is not: GF a & FG !a is violated before any event', () => {
    const f = and(G(F(ap('a'))), F(G(not(ap('a')))));
    const m = new AutomatonMonitor(buildMonitorAutomaton(f));
    expect(m.verdict).toBe('violated');
    const p = new ProgressionMonitor([{ name: 'f', formula: f }]);
    for (let i = 0; i < 10; i++) p.step(new Set(i % 2 ? ['a'] : []));
    expect(p.status()[0].verdict).toBe('pending');
  });

  it('agrees with progression and with the lasso semantics on random formulas and traces', () => {
    const aps = ['a', 'b', 'c'];
    const r = rng(21);
    for (let n = 0; n < 150; n++) {
      const f = randomFormula(r, 3, aps);
      const auto = new AutomatonMonitor(JSON.parse(JSON.stringify(buildMonitorAutomaton(f))));
      const prog = new ProgressionMonitor([{ name: 'f', formula: f }]);
      const prefix = Array.from({ length: 6 }, () => randomLetter(r, aps));
      for (const l of prefix) {
        const pv = (prog.step(l), prog.status()[0].verdict);
        const av = auto.step(l);
        // Progression is sound: whatever it decides, the complete monitor has decided the same.
        if (pv !== 'pending') expect(av, JSON.stringify(f)).toBe(pv);
      }
      // LTL3 soundness of the automaton monitor on random lasso extensions.
      for (let t = 0; t < 3; t++) {
        const loop = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomLetter(r, aps));
        const truth = evalLasso(f, prefix, loop);
        if (auto.verdict === 'violated') expect(truth, JSON.stringify(f)).toBe(false);
        if (auto.verdict === 'satisfied') expect(truth, JSON.stringify(f)).toBe(true);
      }
    }
  });
});
