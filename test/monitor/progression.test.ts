import { describe, expect, it } from 'vitest';
import { ProgressionMonitor } from '../../runtime/monitor/progression.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { F, G, X, and, ap, bin, evalFinite, evalLasso, not, or, randomFormula, randomLetter, rng } from './helpers.js';

const L = (...names: string[]): Set<string> => new Set(names);

describe('progression monitor: Table 1 behaviour', () => {
  it('G p is violated at the first step without p, with a witness of the steps that changed the formula', () => {
    const m = new ProgressionMonitor([{ name: 'always-p', formula: G(ap('p')) }]);
    expect(m.step(L('p'))).toEqual([]);
    expect(m.status()[0].verdict).toBe('pending');
    expect(m.step(L('q'))).toEqual([{ name: 'always-p', verdict: 'violated' }]);
    const s = m.status()[0];
    expect(s.verdict).toBe('violated');
    expect(s.firstViolationStep).toBe(1);
    // G p progressed under {p} is G p again (no change), so only the violating step is in the witness.
    expect(s.witness).toEqual([{ step: 1, labels: [], formula: 'false' }]);
    // A verdict is final without recovery.
    m.step(L('p'));
    expect(m.status()[0].verdict).toBe('violated');
  });

  it('F p is satisfied once p holds; a U b tracks its obligation', () => {
    const m = new ProgressionMonitor([
      { name: 'ev', formula: F(ap('p')) },
      { name: 'until', formula: bin('U', ap('a'), ap('b')) },
    ]);
    m.step(L('a'));
    expect(m.status().map((s) => s.verdict)).toEqual(['pending', 'pending']);
    expect(m.status()[1].formula).toBe('a U b');
    m.step(L('p', 'b'));
    expect(m.status().map((s) => s.verdict)).toEqual(['satisfied', 'satisfied']);
    expect(m.status()[0].firstSatisfactionStep).toBe(1);
  });

  it('a response property records each changed formula in its witness', () => {
    const m = new ProgressionMonitor([{ name: 'resp', formula: G(bin('->', ap('req'), X(ap('ack')))) }]);
    m.step(L('req'));
    const mid = m.status()[0];
    expect(mid.witness).toHaveLength(1);
    expect(mid.witness[0].labels).toEqual(['req']);
    expect(mid.witness[0].formula).toContain('ack');
    m.step(L());
    const s = m.status()[0];
    expect(s.verdict).toBe('violated');
    expect(s.witness.map((w) => w.step)).toEqual([0, 1]);
    expect(s.witness[1].formula).toBe('false');
  });

  it('recovery mode (TRAC_R) restarts a property after each verdict and counts occurrences', () => {
    const m = new ProgressionMonitor([{ name: 'resp', formula: G(bin('->', ap('req'), X(ap('ack')))) }], {
      recovery: true,
    });
    const trace = [L('req'), L(), L('req'), L('ack'), L('req'), L(), L()];
    trace.forEach((l, i) => m.step(l, 100 + i));
    const s = m.status()[0];
    expect(s.violations).toBe(2);
    expect(s.firstViolationStep).toBe(1);
    expect(s.firstViolationAt).toBe(101);
    expect(s.violationWitness?.map((w) => w.step)).toEqual([0, 1]);
    // After the second violation (step 5) the property restarted from G(req -> X ack).
    expect(s.formula).toContain('G');
  });

  it('W, R, M and X follow their definitions', () => {
    const m = new ProgressionMonitor([
      { name: 'W', formula: bin('W', not(ap('c')), ap('m')) },
      { name: 'R', formula: bin('R', ap('a'), ap('b')) },
      { name: 'M', formula: bin('M', ap('a'), ap('b')) },
      { name: 'X', formula: X(ap('a')) },
    ]);
    m.step(L('b'));
    expect(m.status().map((s) => s.verdict)).toEqual(['pending', 'pending', 'pending', 'pending']);
    m.step(L('a', 'b'));
    expect(m.status().map((s) => s.verdict)).toEqual(['pending', 'satisfied', 'satisfied', 'satisfied']);
    m.step(L('c'));
    expect(m.status()[0].verdict).toBe('violated');
  });

  it('rejects properties over too many propositions with a clear error', () => {
    const big = and(...Array.from({ length: 31 }, (_, i) => ap(`p${i}`)));
    expect(() => new ProgressionMonitor([{ name: 'big', formula: G(big) }])).toThrow(/31 atomic propositions/);
    const ok = and(...Array.from({ length: 30 }, (_, i) => ap(`p${i}`)));
    const m = new ProgressionMonitor([{ name: 'ok', formula: G(ok) }]);
    m.step(new Set(Array.from({ length: 30 }, (_, i) => `p${i}`)));
    expect(m.status()[0].verdict).toBe('pending');
    m.step(new Set(['p29']));
    expect(m.status()[0].verdict).toBe('violated');
  });

  it('rejects duplicate property names', () => {
    expect(() => new ProgressionMonitor([{ name: 'a', formula: ap('p') }, { name: 'a', formula: ap('q') }])).toThrow(/duplicate/);
  });
});

describe('progression monitor against reference semantics', () => {
  const aps = ['a', 'b', 'c'];

  it('progressing through a prefix preserves the meaning on every lasso continuation (Bacchus–Kabanza)', () => {
    const r = rng(7);
    for (let n = 0; n < 400; n++) {
      const f = randomFormula(r, 4, aps);
      const prefix = Array.from({ length: 1 + Math.floor(r() * 5) }, () => randomLetter(r, aps));
      const lp = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomLetter(r, aps));
      const loop = Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomLetter(r, aps));
      const m = new ProgressionMonitor([{ name: 'p', formula: f }]);
      prefix.forEach((l) => m.step(l));
      const progressed = m.snapshot().properties[0].current;
      const whole = evalLasso(f, [...prefix, ...lp], loop);
      expect(evalLasso(progressed, lp, loop), JSON.stringify(f)).toBe(whole);
      // LTL3 soundness: a verdict agrees with every extension.
      const v = m.status()[0].verdict;
      if (v === 'violated') expect(whole).toBe(false);
      if (v === 'satisfied') expect(whole).toBe(true);
    }
  });

  it('LTLf end-of-log semantics matches finite-trace evaluation', () => {
    const r = rng(11);
    for (let n = 0; n < 400; n++) {
      const noX = n % 2 === 0;
      const f = randomFormula(r, 4, aps, !noX);
      const trace = Array.from({ length: 1 + Math.floor(r() * 6) }, () => randomLetter(r, aps));
      const m = new ProgressionMonitor([{ name: 'p', formula: f }]);
      let decidedEarly = false;
      trace.forEach((l, i) => {
        const reached = m.step(l);
        if (reached.length > 0 && i < trace.length - 1) decidedEarly = true;
      });
      const fin = m.finish('ltlf')[0];
      expect(fin.semantics).toBe('ltlf');
      // Every verdict, including one reached mid-log, must agree with LTLf (weak !X at the end).
      expect(fin.verdict, JSON.stringify(f)).toBe(evalFinite(f, trace) ? 'satisfied' : 'violated');
      if (decidedEarly) expect(fin.verdict).toBe(m.status()[0].verdict);
      const l3 = m.finish('ltl3')[0];
      expect(l3.verdict).toBe(m.status()[0].verdict);
    }
  });

  it('formula size stays bounded over long random traces', () => {
    const r = rng(3);
    for (let n = 0; n < 40; n++) {
      const f = randomFormula(r, 4, aps);
      const m = new ProgressionMonitor([{ name: 'p', formula: f }], { recovery: true });
      let after1000 = 0;
      const states = new Set<string>();
      for (let i = 0; i < 3000; i++) {
        m.step(randomLetter(r, aps));
        states.add(m.status()[0].formula);
        if (i === 999) after1000 = m.formulaCount;
      }
      // Progressed formulas are drawn from a small finite set: later steps add (almost) nothing.
      expect(m.formulaCount, JSON.stringify(f)).toBeLessThanOrEqual(after1000 + 5);
      expect(states.size).toBeLessThan(100);
    }
  });

  it('snapshot → JSON → restore continues exactly like the original monitor', () => {
    const r = rng(5);
    const props = [
      { name: 'resp', formula: G(bin('->', ap('a'), F(ap('b')))) },
      { name: 'safe', formula: G(or(not(ap('a')), not(ap('c')))) },
      { name: 'until', formula: and(bin('U', ap('a'), ap('b')), F(ap('c'))) },
    ];
    const trace = Array.from({ length: 60 }, () => randomLetter(r, aps));
    const whole = new ProgressionMonitor(props, { recovery: true });
    trace.forEach((l) => whole.step(l));
    const first = new ProgressionMonitor(props, { recovery: true });
    trace.slice(0, 25).forEach((l) => first.step(l));
    const restored = ProgressionMonitor.restore(JSON.parse(JSON.stringify(first.snapshot())));
    trace.slice(25).forEach((l) => restored.step(l));
    expect(restored.status()).toEqual(whole.status());
    expect(restored.steps).toBe(60);
  });

  it('fork is independent of the original', () => {
    const m = new ProgressionMonitor([{ name: 'g', formula: G(ap('a')) }]);
    m.step(L('a'));
    const f = m.fork();
    f.step(L());
    expect(f.status()[0].verdict).toBe('violated');
    expect(m.status()[0].verdict).toBe('pending');
  });

  it('fresh() monitors share memo tables yet behave exactly like new monitors, interleaved on random traces', () => {
    const r = rng(11);
    for (let n = 0; n < 30; n++) {
      const props = [
        { name: 'p', formula: randomFormula(r, 4, aps) },
        { name: 'q', formula: randomFormula(r, 3, aps) },
        { name: 'const', formula: (n % 2 === 0 ? { op: 'false' } : { op: 'true' }) as LtlNode },
      ];
      const options = { recovery: n % 3 !== 0, recoverAfter: n % 2 === 0 ? ('violation' as const) : ('verdict' as const), witnessLimit: 3 };
      const template = new ProgressionMonitor(props, options);
      const shared = [template.fresh(), template.fresh(), template.fresh()];
      const alone = shared.map(() => new ProgressionMonitor(props, options));
      // Steps of the three runs interleave, so each fresh monitor meets rows the others filled.
      for (let i = 0; i < 40; i++) {
        const k = Math.floor(r() * 3);
        const letter = randomLetter(r, aps);
        expect(shared[k].step(letter, i)).toEqual(alone[k].step(letter, i));
      }
      // Formulas print the same up to the order of commutative operands (term ids differ between
      // a shared store and a new one), so they are compared without their text.
      const blind = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (key, v: unknown) => (key === 'formula' ? typeof v : v)));
      shared.forEach((m, k) => {
        expect(blind(m.status())).toEqual(blind(alone[k].status()));
        expect(blind(m.finish('ltlf'))).toEqual(blind(alone[k].finish('ltlf')));
        expect(blind(m.finish('ltl3'))).toEqual(blind(alone[k].finish('ltl3')));
      });
      // The template itself was never stepped.
      expect(template.steps).toBe(0);
    }
  });

  it('witnessAfterFirstViolation: false keeps the first violation\'s witness and records nothing after it', () => {
    const props = [{ name: 'resp', formula: G(bin('->', ap('r'), X(ap('a')))) }];
    const m = new ProgressionMonitor(props, { recovery: true, witnessAfterFirstViolation: false });
    const full = new ProgressionMonitor(props, { recovery: true });
    for (const l of [L('r'), L(), L('r'), L('a'), L('r'), L(), L('r')]) {
      m.step(l);
      full.step(l);
    }
    const [s, f] = [m.status()[0], full.status()[0]];
    expect(s.violations).toBe(2);
    expect(s.violationWitness).toEqual(f.violationWitness);
    expect(s.violationWitness?.map((w) => w.step)).toEqual([0, 1]);
    expect(f.witness.length).toBeGreaterThan(0);
    expect(s.witness).toEqual([]);
    const restored = ProgressionMonitor.restore(JSON.parse(JSON.stringify(m.snapshot())));
    restored.step(L('r'));
    expect(restored.status()[0].witness).toEqual([]);
  });

  it('record labels: missing and false are both false', () => {
    const m = new ProgressionMonitor([{ name: 'g', formula: G(ap('a')) as LtlNode }]);
    m.step({ a: true, b: undefined });
    expect(m.status()[0].verdict).toBe('pending');
    m.step({ b: true });
    expect(m.status()[0].verdict).toBe('violated');
  });
});

describe('progression monitor: large formulas', () => {
  it('a chain of 200 xor operators is converted once per operand and polarity (it took 2^n conversions)', () => {
    // ((q0 xor q1) xor q2) … over 25 propositions used in turn: its value is the parity of the
    // number of operands that hold.
    const name = (i: number) => `q${i % 25}`;
    let chain: LtlNode = ap(name(0));
    for (let i = 1; i <= 200; i++) chain = bin('xor', chain, ap(name(i)));
    const parity = (letter: Set<string>) => Array.from({ length: 201 }, (_, i) => letter.has(name(i))).filter(Boolean).length % 2 === 1;
    const m = new ProgressionMonitor([{ name: 'parity', formula: G(chain) }]);
    const holds = L('q0', 'q3');
    const fails = L('q3', 'q7');
    expect([parity(holds), parity(fails)]).toEqual([true, false]);
    expect(m.step(holds)).toEqual([]);
    expect(m.step(fails)).toEqual([{ name: 'parity', verdict: 'violated' }]);
  }, 20_000);
});
