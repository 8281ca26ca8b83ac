// The meaning syfco gives TLSF constructs (checked against syfco 1.2.1.2's output by hand), on
// small specs; test/conformance/tlsf-syfco.test.ts checks whole SYNTCOMP files.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { specFormula } from '../../src/game/spec.js';
import { and, ap, F, type Formula, G, iff, implies, not, or, TRUE, U as until, X } from '../../src/ltl/formula.js';
import { synthesizeController } from '../../src/synthesis/index.js';
import { loadTlsfGame, parseTlsf } from '../../src/tlsf/index.js';
import { verifyController } from '../../src/verify/index.js';

const a = ap('a');
const b = ap('b');
const g = (i: number) => ap(`g_${i}`);

function spec(main: string, global = '', info = 'SEMANTICS: Mealy TARGET: Mealy'): string {
  return `INFO { TITLE: "t" DESCRIPTION: "d" ${info} }\n${global ? `GLOBAL { ${global} }\n` : ''}MAIN { ${main} }\n`;
}
const guarantees = (text: string, params?: Record<string, number>): Formula[] =>
  parseTlsf('t.tlsf', text, { params }).guarantee.map((p) => p.formula);
const userError = (text: string): string => {
  try {
    loadTlsfGame('t.tlsf', text);
  } catch (e) {
    if (e instanceof UserError) return e.diagnostics[0].message;
    throw e;
  }
  throw new Error('expected a UserError');
};

// The issue's example: guarded cases are `guard : value`.
const MONE = spec(
  'INPUTS { r[n]; } OUTPUTS { g[n]; } GUARANTEES { G mone(g, 0, n - 1); }',
  `PARAMETERS { n = 4; }
   DEFINITIONS {
     none(bus,i,j) = &&[i <= t <= j] !bus[t];
     mone(bus,i,j) =
       i > j : false
       i == j : true
       i < j : (none(bus, i, m(i,j)) && mone(bus, m(i,j) + 1, j)) || (mone(bus, i, m(i,j)) && none(bus, m(i,j) + 1, j));
     m(i,j) = (i + j) / 2;
   }`,
);

describe('guarded cases (guard : value)', () => {
  it('reads the divide-and-conquer "at most one" definition as syfco does', () => {
    // syfco -f ltl: G ((!g_0 && !g_1 && (!g_2 || !g_3)) || ((!g_0 || !g_1) && !g_2 && !g_3))
    const expected = G(or(and(not(g(0)), not(g(1)), or(not(g(2)), not(g(3)))), and(or(not(g(0)), not(g(1))), not(g(2)), not(g(3)))));
    expect(guarantees(MONE)).toEqual([expected]);
  });
  it('makes that spec realizable, with a controller that passes the independent check', () => {
    const game = loadTlsfGame('mone.tlsf', MONE);
    const result = synthesizeController(game);
    expect(result.verdict).toBe('realizable');
    if (result.verdict === 'realizable') expect(verifyController(game, result.controller).ok).toBe(true);
  });
  it('takes otherwise as "no other guard holds", and a case without a guard as guard true', () => {
    const text = spec(
      'INPUTS { a; b; } OUTPUTS { c; } GUARANTEES { pick(0); pick(1); pick(2); }',
      'DEFINITIONS { pick(x) = x == 0 : a   x == 1 : b   otherwise : X a; }',
    );
    expect(guarantees(text)).toEqual([a, b, X(a)]);
  });
  it('lets cases return numbers and sets', () => {
    const text = spec(
      'INPUTS { r[8]; } OUTPUTS { c; } GUARANTEES { r[half(7)]; r[MAX evens(3)]; }',
      'DEFINITIONS { half(x) = x % 2 == 1 : (x - 1) / 2   otherwise : x / 2;  evens(k) = k <= 0 : {0}   k > 0 : evens(k - 1) (+) {2 * k}; }',
    );
    expect(guarantees(text)).toEqual([ap('r_3'), ap('r_6')]);
  });
  it('takes the smallest number when several guards hold (syfco picks the least value)', () => {
    const text = spec('INPUTS { r[8]; } OUTPUTS { c; } GUARANTEES { r[f(1)]; }', 'DEFINITIONS { f(x) = x > 0 : 5   x < 9 : 2   true : 7; }');
    expect(guarantees(text)).toEqual([ap('r_2')]);
  });
  it('refuses overlapping guards with different formulas rather than guess syfco’s order', () => {
    const text = spec('INPUTS { a; b; } OUTPUTS { c; } GUARANTEES { f(1); }', 'DEFINITIONS { f(x) = x > 0 : a   x < 9 : b; }');
    expect(userError(text)).toMatch(/several cases of 'f' apply to \(1\).*different values/);
  });
  it('reports a call no case applies to, with its arguments', () => {
    const text = spec('INPUTS { a; } OUTPUTS { c; } GUARANTEES { f(3); }', 'DEFINITIONS { f(x) = x == 0 : a; }');
    expect(userError(text)).toBe("no case of 'f' applies to (3)");
  });
});

describe('recursion without a depth limit', () => {
  it('evaluates a recursion 20,000 calls deep', () => {
    const text = spec(
      'INPUTS { a; } OUTPUTS { c; } GUARANTEES { X[depth(20000) - 19998] a; }',
      'DEFINITIONS { depth(k) = k == 0 : 0   k > 0 : 1 + depth(k - 1); }',
    );
    expect(guarantees(text)).toEqual([X(X(a))]);
  });
  it('builds a formula through thousands of recursive calls (ltl2dba style)', () => {
    const text = spec(
      'INPUTS { p[300]; } OUTPUTS { c; } GUARANTEES { nested(p, 0); }',
      'DEFINITIONS { nested(bus, k) = k < SIZEOF bus - 1 : F (bus[k] && nested(bus, k + 1))   k == SIZEOF bus - 1 : F bus[k]; }',
    );
    let expected: Formula = F(ap('p_299'));
    for (let k = 298; k >= 0; k--) expected = F(and(ap(`p_${k}`), expected));
    expect(guarantees(text)).toEqual([expected]);
  });
  it('stops a recursion that never ends with an error, not a crash', () => {
    const text = spec('INPUTS { a; } OUTPUTS { c; } GUARANTEES { f(0); }', 'DEFINITIONS { f(k) = f(k + 1); }');
    expect(userError(text)).toMatch(/^evaluation nested more than 1,000,000 levels deep .*the last call being f\(\d+\)/);
  }, 60_000);
});

describe('numbers as syfco computes them', () => {
  const bit = (expr: string, params?: Record<string, number>) =>
    guarantees(spec(`INPUTS { r[20]; } OUTPUTS { c; } GUARANTEES { r[${expr} + 10]; }`, 'PARAMETERS { m = 0 - 7; }'), params)[0];
  it('divides rounding towards minus infinity (Haskell div) and takes the divisor’s sign for % (mod)', () => {
    expect(bit('m / 2')).toBe(ap('r_6')); // -7 div 2 = -4
    expect(bit('m % 2')).toBe(ap('r_11')); // -7 mod 2 = 1
    expect(bit('7 / (0 - 2)')).toBe(ap('r_6')); // 7 div -2 = -4
    expect(bit('7 % (0 - 2)')).toBe(ap('r_9')); // 7 mod -2 = -1
    expect(bit('7 / 2')).toBe(ap('r_13'));
  });
  it('groups / and % to the right and below * (syfco’s table)', () => {
    expect(bit('8 / 4 / 2')).toBe(ap('r_14')); // 8 / (4 / 2) = 4
    expect(bit('8 / 2 * 2')).toBe(ap('r_12')); // 8 / (2 * 2) = 2
  });
  it('reads ranges as Haskell lists [a, b .. c], also descending', () => {
    const text = spec('INPUTS { r[10]; } OUTPUTS { c; } GUARANTEES { &&[i <- {9, 6 .. 0}] r[i]; SUM[i <- {1, 3 .. 8}] i == 16; }');
    expect(guarantees(text)).toEqual([and(ap('r_9'), ap('r_6'), ap('r_3'), ap('r_0')), TRUE]);
  });
  it('refuses a range that never ends', () => {
    expect(userError(spec('INPUTS { a; } OUTPUTS { c; } GUARANTEES { &&[i <- {1, 1 .. 3}] a; }'))).toBe('this range never ends (step 0 from 1 to 3)');
  });
  it('applies --param overrides before anything uses the parameter', () => {
    const text = spec('INPUTS { r[n]; } OUTPUTS { c; } GUARANTEES { r[n - 1]; }', 'PARAMETERS { n = 2; }');
    expect(guarantees(text, { n: 5 })).toEqual([ap('r_4')]);
    expect(parseTlsf('t.tlsf', text, { params: { n: 5 } }).inputs).toEqual(['r_0', 'r_1', 'r_2', 'r_3', 'r_4']);
  });
  it('evaluates every parameter, used or not', () => {
    expect(userError(spec('INPUTS { a; } OUTPUTS { c; } GUARANTEES { a; }', 'PARAMETERS { n = 1 / 0; }'))).toBe('division by zero');
  });
});

describe('temporal and bus operators as syfco expands them', () => {
  const main = (body: string) => spec(`INPUTS { a; r[2]; s[2]; } OUTPUTS { c; } GUARANTEES { ${body}; }`);
  it('gives true for an empty interval F[a:b] or G[a:b] with a > b', () => {
    expect(guarantees(main('F[3:1] a'))).toEqual([TRUE]);
    expect(guarantees(main('G[2:1] a'))).toEqual([TRUE]);
    expect(guarantees(main('F[1:2] a'))).toEqual([or(X(a), X(X(a)))]);
  });
  it('reads the strong variants X[!], X[!n], F[!a:b] as the plain ones (infinite traces)', () => {
    expect(guarantees(main('X[!] a && X[!2] a && X[2!] a && G[!0:1] a'))).toEqual([and(X(a), X(X(a)), a)]);
  });
  it('compares buses bit by bit with ==', () => {
    const bits = and(iff(ap('r_0'), ap('s_0')), iff(ap('r_1'), ap('s_1')));
    expect(guarantees(main('r == s'))).toEqual([bits]);
    expect(guarantees(main('r != s'))).toEqual([not(bits)]);
  });
  it('accumulates repeated sections and accepts SEMANTICS in either order', () => {
    const text = spec('INPUTS { a; } OUTPUTS { c; } GUARANTEES { a; } ASSUME { F a; } GUARANTEES { c; }', '', 'SEMANTICS: Strict,Mealy TARGET: Mealy');
    const doc = parseTlsf('t.tlsf', text);
    expect(doc.semantics).toBe('mealy-strict');
    expect(doc.guarantee.map((p) => p.formula)).toEqual([a, ap('c')]);
  });
});

describe('strings and enums', () => {
  it('reads multi-line strings and the \\" escape (other backslashes stay)', () => {
    const text = 'INFO {\n  TITLE: "a \\"quoted\\" title"\n  DESCRIPTION: "first line\n  second line \\n"\n  SEMANTICS: Mealy\n  TARGET: Mealy\n}\nMAIN { INPUTS { a; } GUARANTEES { a; } }';
    const doc = parseTlsf('t.tlsf', text);
    expect(doc.title).toBe('a "quoted" title');
    expect(doc.description).toBe('first line\n  second line \\n');
    expect(doc.guarantee[0].span).toMatchObject({ line: 8 });
  });
  const ENUM = spec(
    'INPUTS { mode m; } OUTPUTS { color c; } GUARANTEES { G (m == fast -> c != off); G (c == red || c == off); }',
    'DEFINITIONS { enum mode = slow: 0 fast: 1;  enum color = red: 01  green: 10  off: 00; }',
  );
  it('turns enum-typed signals into buses and == into a code match', () => {
    const game = loadTlsfGame('t.tlsf', ENUM);
    expect(game.inputs.map((p) => p.name)).toEqual(['m_0']);
    expect(game.outputs.map((p) => p.name)).toEqual(['c_0', 'c_1']);
    const c0 = ap('c_0');
    const c1 = ap('c_1');
    const red = and(not(c0), c1); // code 01: line 0 low, line 1 high
    const off = and(not(c0), not(c1));
    expect(game.guarantees.slice(-2).map((p) => p.formula)).toEqual([G(implies(ap('m_0'), not(off))), G(or(red, off))]);
    // Code 11 is unused: the output never takes it (syfco adds this as an invariant).
    expect(game.guarantees[0].formula).toBe(G(or(not(c0), not(c1))));
    expect(game.assumptions).toEqual([]);
    expect(specFormula(game)).toBeDefined();
  });
  it('refuses a pattern that two codes cover', () => {
    const text = spec('INPUTS { e x; } OUTPUTS { c; } GUARANTEES { x == p; }', 'DEFINITIONS { enum e = p: 0* q: 01; }');
    expect(userError(text)).toBe("in enum 'e', the pattern 01 has two codes (p: 0* and q: 01)");
  });
});

describe('names syfco accepts', () => {
  it('lets the binary operators U W R S T name signals and definitions, read as operators only between operands', () => {
    const text = spec('INPUTS { U; R; } OUTPUTS { W; } GUARANTEES { U U R; G (R -> W); S; }', 'DEFINITIONS { T = 1; S = T == 1 -> W; }');
    expect(guarantees(text)).toEqual([until(ap('U'), ap('R')), G(implies(ap('R'), ap('W'))), ap('W')]);
  });
});
