/**
 * Issue 18 item 2: deep nesting in Spot-syntax LTL never crashes. The parser keeps its stacks on
 * the heap, so parentheses nest without limit; a tree deeper than MAX_LTL_DEPTH operators is a
 * located syntax error (exit 2 on the command line). Depths here are ten times those that used to
 * crash with a stack overflow (≈840 parentheses, ≈4,800 `!`).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LtlSyntaxError, MAX_LTL_DEPTH, parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { ap, not, X } from '../../src/ltl/formula.js';
import { fromSyntax } from '../../src/ltl/from-syntax.js';
import { runTslc } from '../support/cli.js';

const PARENS = 8_400;
const NOTS = 48_000;
const parens = (inner: string, n = PARENS) => '('.repeat(n) + inner + ')'.repeat(n);
const nots = '!'.repeat(NOTS) + 'a';
/** `a & (a | (a & …))`: every parenthesis adds an operator level (`&` in `&` would flatten). */
const nestedAnd = (n: number) => Array.from({ length: n }, (_, k) => (k % 2 ? 'a | (' : 'a & (')).join('') + 'a' + ')'.repeat(n);

function syntaxError(text: string): LtlSyntaxError {
  try {
    parseLtl(text);
  } catch (e) {
    if (e instanceof LtlSyntaxError) return e;
    throw e;
  }
  throw new Error(`no syntax error for a ${text.length}-character formula`);
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('the parser at depth', () => {
  it(`reads ${PARENS} nested parentheses`, () => {
    expect(parseLtl(parens('a'))).toEqual({ op: 'ap', name: 'a' });
    expect(parseLtl(parens('G (req -> F grant)'))).toEqual(parseLtl('G (req -> F grant)'));
  });

  it(`reports ${NOTS} negations as too deep, at the operator that crosses the limit`, () => {
    const e = syntaxError(nots);
    expect(e.message).toMatch(/^formula nested too deeply \(more than 1000 operators/);
    expect(e.line).toBe(1);
    // The innermost MAX_LTL_DEPTH negations fit; the next one to the left is the culprit.
    expect(e.col).toBe(NOTS - MAX_LTL_DEPTH);
    expect(nots[e.offset]).toBe('!');
  });

  it('accepts exactly MAX_LTL_DEPTH levels and refuses one more, for every kind of operator', () => {
    for (const [deep, over] of [
      ['!'.repeat(MAX_LTL_DEPTH) + 'a', '!'.repeat(MAX_LTL_DEPTH + 1) + 'a'],
      ['X '.repeat(MAX_LTL_DEPTH) + 'a', 'X '.repeat(MAX_LTL_DEPTH + 1) + 'a'],
      [Array(MAX_LTL_DEPTH + 1).fill('a').join(' U '), Array(MAX_LTL_DEPTH + 2).fill('a').join(' U ')],
      [Array(MAX_LTL_DEPTH + 1).fill('a').join(' -> '), Array(MAX_LTL_DEPTH + 2).fill('a').join(' -> ')],
      [Array(MAX_LTL_DEPTH + 1).fill('a').join(' xor '), Array(MAX_LTL_DEPTH + 2).fill('a').join(' xor ')],
      [nestedAnd(MAX_LTL_DEPTH), nestedAnd(MAX_LTL_DEPTH + 1)],
    ]) {
      expect(() => parseLtl(deep)).not.toThrow();
      expect(syntaxError(over).message).toMatch(/nested too deeply/);
    }
  });

  it('reads long flat chains (depth 1) of any length', () => {
    const n = 100_000;
    const f = parseLtl(Array(n).fill('a').join(' & '));
    expect(f.op === '&' && f.args.length).toBe(n);
    expect(parseLtl(Array(n).fill('a').join(' | ')).op).toBe('|');
  });

  it(`reports ${PARENS} nested &/| as too deep (each level is an operator), located`, () => {
    const e = syntaxError(nestedAnd(PARENS));
    expect(e.message).toMatch(/nested too deeply/);
    expect(['&', '|']).toContain(nestedAnd(PARENS)[e.offset]);
  });

  it('refuses F[n..m] sugar that would expand past the node budget, at the sugar', () => {
    const text = 'F[0..9] '.repeat(7) + 'a'; // 10^7 copies of `a` once expanded, only 140 deep
    const e = syntaxError(text);
    expect(e.message).toMatch(/^formula too large once 'F\[0\.\.9\]' is expanded/);
    expect(text.slice(e.offset, e.offset + e.length)).toBe('F[0..9]');
  });
});

describe('printing and converting deep trees', () => {
  const deepNot = (n: number): LtlNode => {
    let f: LtlNode = { op: 'ap', name: 'a' };
    for (let k = 0; k < n; k++) f = { op: '!', arg: f };
    return f;
  };
  it(`prints a ${NOTS}-deep tree built by a library user`, () => {
    expect(printLtl(deepNot(NOTS))).toBe(nots);
    let u: LtlNode = { op: 'ap', name: 'b' };
    for (let k = 0; k < PARENS; k++) u = { op: 'U', left: u, right: { op: 'ap', name: 'a' } };
    const printed = printLtl(u);
    expect(printed.startsWith('('.repeat(PARENS - 1) + 'b U a) U a')).toBe(true);
  });
  it(`converts a ${NOTS}-deep tree to a formula`, () => {
    expect(fromSyntax(deepNot(NOTS))).toBe(ap('a')); // an even number of negations
    expect(fromSyntax(deepNot(NOTS + 1))).toBe(not(ap('a')));
    let x: LtlNode = { op: 'ap', name: 'a' };
    for (let k = 0; k < PARENS; k++) x = { op: 'X', arg: x };
    let f = fromSyntax(x);
    for (let k = 0; k < PARENS; k++) {
      expect(f.kind).toBe('X');
      if (f.kind === 'X') f = f.arg;
    }
    expect(f).toBe(ap('a'));
    expect(fromSyntax({ op: 'X', arg: { op: 'ap', name: 'a' } })).toBe(X(ap('a')));
  });
  it('refuses a cyclic tree instead of looping', () => {
    const cyclic: { op: '!'; arg: LtlNode } = { op: '!', arg: { op: 'ap', name: 'a' } };
    (cyclic as { arg: LtlNode }).arg = cyclic;
    expect(() => fromSyntax(cyclic)).toThrow(/cycle/);
  });
});

describe('the command line at depth', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tslc-ltl-depth-'));
  const located = (stderr: string, file: string) => {
    expect(stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+: error: formula nested too deeply`));
    expect(stderr).not.toMatch(/internal error|\n\s+at |RangeError/);
  };

  it('check --ltl: deep parentheses are fine, deep negation is exit 2 with a location', async () => {
    const ok = await runTslc('check', '--ltl', parens('G F a'), '--outs', 'a');
    expect([ok.code, ok.stdout]).toEqual([0, expect.stringMatching(/realizable/)]);
    const bad = await runTslc('check', '--ltl', nots, '--ins', 'a', '--outs', 'b');
    expect(bad.code).toBe(2);
    located(bad.stderr, '<formula>');
  });

  it('explain-ltl: deep parentheses are fine, deep negation is exit 2 with a location', async () => {
    const ok = await runTslc('explain-ltl', parens('G (a -> F b)'));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/a/);
    const bad = await runTslc('explain-ltl', nots);
    expect(bad.code).toBe(2);
    located(bad.stderr, '<formula>');
  });

  it('audit --spec: deep parentheses are fine, deep negation is exit 2 with a location', async () => {
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, '{"a":true}\n{"a":false}\n');
    const okRules = join(dir, 'ok.ltl');
    writeFileSync(okRules, `deep: ${parens('G a')}\n`);
    const ok = await runTslc('audit', log, '--spec', okRules);
    expect(ok.code, ok.stderr).toBe(1); // the log violates G a: a verdict, not a crash
    expect(ok.stdout).toMatch(/deep\s+safety\s+1\s+1/);
    const badRules = join(dir, 'bad.ltl');
    writeFileSync(badRules, `deep: ${nots}\n`);
    const bad = await runTslc('audit', log, '--spec', badRules);
    expect(bad.code).toBe(2);
    located(bad.stderr, badRules);
  });
});
