import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { and, ap, F, G, iff, implies, M, not, or, R, U, W, X, xor, TRUE } from '../../src/ltl/formula.js';
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import { parseFormula } from '../../src/ltl/parse.js';

const a = ap('a');
const b = ap('b');
const c = ap('c');

describe('Spot precedence', () => {
  const cases: [string, ReturnType<typeof parseFormula>][] = [
    ['a -> b U c', implies(a, U(b, c))],
    ['a & b U c', and(a, U(b, c))],
    ['a | b & c', or(a, and(b, c))],
    ['a xor b & c', xor(a, and(b, c))],
    ['a | b xor c', or(a, xor(b, c))],
    ['a -> b -> c', implies(a, implies(b, c))],
    ['a <-> b -> c', iff(a, implies(b, c))],
    ['a U b U c', U(a, U(b, c))],
    ['a U b W c', U(a, W(b, c))],
    ['a R b M c', R(a, M(b, c))],
    ['F a U b', U(F(a), b)],
    ['! a U b', U(not(a), b)],
    ['G a -> F b', implies(G(a), F(b))],
    ['X a & b', and(X(a), b)],
    ['GFa', G(F(a))],
    ['XXa', X(X(a))],
    ['!(a)', not(a)],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text}`, () => expect(parseFormula(text)).toBe(expected));
  }
  it('accepts the synonyms Spot accepts', () => {
    expect(parseFormula('[](a => <>b)')).toBe(G(implies(a, F(b))));
    expect(parseFormula('~a /\\ b \\/ c')).toBe(or(and(not(a), b), c));
    expect(parseFormula('a && b || c')).toBe(or(and(a, b), c));
    expect(parseFormula('a <=> b')).toBe(iff(a, b));
    expect(parseFormula('a ^ b')).toBe(xor(a, b));
    expect(parseFormula('a V b')).toBe(R(a, b));
    expect(parseFormula('1 & a')).toBe(a);
    expect(parseFormula('true -> 0')).toBe(fromSyntax({ op: 'false' }));
    expect(parseFormula('"G1" & "a b"')).toBe(and(ap('G1'), ap('a b')));
    expect(parseFormula('Fire')).toBe(F(ap('ire'))); // as Spot: quote it to mean the atom
    // Spot: an atom cannot start with F, G or X unless a digit follows, and true/false are caseless.
    expect(parseFormula('FIRE')).toBe(F(ap('IRE')));
    expect(parseFormula('F1 & X0a')).toBe(and(ap('F1'), ap('X0a')));
    expect(parseFormula('Fa.b_1')).toBe(F(ap('a.b_1')));
    expect(parseFormula('TRUE & True & b')).toBe(b);
    expect(parseFormula('"TRUE" & b')).toBe(and(ap('TRUE'), b));
    expect(parseFormula('a Ub')).toBe(U(a, b)); // after an operand `Ub` is `U b` …
    expect(parseFormula('Ub')).toBe(ap('Ub')); // … elsewhere an atom
    expect(parseFormula('()a & a=0 & b=1')).toBe(and(X(a), not(a), b));
    expect(parseFormula('a * b + c')).toBe(or(and(a, b), c));
    expect(parseFormula('a --> b <--> c')).toBe(implies(a, iff(b, c)));
    expect(parseFormula('¬a ∧ ○b → ◇□c')).toBe(implies(and(not(a), X(b)), F(G(c))));
    expect(parseFormula('/* a /* nested */ comment */ a')).toBe(a);
    expect(parseFormula('X[2] a & F[1..2] b & G[1..] c')).toBe(and(X(X(a)), X(or(b, X(b))), X(G(c))));
  });
  it('keeps left-assoc chains flat and xor binary', () => {
    expect(parseLtl('a & b & c')).toEqual({ op: '&', args: [{ op: 'ap', name: 'a' }, { op: 'ap', name: 'b' }, { op: 'ap', name: 'c' }] });
    expect(parseLtl('a xor b xor c')).toEqual({
      op: 'xor',
      left: { op: 'xor', left: { op: 'ap', name: 'a' }, right: { op: 'ap', name: 'b' } },
      right: { op: 'ap', name: 'c' },
    });
  });
  it('is not TLSF precedence: a -> b U c differs', () => {
    expect(parseFormula('a -> b U c')).not.toBe(U(implies(a, b), c));
    expect(parseFormula('(a -> b) U c')).toBe(U(implies(a, b), c));
    expect(parseFormula('true U a')).toBe(F(a));
    expect(parseFormula('a | true')).toBe(TRUE);
  });
});

describe('malformed formulas', () => {
  const cases: [string, number, number, string][] = [
    ['', 1, 1, 'empty formula'],
    ['a &', 1, 4, 'unexpected end of formula: expected an operand'],
    ['(a | b', 1, 7, "expected ')' to close the '(' at column 1, found end of formula"],
    ['a b', 1, 3, "expected an operator or end of formula, found 'b'"],
    ['a)', 1, 2, "unmatched ')'"],
    ['a\n  & # b', 2, 5, "unexpected character '#'"],
    ['a U', 1, 4, 'unexpected end of formula: expected an operand'],
    ['"abc', 1, 1, 'unterminated quoted atom'],
    ['a\n& (b', 2, 5, "expected ')' to close the '(' at line 2, column 3, found end of formula"],
    ['( )', 1, 3, "unexpected ')': expected an operand"],
    ['()', 1, 3, 'unexpected end of formula: expected an operand'], // `()` is Spot's X
    ['/**/ a', 1, 1, 'unclosed comment'], // as in Spot: `/**` opens, `/` is comment text
    ['"a\\', 1, 3, 'a backslash in a quoted atom must escape a character on the same line'],
    ['X[255] a', 1, 3, '255 exceeds the largest repetition Spot supports (254)'],
    ['F[2] a', 1, 1, 'F[n..m] expects two bounds, as in F[2..4] a or F[2..] a'],
    ['{a;b}', 1, 1, 'PSL/SERE syntax is not supported (tslc reads LTL only)'],
    ['X[!] a', 1, 3, 'strong next (Ⓧ, X[!]) is not supported (tslc reads infinite-trace LTL)'],
    ['(a)=0', 1, 4, "'=0' can only follow an atomic proposition"],
    ['Falsehood', 1, 6, "expected an operator or end of formula, found 'hood'"],
    ['& a', 1, 1, "expected an operand, found '&'"],
    ['G -> a', 1, 3, "expected an operand, found '->'"],
  ];
  for (const [text, line, col, message] of cases) {
    it(`reports ${JSON.stringify(text)} at ${line}:${col}`, () => {
      let caught: unknown;
      try {
        parseLtl(text);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(LtlSyntaxError);
      const e = caught as LtlSyntaxError;
      expect([e.line, e.col, e.message]).toEqual([line, col, message]);
    });
  }
  it('parseFormula turns syntax errors into file:line:col diagnostics', () => {
    try {
      parseFormula('G (a ->', 'spec.ltl');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      const d = (e as UserError).diagnostics[0];
      expect(d.span).toMatchObject({ file: 'spec.ltl', line: 1, col: 8 });
      expect(d.message).toBe('unexpected end of formula: expected an operand');
    }
  });
});

const atomNames = ['a', 'b', 'req_1', 'Fire', 'G1', 'x.y', 'true', 'a b', 'U'];
const nodeArb: fc.Arbitrary<LtlNode> = fc.letrec<{ node: LtlNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<LtlNode>({ op: 'true' }, { op: 'false' }),
    fc.constantFrom(...atomNames).map((name): LtlNode => ({ op: 'ap', name })),
    fc.record({ op: fc.constantFrom('!', 'X', 'F', 'G'), arg: tie('node') }).map((n) => n as LtlNode),
    fc.record({ op: fc.constantFrom('&', '|'), args: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }).map((n) => n as LtlNode),
    fc
      .record({ op: fc.constantFrom('->', '<->', 'xor', 'U', 'W', 'R', 'M'), left: tie('node'), right: tie('node') })
      .map((n) => n as LtlNode),
  ),
})).node;

/** Nested `&` in `&` is flattened by the parser; compare modulo that. */
function normal(n: LtlNode): LtlNode {
  switch (n.op) {
    case 'true':
    case 'false':
    case 'ap':
      return n;
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return { op: n.op, arg: normal(n.arg) };
    case '&':
    case '|':
      return { op: n.op, args: n.args.map(normal).flatMap((x) => (x.op === n.op ? x.args : [x])) };
    default:
      return { op: n.op, left: normal(n.left), right: normal(n.right) };
  }
}

describe('printLtl', () => {
  it('round-trips through parseLtl (seeded property)', () => {
    fc.assert(
      fc.property(nodeArb, (n) => {
        expect(parseLtl(printLtl(n))).toEqual(normal(n));
      }),
      { seed: 20240611, numRuns: 500 },
    );
  });
  it('prints only the parentheses Spot needs', () => {
    expect(printLtl(parseLtl('a -> (b U c)'))).toBe('a -> b U c');
    expect(printLtl(parseLtl('(a -> b) U c'))).toBe('(a -> b) U c');
    expect(printLtl(parseLtl('G(a | b)'))).toBe('G (a | b)');
    expect(printLtl(parseLtl('"Fire" & "a b"'))).toBe('"Fire" & "a b"');
  });
});

describe('fuzzing the Spot parser', () => {
  it('only ever throws LtlSyntaxError (seeded mutations)', () => {
    const seeds = ['G (req -> F grant)', 'a U (b R !c) <-> X X d', '[](a => <>b) && "q r" xor 1', 'GFa | FGb -> (a M b) W c'];
    const alphabet = ['(', ')', '!', '&', '|', '->', '<->', 'U', 'X', 'G', '"', 'a', ' ', '0', '1', '[]', '<>', '^', '~', '#'];
    let rnd = 12345;
    const next = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 3000; i++) {
      let s = seeds[i % seeds.length];
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const at = Math.floor(next() * (s.length + 1));
        s = next() < 0.5 ? s.slice(0, at) + alphabet[Math.floor(next() * alphabet.length)] + s.slice(at) : s.slice(0, at) + s.slice(at + 1);
      }
      try {
        const n = parseLtl(s);
        expect(parseLtl(printLtl(n))).toEqual(normal(n));
      } catch (e) {
        if (!(e instanceof LtlSyntaxError)) throw new Error(`non-syntax error for ${JSON.stringify(s)}: ${String(e)}`);
        expect(e.offset).toBeGreaterThanOrEqual(0);
        expect(e.offset).toBeLessThanOrEqual(s.length);
      }
    }
  });
});
