/**
 * The conformance tests' LTL tree: syfco `-m fully` parsing (strict, iterative), printing, and
 * conversion from our Formula, on real output shapes and on 50,000-deep nesting.
 */
import { describe, expect, it } from 'vitest';
import * as ltl from '../../src/ltl/formula.js';
import { LtlTree, Op, parseSyfcoLtl, printTree, SyfcoParseError, treeFromFormula } from './ltl-tree.js';

// The shape syfco prints: every operator application and every atom in brackets.
const SAMPLE =
  '((G (! (((u0c0c) && (! (u0c0f1dmove2to0f1dpercent231b1b))) <-> ((u0c0f1dmove2to0f1dpercent231b1b) && (! (u0c0c)))))) && ((G ((r_0) -> (F (((! (u0c0c)) && (true)) R (p0b0closed))))) -> (G ((p0b0enter) -> (F (((p0p0between0t29pm7) -> (X (false))) W ((p0b0alarm) U (p0b0exit))))))))';

describe('parseSyfcoLtl', () => {
  it('reads syfco -m fully output and prints it back with the same structure', () => {
    const t = parseSyfcoLtl(SAMPLE);
    expect(t.atoms().sort()).toEqual(['p0b0alarm', 'p0b0closed', 'p0b0enter', 'p0b0exit', 'p0p0between0t29pm7', 'r_0', 'u0c0c', 'u0c0f1dmove2to0f1dpercent231b1b']);
    expect(t.op[t.root]).toBe(Op.and);
    const printed = printTree(t);
    expect(printTree(parseSyfcoLtl(printed))).toBe(printed);
    expect(printed).toContain('(p0b0alarm U p0b0exit)');
    expect(printed).toContain('(X false)');
    expect(printed).toContain('(((! u0c0c) && true) R p0b0closed)');
  });

  it('stores identical subtrees once (bracketed atoms are the same node as bare ones)', () => {
    const t = parseSyfcoLtl('((a) && (G (a && (a))))');
    // a, (a && a), G(a && a), the root.
    expect(t.size).toBe(4);
    expect(printTree(t)).toBe('(a && (G (a && a)))');
  });

  it('gives unary operators their operand only, and binary ones one operand on each side', () => {
    expect(printTree(parseSyfcoLtl('G a -> b'))).toBe('((G a) -> b)');
    expect(printTree(parseSyfcoLtl('a U ! b'))).toBe('(a U (! b))');
    expect(printTree(parseSyfcoLtl('(! (G (F (X (a)))))'))).toBe('(! (G (F (X a))))');
  });

  it.each([
    ['a && b && c', /chained without brackets/],
    ['(a && b) || c -> d', /chained without brackets/],
    ['(a', /unclosed/],
    ['a)', /unbalanced/],
    ['', /unexpected end/],
    ['a b', /expected an operator/],
    ['&& a', /expected an operand/],
    ['(G)', /expected an operand/],
    ['a # b', /unexpected character/],
  ])('refuses %j instead of guessing', (text, message) => {
    expect(() => parseSyfcoLtl(text)).toThrow(SyfcoParseError);
    expect(() => parseSyfcoLtl(text)).toThrow(message);
  });

  it('parses 50,000-deep nesting of unary and binary operators without recursion', () => {
    const n = 50_000;
    const unary = '(X '.repeat(n) + '(a)' + ')'.repeat(n);
    const t1 = parseSyfcoLtl(unary);
    expect(t1.depth()).toBe(n + 1);
    const leftChain = '('.repeat(n) + 'a0' + Array.from({ length: n }, (_, i) => ` && a${(i + 1) % 7})`).join('');
    const t2 = parseSyfcoLtl(leftChain);
    expect(t2.depth()).toBe(n + 1);
    expect(t2.atoms().length).toBe(7);
    const rightChain = Array.from({ length: n }, (_, i) => `(b${i % 5} U `).join('') + 'c' + ')'.repeat(n);
    expect(parseSyfcoLtl(rightChain).depth()).toBe(n + 1);
    expect(printTree(t1, 20)).toBe('(X (X (X (X (X (X (…');
  });
});

describe('treeFromFormula', () => {
  it('converts every operator of our Formula, folding n-ary ∧/∨ left', () => {
    const [a, b, c] = ['a', 'b', 'c'].map(ltl.ap);
    const f = ltl.and(ltl.or(a, b, c), ltl.iff(a, ltl.X(b)), ltl.xor(b, ltl.F(c)), ltl.implies(a, ltl.G(b)), ltl.U(a, b), ltl.W(b, c), ltl.R(c, a), ltl.M(a, c), ltl.not(ltl.U(c, b)));
    const t = treeFromFormula(f);
    const printed = printTree(t);
    for (const piece of ['(a U b)', '(b W c)', '(c R a)', '(a M c)', '(! (c U b))', '(X b)', '(F c)', '(G b)', '(! (b <-> (F c)))', ' <-> ', ' -> ']) expect(printed).toContain(piece);
    // Three disjuncts fold into two binary nodes.
    expect(printed).toMatch(/\(\(a \|\| b\) \|\| c\)|\(\(. \|\| .\) \|\| .\)/);
    expect(treeFromFormula(ltl.TRUE).op).toEqual([Op.true]);
  });

  it('keeps shared sub-formulas shared and handles 50,000 nested operators', () => {
    let f: ltl.Formula = ltl.ap('p');
    for (let i = 0; i < 50_000; i++) f = i % 2 === 0 ? ltl.X(f) : ltl.U(ltl.ap(`q${i % 3}`), f);
    const t = treeFromFormula(f);
    expect(t.depth()).toBe(50_001);
    const shared = ltl.F(ltl.ap('x'));
    expect(treeFromFormula(ltl.and(ltl.G(shared), ltl.X(shared))).size).toBe(5);
  });

  it('builds trees by hand with checked operands', () => {
    const t = new LtlTree();
    expect(() => t.unary(Op.X, 3)).toThrow(/no node 3/);
    const a = t.atom('a');
    t.setRoot(t.binary(Op.xor, a, t.binary(Op.U, a, t.unary(Op.not, a))));
    expect(printTree(t)).toBe('(a xor (a U (! a)))');
  });
});
