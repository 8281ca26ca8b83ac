// LTLf end-of-trace verdicts of the progression monitor against a direct finite-trace evaluator,
// with X / !X placed so that they reach past the last event (where strong and weak next differ).
import { describe, expect, it } from 'vitest';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import { parseLtl } from '../../runtime/ltl/parse.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { G, X, ap, bin, evalFinite, not, randomFormula, randomLetter, rng } from './helpers.js';

const L = (...names: string[]): Set<string> => new Set(names);
const aps = ['a', 'b'];

describe('progression monitor: LTLf at the end of the trace', () => {
  it('G (a -> !X true) on one step {a} is satisfied (weak next at the end), though LTL3 says violated', () => {
    const f = parseLtl('G (a -> !X true)');
    const m = new ProgressionMonitor([{ name: 'p', formula: f }]);
    expect(m.step(L('a'))).toEqual([{ name: 'p', verdict: 'violated' }]);
    expect(m.finish('ltl3')[0].verdict).toBe('violated');
    const fin = m.finish('ltlf')[0];
    expect(fin.verdict).toBe('satisfied');
    expect(fin.violations).toBe(0);
    expect(fin.firstViolationStep).toBeUndefined();
    expect(fin.violationWitness).toBeUndefined();
    // A second step exists: now the next step is real and the property really fails.
    m.step(L());
    expect(m.finish('ltlf')[0].verdict).toBe('violated');
    expect(m.finish('ltlf')[0].firstViolationStep).toBe(0);
  });

  it('X true reached as satisfied at the last step is violated under LTLf (strong next)', () => {
    const m = new ProgressionMonitor([{ name: 'p', formula: parseLtl('X X true') }]);
    m.step(L());
    m.step(L());
    expect(m.status()[0].verdict).toBe('satisfied');
    const fin = m.finish('ltlf')[0];
    expect(fin.verdict).toBe('violated');
    expect(fin.satisfactions).toBe(0);
    expect(fin.violations).toBe(1);
    expect(fin.firstViolationStep).toBe(1);
    expect(fin.firstSatisfactionStep).toBeUndefined();
  });

  it('recovery: a verdict at the last event is re-judged and the counts follow', () => {
    const f = parseLtl('G (a -> !X true)');
    const m = new ProgressionMonitor([{ name: 'p', formula: f }], { recovery: true });
    m.step(L('a')); // real violation: a step follows
    m.step(L());
    m.step(L('a')); // violation only under infinite semantics: this is the last step
    const fin = m.finish('ltlf')[0];
    expect(m.status()[0].violations).toBe(2);
    expect(fin.violations).toBe(1);
    expect(fin.firstViolationStep).toBe(0);
    expect(fin.verdict).toBe('satisfied');
  });

  it('matches the LTLf evaluator on random formulas with X / !X near the end of random traces', () => {
    const r = rng(2024);
    let lastStepVerdicts = 0;
    for (let n = 0; n < 600; n++) {
      // Half the formulas are wrapped so X / !X sit at the very end: G(φ -> X ψ), G(φ -> !X ψ), F(φ & !X ψ)...
      const base = randomFormula(r, 3, aps);
      const other = randomFormula(r, 2, aps);
      const shapes: LtlNode[] = [
        base,
        G(bin('->', ap('a'), not(X(other)))),
        G(bin('->', base, X(other))),
        bin('U', base, not(X({ op: 'true' }))),
        X(X(base)),
        not(X(not(base))),
      ];
      const f = shapes[n % shapes.length];
      const trace = Array.from({ length: 1 + Math.floor(r() * 5) }, () => randomLetter(r, aps));
      const expected = evalFinite(f, trace) ? 'satisfied' : 'violated';
      const m = new ProgressionMonitor([{ name: 'p', formula: f }]);
      let reachedAtEnd = false;
      trace.forEach((l, i) => {
        if (m.step(l).length > 0 && i === trace.length - 1) reachedAtEnd = true;
      });
      if (reachedAtEnd) lastStepVerdicts++;
      expect(m.finish('ltlf')[0].verdict, `${JSON.stringify(f)} on ${JSON.stringify(trace.map((l) => [...l]))}`).toBe(expected);
      // A snapshot taken at the end judges the same way after restore.
      const restored = ProgressionMonitor.restore(JSON.parse(JSON.stringify(m.snapshot())));
      expect(restored.finish('ltlf')[0].verdict).toBe(expected);
      // With recovery after violations, the first instance is judged the same way: there is a
      // violation (at the same step) exactly when the whole trace violates the formula.
      const rec = new ProgressionMonitor([{ name: 'p', formula: f }], { recovery: true, recoverAfter: 'violation' });
      for (const l of trace) rec.step(l);
      const recFin = rec.finish('ltlf')[0];
      expect(recFin.violations > 0, JSON.stringify(f)).toBe(expected === 'violated');
      expect(recFin.firstViolationStep).toBe(m.finish('ltlf')[0].firstViolationStep);
    }
    // The suite must actually exercise verdicts reached at the last step.
    expect(lastStepVerdicts).toBeGreaterThan(30);
  });
});
