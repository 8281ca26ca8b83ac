/**
 * compareFormulas: known-equivalent and known-different pairs (differences only in the cycle,
 * only after a long prefix, only found by the product), 50,000-deep formulas, mutations of a
 * spec-shaped formula, and the failure message. Every `different` witness is re-checked here
 * with a third evaluator (src/automata/lasso.ts).
 */
import { describe, expect, it } from 'vitest';
import { BddManager } from '../../src/automata/bdd.js';
import { evaluateOnLasso, type Lasso as SrcLasso } from '../../src/automata/lasso.js';
import { translateLtlSymbolic } from '../../src/automata/translate.js';
import { exactlyOne } from '../../src/game/spec.js';
import * as ltl from '../../src/ltl/formula.js';
import { acceptingLasso } from './accepting-lasso.js';
import { compareFormulas, type CompareResult, formatFailure, formulaFromTree, matchingParts } from './equivalence.js';
import { evaluateLasso, type Lasso, randomLassoBatches, unpackLane } from './lasso-eval.js';
import { isBinary, LtlTree, Op, type OpCode, parseSyfcoLtl, printTree, treeFromFormula } from './ltl-tree.js';

const P = parseSyfcoLtl;
const asSrc = (w: Lasso): SrcLasso => ({ prefix: w.prefix.map((l) => new Set(l)), cycle: w.cycle.map((l) => new Set(l)) });
const toFormula = (t: LtlTree | ltl.Formula) => (t instanceof LtlTree ? formulaFromTree(t) : t);

/** A `different` verdict's witness must separate the formulas for src's evaluator too. */
function expectConfirmedWitness(a: LtlTree | ltl.Formula, b: LtlTree | ltl.Formula, r: CompareResult): void {
  expect(r.verdict).toBe('different');
  const w = asSrc(r.witness!.lasso);
  expect(evaluateOnLasso(toFormula(a), w)).toBe(r.witness!.a);
  expect(evaluateOnLasso(toFormula(b), w)).toBe(r.witness!.b);
  expect(r.witness!.a).not.toBe(r.witness!.b);
}

const chain = (op: '&&' | '||', xs: readonly string[]) => xs.reduce((acc, x) => `(${acc} ${op} ${x})`);
const nextN = (n: number, x: string) => '(X '.repeat(n) + x + ')'.repeat(n);

describe('compareFormulas: equivalent pairs', () => {
  it.each([
    ['a U b', '(b || (a && (X (a U b))))'],
    ['! (a U b)', '((! a) R (! b))'],
    ['a W b', '((a U b) || (G a))'],
    ['a R b', '(b W (a && b))'],
    ['G (F a)', 'G (F (X a))'],
    ['G (a && b)', '((G a) && (G b))'],
    ['F (a || b)', '((F a) || (F b))'],
    ['((F (G a)) && (F (G b)))', 'F (G (a && b))'],
    ['X (a U b)', '((X a) U (X b))'],
    ['(a -> (b -> c))', '((a && b) -> c)'],
    ['(G (! (((u0) && (! (u1))) <-> ((u1) && (! (u0))))))', '(G ((u0 || u1) && (! (u0 && u1))))'],
  ])('%s ≡ %s', (x, y) => {
    const r = compareFormulas(P(x), P(y));
    expect(r).toMatchObject({ verdict: 'equivalent', method: 'emptiness' });
    expect(r.wordsChecked).toBeGreaterThanOrEqual(200);
  });

  it('a spec with reordered, re-associated conjuncts and another exactly-one encoding', () => {
    const guarantees = ['(G (r0 -> (F g0)))', '(G (r1 -> (F g1)))', '(G ((g0 && r1) -> (X (! g0))))', '(G ((r0 U g1) || (F (G r1))))'];
    const assumptions = ['(G (F (! r0)))', '(G (F (! r1)))'];
    const sig = '(G (! (((g0) && (! (g1))) <-> ((g1) && (! (g0))))))';
    const theirs = P(`(${sig} && (${chain('&&', assumptions)} -> ${chain('&&', guarantees)}))`);
    const ours = ltl.and(
      ltl.G(exactlyOne(['g1', 'g0'])),
      ltl.implies(ltl.and(...assumptions.reverse().map((a) => formulaFromTree(P(a)))), ltl.and(...guarantees.reverse().map((g) => formulaFromTree(P(g))))),
    );
    const r = compareFormulas(ours, theirs, { oneHot: [['g0', 'g1']] });
    expect(r).toMatchObject({ verdict: 'equivalent', method: 'emptiness' });
    // Only the signal constraint needed a product: everything else is the same formula.
    expect(r.parts).toBe(1);
  });
});

describe('compareFormulas: different pairs', () => {
  it.each([
    ['F a', 'G (F a)'], // differs only in the cycle
    ['G (F a)', 'F (G a)'], // differs only in the cycle
    ['a U b', 'a W b'],
    ['a R b', 'a U b'],
    [nextN(25, 'a'), nextN(26, 'a')], // differs only after a long prefix
    [nextN(30, '(G a)'), nextN(30, '(G (a && (F b)))')],
    ['(G ((r) -> (F (g))))', '(G ((r) -> (X (F (g)))))'],
  ])('%s ≢ %s', (x, y) => {
    const [a, b] = [P(x), P(y)];
    expectConfirmedWitness(a, b, compareFormulas(a, b));
  });

  it('finds a difference random words miss with the product, and confirms its lasso', () => {
    // Only a step with all 16 atoms true followed by one with all false breaks this invariant.
    const atoms = Array.from({ length: 16 }, (_, i) => `a${i}`);
    const rare = `(G (! (${chain('&&', atoms)} && (X ${chain('&&', atoms.map((x) => `(! ${x})`))}))))`;
    const [a, b] = [P(rare), P('true')];
    const r = compareFormulas(a, b);
    expect(r.method).toBe('product-witness');
    expectConfirmedWitness(a, b, r);
    expect(r.witness).toMatchObject({ a: false, b: true });
  });

  it('reports agree-on-words when the products are not decided in time', () => {
    // Equivalent, written differently, all atoms linked: one product of the whole, past a 1 ms cap.
    const k = 8;
    const pairs = Array.from({ length: k }, (_, i) => `(p${i} && p${i + 1})`);
    const x = P(chain('&&', pairs.map((q) => `(G (F ${q}))`)));
    const y = P(chain('&&', pairs.map((q) => `(! (F (G (! ${q}))))`)));
    const r = compareFormulas(x, y, { timeoutMs: 1 });
    expect(r).toMatchObject({ verdict: 'agree-on-words', method: 'random-words' });
    expect(r.undecided).toMatch(/timeout|size/);
    expect(compareFormulas(P(`(G (F ${pairs[0]}))`), P(`(! (F (G (! ${pairs[0]}))))`)).verdict).toBe('equivalent');
  });
});

describe('compareFormulas: 50,000-deep formulas', () => {
  const n = 50_000;
  it('stays within the stack, and says only agree-on-words when it cannot translate', () => {
    const parsed = P(nextN(n, 'a'));
    let built: ltl.Formula = ltl.ap('a');
    for (let i = 0; i < n; i++) built = ltl.X(built);
    const r = compareFormulas(built, parsed);
    expect(r).toMatchObject({ verdict: 'agree-on-words', undecided: 'too-deep' });
    expect(r.wordsChecked).toBeGreaterThanOrEqual(200);
  });

  it('still finds a difference deep down with random words', () => {
    const deepChain = (last: string) => Array.from({ length: n }, (_, i) => `(b${i % 3} U `).join('') + last + ')'.repeat(n);
    const [a, b] = [P(deepChain('c')), P(deepChain('(c && d)'))];
    const r1 = compareFormulas(a, b);
    expect(r1.verdict).toBe('different');
    // src's evaluator recurses, so confirm with this one on the witness instead.
    expect(evaluateLasso(a, r1.witness!.lasso)).toBe(r1.witness!.a);
    expect(evaluateLasso(b, r1.witness!.lasso)).toBe(r1.witness!.b);
    const [x, y] = [P(nextN(n, 'a')), P(nextN(n - 1, 'a'))];
    const r = compareFormulas(x, y);
    expect(r.verdict).toBe('different');
    expect(evaluateLasso(x, r.witness!.lasso)).not.toBe(evaluateLasso(y, r.witness!.lasso));
  });
});

/** A copy of `t` with node `at` given operator `op` (same operands) or, for an atom, renamed. */
function mutate(t: LtlTree, at: number, change: { op?: OpCode; atom?: string; dropNot?: boolean }): LtlTree {
  const out = new LtlTree();
  const map: number[] = [];
  for (let i = 0; i <= t.root; i++) {
    let op = t.op[i];
    if (i === at && change.dropNot) {
      map[i] = map[t.left[i]];
      continue;
    }
    if (i === at && change.op !== undefined) op = change.op;
    if (op === Op.ap) map[i] = out.atom(i === at && change.atom ? change.atom : t.names[t.left[i]]);
    else if (op === Op.true || op === Op.false) map[i] = out.constant(op === Op.true);
    else if (isBinary(op)) map[i] = out.binary(op, map[t.left[i]], map[t.right[i]]);
    else map[i] = out.unary(op as typeof Op.X, map[t.left[i]]);
  }
  return out.setRoot(map[t.root]);
}

describe('compareFormulas: mutations of a spec-shaped formula are caught', () => {
  const SPEC =
    '((G (! (((u0c0c) && (! (u0c0f1dm))) <-> ((u0c0f1dm) && (! (u0c0c)))))) && (((G (F (p0b0ready))) && (G ((u0c0f1dm) -> (F (((! (u0c0f1dm)) && (! (u0c0c))) R (p0b0closed)))))) -> ((G ((p0b0enter) -> (F (((p0p0b0t29pm7) -> (p0b0closed)) W ((p0b0alarm) && (F (((! (p0p0bright0o)) -> (p0b0closed)) W (p0b0exit)))))))) && (G ((p0b0alarm) -> (X (u0c0c)))))))';
  const spec = P(SPEC);
  const oneHot = [['u0c0c', 'u0c0f1dm']];
  const swaps = new Map<OpCode, OpCode>([
    [Op.U, Op.W],
    [Op.W, Op.U],
    [Op.R, Op.U],
    [Op.F, Op.G],
    [Op.G, Op.F],
    [Op.X, Op.F],
    [Op.and, Op.or],
    [Op.or, Op.and],
    [Op.implies, Op.iff],
    [Op.iff, Op.implies],
  ]);

  it('the unmutated formula is equivalent to itself written another way', () => {
    const r = compareFormulas(spec, formulaFromTree(spec), { oneHot });
    expect(r.verdict).toBe('equivalent');
  });

  it('every operator swap, dropped negation and renamed atom is told apart, with a confirmed lasso', () => {
    const live = spec.reachable();
    const results: string[] = [];
    let mutants = 0;
    for (let i = 0; i <= spec.root; i++) {
      if (!live[i]) continue;
      const op = spec.op[i];
      const changes: Parameters<typeof mutate>[2][] = [];
      if (swaps.has(op)) changes.push({ op: swaps.get(op)! });
      if (op === Op.not) changes.push({ dropNot: true });
      if (op === Op.ap) changes.push({ atom: spec.names[spec.left[i]] === 'p0b0closed' ? 'p0b0exit' : 'p0b0closed' });
      for (const change of changes) {
        mutants++;
        const m = mutate(spec, i, change);
        const r = compareFormulas(spec, m, { oneHot, timeoutMs: 3000 });
        if (r.verdict === 'different') expectConfirmedWitness(spec, m, r);
        else results.push(`${JSON.stringify(change)} at ${printTree(m, 80)}: ${r.verdict}`);
      }
    }
    expect(mutants).toBeGreaterThanOrEqual(40);
    // Each of these mutations changes the meaning (checked by hand when written): none may pass.
    expect(results).toEqual([]);
  });
});

describe('matchingParts', () => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(ltl.ap);
  it('drops shared conjuncts, splits the rest by atoms and descends into equal operators', () => {
    const x = ltl.and(ltl.G(ltl.F(a)), ltl.G(ltl.implies(b, ltl.X(c))), ltl.F(d), ltl.U(a, d));
    const y = ltl.and(ltl.G(ltl.F(a)), ltl.G(ltl.implies(b, ltl.F(c))), ltl.G(ltl.F(d)), ltl.U(a, d));
    const parts = matchingParts(x, y);
    expect(parts).toHaveLength(2);
    expect(parts).toContainEqual([ltl.X(c), ltl.F(c)]);
    expect(parts).toContainEqual([ltl.F(d), ltl.G(ltl.F(d))]);
  });
  it('pairs operands of equal operators and treats G over ∧ as ∧ of G', () => {
    expect(matchingParts(ltl.G(ltl.and(a, b)), ltl.and(ltl.G(b), ltl.G(a)))).toEqual([]);
    expect(matchingParts(ltl.implies(a, ltl.U(b, c)), ltl.implies(a, ltl.U(b, d)))).toEqual([[c, d]]);
    expect(matchingParts(ltl.F(a), ltl.G(a))).toEqual([[ltl.F(a), ltl.G(a)]]);
  });
});

describe('acceptingLasso', () => {
  const lassoOf = (text: string) => {
    const f = formulaFromTree(P(text));
    return { f, w: acceptingLasso(translateLtlSymbolic(f, new BddManager())) };
  };
  it.each(['((G (F a)) && ((G (F b)) && (F (G (! c)))))', '(a U (b && (X (G (F (c && (! a)))))))', '((X (X (X a))) && (G (F (! a))))'])('%s: a lasso the formula holds on', (text) => {
    const { f, w } = lassoOf(text);
    expect(w).not.toBeNull();
    expect(evaluateOnLasso(f, asSrc(w!))).toBe(true);
  });
  it.each(['((G a) && (F (! a)))', '((a U b) && (G (! b)))'])('%s: none (empty language)', (text) => {
    expect(lassoOf(text).w).toBeNull();
  });
});

describe('formatFailure', () => {
  it('names the file, both formulas (shortened) and the lasso with each truth value', () => {
    const padding = chain('&&', Array.from({ length: 200 }, (_, i) => `(G (x${i} -> x${i}))`));
    const long = P(`(${padding} && (F a))`);
    const other = P(`(${padding} && (G a))`);
    const r = compareFormulas(long, other);
    const msg = formatFailure('specs/x.tsl', long, other, r, ['tslc', 'tsltools']);
    const lines = msg.split('\n');
    expect(lines[0]).toMatch(/^specs\/x\.tsl: different \(/);
    expect(lines[1]).toMatch(/^ {2}tslc: \(\(\(/);
    expect(lines[1].length).toBeLessThan(260);
    expect(lines[1].endsWith('…')).toBe(true);
    expect(lines[3]).toMatch(/^ {2}distinguishing lasso: .*\)\^ω$/);
    expect(lines[4]).toMatch(/tslc is (true|false), tsltools is (true|false)/);
  });
});

describe('random words are not vacuous on spec-shaped formulas', () => {
  it('the guarantee side of A → G is exercised: words satisfy A, and G fails on some of them', () => {
    const assume = P('((G (F (! r))) && (G (r -> (X (! r)))))');
    const guarantee = P('(G (r -> (F g)))');
    let assumptionsHold = 0;
    let guaranteeFails = 0;
    for (const batch of randomLassoBatches(['r', 'g'], { seed: 11 }))
      for (let lane = 0; lane < 32; lane++) {
        const w = unpackLane(batch, lane);
        if (evaluateLasso(assume, w)) {
          assumptionsHold++;
          if (!evaluateLasso(guarantee, w)) guaranteeFails++;
        }
      }
    expect(assumptionsHold).toBeGreaterThan(20);
    expect(guaranteeFails).toBeGreaterThan(5);
  });
});
