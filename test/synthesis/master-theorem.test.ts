// Atoms outside the parity route's old fragment go through the Master Theorem
// (src/ltl/master-theorem.ts, RestartComponent in src/synthesis/components.ts). The components'
// Emerson–Lei acceptance, run on ultimately periodic words, must agree with the textbook LTL
// semantics (`evaluateOnLasso`, no automata involved) on random formulas of every shape.
import { describe, expect, it } from 'vitest';
import { BDD_FALSE, BDD_TRUE, type BddNode } from '../../src/automata/bdd.js';
import { evaluateOnLasso, type Lasso } from '../../src/automata/lasso.js';
import { and, ap, F, type Formula, G, M, not, or, R, U, W, X } from '../../src/ltl/formula.js';
import { masterGuesses, muRewrite, nuRewrite } from '../../src/ltl/master-theorem.js';
import { parseFormula } from '../../src/ltl/parse.js';
import { toNnf } from '../../src/ltl/nnf.js';
import { type Components, componentsOf } from '../../src/synthesis/components.js';
import { synthesize } from '../../src/synthesis/index.js';
import { checkControllerAgainst, checkCounterstrategyAgainst } from '../../src/synthesis/selfcheck.js';
import { gameOf, rng } from './helpers.js';

const PROPS = ['a', 'b', 'c'];

function randomFormula(r: () => number, depth: number): Formula {
  if (depth <= 0 || r() < 0.2) {
    const p = ap(PROPS[Math.floor(r() * PROPS.length)]);
    return r() < 0.3 ? not(p) : p;
  }
  const sub = () => randomFormula(r, depth - 1);
  const ops = [
    () => and(sub(), sub()),
    () => or(sub(), sub()),
    () => X(sub()),
    () => F(sub()),
    () => G(sub()),
    () => U(sub(), sub()),
    () => W(sub(), sub()),
    () => R(sub(), sub()),
    () => M(sub(), sub()),
  ];
  return ops[Math.floor(r() * ops.length)]();
}

function randomLasso(r: () => number): Lasso {
  const letter = () => new Set(PROPS.filter(() => r() < 0.5));
  return {
    prefix: Array.from({ length: Math.floor(r() * 4) }, letter),
    cycle: Array.from({ length: 1 + Math.floor(r() * 4) }, letter),
  };
}

/** Whether the components' acceptance holds on the lasso: each component is run until its state and the cycle position repeat. */
function accepts(c: Components, w: Lasso): boolean {
  const { bdd } = c;
  const word = [...w.prefix, ...w.cycle];
  const next = (i: number) => (i + 1 < word.length ? i + 1 : w.prefix.length);
  const restrict = (n: BddNode, letter: ReadonlySet<string>): BddNode => {
    while (n > 1 && PROPS.includes(bdd.varName(bdd.varOf(n)))) n = letter.has(bdd.varName(bdd.varOf(n))) ? bdd.high(n) : bdd.low(n);
    return n;
  };
  const values = c.components.map((comp) => {
    const seen = new Map<string, number>();
    const marks: boolean[] = [];
    const states: number[] = [];
    let state = comp.initial;
    let i = 0;
    for (;;) {
      const key = `${state}@${i}`;
      const first = seen.get(key);
      if (first !== undefined) {
        if (comp.kind === 'buchi') return marks.slice(first).some(Boolean);
        return comp.current(states[first]) ?? false;
      }
      seen.set(key, marks.length);
      states.push(state);
      const groups = comp.groups(state).map((factors) => factors.reduce((acc, f) => bdd.and(acc, restrict(f, word[i])), BDD_TRUE));
      const step = comp.successor(state, groups);
      marks.push(step.mark);
      state = step.to;
      i = next(i);
    }
  });
  const a = c.acceptanceBdd;
  let n = c.acceptance;
  while (n !== BDD_TRUE && n !== BDD_FALSE) n = values[Number(a.varName(a.varOf(n)))] ? a.high(n) : a.low(n);
  return n === BDD_TRUE;
}

const componentsOfGuarantee = (f: Formula) => componentsOf(gameOf({ ins: PROPS, outs: [], guarantee: [f] }), [], () => {}, true);

describe('the Master Theorem', () => {
  it('rewrites as the theorem says: [X]ν keeps what X guesses, [Y]μ what Y guesses', () => {
    const f = toNnf(parseFormula('G (p | F (q W r))'));
    const fq = toNnf(parseFormula('F (q W r)'));
    const qwr = toNnf(parseFormula('q W r'));
    expect(nuRewrite(f, new Set())).toBe(toNnf(parseFormula('G p')));
    expect(nuRewrite(f, new Set([fq.id]))).toBe(parseFormula('true'));
    expect(muRewrite(fq, new Set())).toBe(toNnf(parseFormula('F (q U r)')));
    expect(muRewrite(fq, new Set([qwr.id]))).toBe(parseFormula('true'));
    const guesses = masterGuesses(f, { maxMu: 4, maxPairs: 64 })!;
    // X = ∅ (one alternative, nothing required) and X = {F(q W r)} (Y = ∅: G F(q U r); Y = {q W r}: F G(q W r)).
    expect(guesses.map((g) => g.mu.length)).toEqual([0, 1]);
    expect(guesses[1].alternatives).toEqual([
      { recurrent: [toNnf(parseFormula('F (q U r)'))], persistent: [] },
      { recurrent: [], persistent: [qwr] },
    ]);
  });

  it('gives up past its limits instead of dropping guesses', () => {
    const f = toNnf(parseFormula('G (F a | F b | F c | F (a & b) | F (b & c))'));
    expect(masterGuesses(f, { maxMu: 4, maxPairs: 64 })).toBeUndefined();
  });

  it('recognises exactly the words of random formulas outside the old fragment', () => {
    const r = rng(7);
    let outside = 0;
    const wrong: string[] = [];
    for (let k = 0; k < 1500; k++) {
      const f = toNnf(randomFormula(r, 3));
      const c = componentsOfGuarantee(f);
      if (c === undefined) continue;
      if (c.components.some((x) => x.label.startsWith('restarts'))) outside++;
      for (let j = 0; j < 25; j++) {
        const w = randomLasso(r);
        if (accepts(c, w) !== evaluateOnLasso(f, w)) {
          wrong.push(`${k}: word ${JSON.stringify({ prefix: w.prefix.map((l) => [...l]), cycle: w.cycle.map((l) => [...l]) })}`);
          break;
        }
      }
    }
    expect(wrong).toEqual([]);
    // The random formulas do exercise the theorem (nested F/G mixes are most of them).
    expect(outside).toBeGreaterThan(300);
  });

  it('decides the shapes TSL specs use, with witnesses that pass the independent checks', () => {
    const cases: Array<[string, 'realizable' | 'unrealizable']> = [
      // The controller can answer every request eventually and for good.
      ['G (req -> F (grant W done))', 'realizable'],
      ['G (req -> X F (done R grant))', 'realizable'],
      // grant must eventually stay on while req keeps coming, but ¬grant whenever stop: the
      // environment raises stop infinitely often.
      ['G (req -> F G grant) & G (stop -> !grant)', 'unrealizable'],
    ];
    for (const [text, expected] of cases) {
      const spec = gameOf({ ins: ['req', 'done', 'stop'], outs: ['grant'], guarantee: [text] });
      // Outside the fragment unless the Master Theorem is asked for (the default route choice).
      expect(componentsOf(spec, []), text).toBeUndefined();
      expect(componentsOf(spec, [], () => {}, true), text).toBeDefined();
      const result = synthesize(spec, { route: 'parity', timeoutMs: 10_000 });
      expect(result.verdict, text).toBe(expected);
      if (result.verdict === 'realizable') expect(checkControllerAgainst(spec, result.controller)).toEqual([]);
      if (result.verdict === 'unrealizable') expect(checkCounterstrategyAgainst(spec, result.counterstrategy)).toEqual([]);
    }
  });
  it('agrees with the bounded engine on random specs of the shapes TSL specs use', () => {
    const r = rng(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const lit = (names: readonly string[]) => (r() < 0.3 ? not(ap(pick(names))) : ap(pick(names)));
    const all = ['a', 'b', 'x', 'y'];
    const shapes = [
      () => G(or(lit(all), F(W(lit(all), lit(all))))),
      () => G(or(lit(all), X(F(R(lit(all), lit(all)))))),
      () => G(or(lit(['a', 'b']), F(G(lit(all))))),
      () => G(or(lit(all), X(U(lit(all), R(lit(all), lit(all)))))),
      () => G(or(lit(all), and(lit(all), F(W(lit(all), lit(all)))))),
    ];
    const tally = { parity: 0, both: 0 };
    const problems: string[] = [];
    for (let seed = 0; seed < 40; seed++) {
      const guarantee = Array.from({ length: 1 + Math.floor(r() * 2) }, () => pick(shapes)());
      const assume = r() < 0.5 ? [G(F(lit(['a', 'b'])))] : [];
      const spec = gameOf({ ins: ['a', 'b'], outs: ['x', 'y'], guarantee, assume }, `shapes-${seed}`);
      const p = synthesize(spec, { route: 'parity', timeoutMs: 3_000 });
      if (p.verdict === 'unknown') {
        if (/independent check/.test(p.reason)) problems.push(`seed ${seed}: ${p.reason}`);
        continue;
      }
      tally.parity++;
      const b = synthesize(spec, { route: 'bounded', timeoutMs: 3_000 });
      if (b.verdict === 'unknown') continue;
      tally.both++;
      if (b.verdict !== p.verdict) problems.push(`seed ${seed}: parity ${p.verdict}, bounded ${b.verdict}`);
    }
    expect(problems).toEqual([]);
    expect(tally.parity).toBeGreaterThanOrEqual(35);
    expect(tally.both).toBeGreaterThanOrEqual(30);
  });
});
