import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { specFormula } from '../../src/game/spec.js';
import { and, ap, F, FALSE, G, implies, not, or, TRUE, U, W, X } from '../../src/ltl/formula.js';
import { parseFormula } from '../../src/ltl/parse.js';
import { loadTlsfGame, parseParamAssignments, parseTlsf } from '../../src/tlsf/index.js';

const a = ap('a');
const b = ap('b');
const c = ap('c');

function tlsf(main: string, global = '', semantics = 'Mealy', target = 'Mealy'): string {
  return `INFO {\n  TITLE: "t"\n  DESCRIPTION: "d"\n  SEMANTICS: ${semantics}\n  TARGET: ${target}\n}\n${global}\nMAIN {\n${main}\n}\n`;
}
const io = 'INPUTS { a; b; } OUTPUTS { c; }';
const guarantee = (formula: string, global = '') =>
  parseTlsf('t.tlsf', tlsf(`${io}\nGUARANTEE { ${formula}; }`, global)).guarantee[0].formula;

describe('TLSF operator precedence (syfco)', () => {
  it('binds U looser than ->, unlike Spot', () => {
    expect(guarantee('a -> b U c')).toBe(U(implies(a, b), c));
    expect(parseFormula('a -> b U c')).toBe(implies(a, U(b, c)));
  });
  it('orders W, U, R below the boolean connectives', () => {
    expect(guarantee('a && b W c')).toBe(W(and(a, b), c));
    expect(guarantee('a W b U c')).toBe(U(W(a, b), c));
    expect(guarantee('a U b W c')).toBe(U(a, W(b, c)));
    expect(guarantee('a || b && c')).toBe(or(a, and(b, c)));
    expect(guarantee('! a && b')).toBe(and(not(a), b));
    expect(guarantee('G a -> F c')).toBe(implies(G(a), F(c)));
    expect(guarantee('X a && b')).toBe(and(X(a), b));
  });
  it('accepts the word operators', () => {
    expect(guarantee('NOT a AND b OR c IMPLIES a')).toBe(implies(or(and(not(a), b), c), a));
  });
});

describe('TLSF evaluation', () => {
  const global = `GLOBAL {
    PARAMETERS { n = 3; }
    DEFINITIONS {
      m = n + 1;
      mutex(bus, k) = &&[0 <= i < k] &&[i < j < k] !(bus[i] && bus[j]);
      choose(x) = x == 0 : a
                  otherwise : b;
      Evens = {0, 2 .. 6};
    }
  }`;
  const doc = (formulas: string, params?: Record<string, number>) =>
    parseTlsf('t.tlsf', tlsf(`INPUTS { a; b; r[n]; } OUTPUTS { g[m]; }\nGUARANTEE { ${formulas} }`, global), { params });
  const r = (i: number) => ap(`r_${i}`);
  const gg = (i: number) => ap(`g_${i}`);

  it('expands buses into name_index propositions', () => {
    const d = doc('g[0];');
    expect(d.inputs).toEqual(['a', 'b', 'r_0', 'r_1', 'r_2']);
    expect(d.outputs).toEqual(['g_0', 'g_1', 'g_2', 'g_3']);
  });
  it('expands big operators and functions as hand-computed', () => {
    const [f] = doc('mutex(g, 3);').guarantee;
    expect(f.formula).toBe(and(not(and(gg(0), gg(1))), not(and(gg(0), gg(2))), not(and(gg(1), gg(2)))));
    const [h] = doc('G &&[i <- {0, 1 .. n - 1}] (r[i] -> F g[i]);').guarantee;
    expect(h.formula).toBe(G(and(implies(r(0), F(gg(0))), implies(r(1), F(gg(1))), implies(r(2), F(gg(2))))));
    const [o] = doc('||[i <- Evens, i < 4] g[i / 2];').guarantee;
    expect(o.formula).toBe(or(gg(0), gg(1)));
  });
  it('picks guarded cases, with otherwise', () => {
    const d = doc('choose(0); choose(1);');
    expect(d.guarantee.map((p) => p.formula)).toEqual([a, b]);
  });
  it('unrolls X[n], F[a:b], G[a:b]', () => {
    const d = doc('X[2] a; F[1:2] a; G[0:1] a;');
    expect(d.guarantee.map((p) => p.formula)).toEqual([X(X(a)), or(X(a), X(X(a))), and(a, X(a))]);
  });
  it('applies --param overrides', () => {
    const d = doc('&&[0 <= i < n] r[i];', { n: 2 });
    expect(d.inputs).toEqual(['a', 'b', 'r_0', 'r_1']);
    expect(d.outputs).toEqual(['g_0', 'g_1', 'g_2']);
    expect(d.guarantee[0].formula).toBe(and(r(0), r(1)));
    expect(parseParamAssignments(['n=2', ' m = 10 '])).toEqual({ n: 2, m: 10 });
    expect(() => parseParamAssignments(['n=two'])).toThrow(UserError);
    expect(() => doc('a;', { k: 1 })).toThrow("--param k: the file has no parameter 'k' (parameters: n)");
  });
  it('evaluates numeric and set expressions', () => {
    const d = doc('g[SIZE (Evens (-) {2}) - MIN Evens + MAX {1, 2} % 2]; g[|S| (*) 0 + 1];'.replace('|S| (*) 0 + 1', '1'));
    expect(d.guarantee.map((p) => p.formula)).toEqual([gg(3), gg(1)]);
  });
});

describe('combining sections as syfco does', () => {
  const all = `INPUTS { a; b; } OUTPUTS { c; }
    INITIALLY { a; }
    PRESET { c; }
    REQUIRE { b; }
    ASSUME { F a; }
    ASSERT { c -> a; }
    GUARANTEE { F c; }`;
  it('wraps REQUIRE and ASSERT in G', () => {
    const g = loadTlsfGame('t.tlsf', tlsf(all));
    expect(g.initially.map((p) => p.formula)).toEqual([a]);
    expect(g.preset.map((p) => p.formula)).toEqual([c]);
    expect(g.assumptions.map((p) => p.formula)).toEqual([G(b), F(a)]);
    expect(g.guarantees.map((p) => p.formula)).toEqual([G(implies(c, a)), F(c)]);
    expect(specFormula(g)).toBe(implies(a, and(c, implies(and(G(b), F(a)), and(G(implies(c, a)), F(c))))));
    expect(g.semantics).toBe('mealy');
    expect(g.signals).toEqual([]);
  });
  it('records Moore targets and strict semantics', () => {
    const strict = loadTlsfGame('t.tlsf', tlsf(all, '', 'Moore,Strict', 'Moore'));
    expect(strict.semantics).toBe('moore');
    expect(parseTlsf('t.tlsf', tlsf(all, '', 'Mealy,Strict')).semantics).toBe('mealy-strict');
    // Strict: (∧ASSERT) W ¬(∧REQUIRE) joins PRESET; ASSERT is no longer a G-guarantee.
    expect(strict.preset.map((p) => p.formula)).toEqual([c, W(implies(c, a), not(b))]);
    expect(strict.guarantees.map((p) => p.formula)).toEqual([F(c)]);
  });
  it('points each part at the line where its formula starts', () => {
    const g = loadTlsfGame('t.tlsf', tlsf(all));
    const guaranteeLine = tlsf(all).split('\n').findIndex((l) => l.includes('GUARANTEE')) + 1;
    expect(g.guarantees[1].span).toMatchObject({ file: 't.tlsf', line: guaranteeLine });
    expect(g.guarantees[1].text).toBe('F c');
    expect(g.name).toBe('t');
  });
  it('keeps constants folded', () => {
    expect(guarantee('a && true || false')).toBe(a);
    expect(guarantee('!true')).toBe(FALSE);
    expect(guarantee('1 < 2')).toBe(TRUE);
  });
});
