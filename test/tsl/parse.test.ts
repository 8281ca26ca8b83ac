/**
 * The grammar's precedence, associativity and tokens (tsltools' rules), checked by printing the
 * parsed formula fully bracketed.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import type { Expr } from '../../src/tsl/ast.js';
import { loadTslGame, parseTsl } from '../../src/tsl/index.js';

/** Every compound node in brackets: the parse tree as text. */
function tree(e: Expr): string {
  switch (e.kind) {
    case 'bool':
      return String(e.value);
    case 'num':
      return e.text;
    case 'name':
      return e.name;
    case 'app':
      return `${e.fn}(${e.args.map(tree).join(', ')})`;
    case 'update':
      return `[${e.target} <- ${tree(e.value)}]`;
    case 'unary':
      return `${e.op}{${tree(e.arg)}}`;
    default:
      return `(${tree(e.left)} ${e.op} ${tree(e.right)})`;
  }
}
const parsed = (formula: string) => tree(parseTsl('/p.tsl', `guarantee { ${formula} }`).sections[0].formulas[0]);

describe('precedence and associativity (tsltools)', () => {
  it.each([
    ['a R b U c W d -> e || f && g', '(a R (b U (c W (d -> (e || (f && g))))))'],
    ['a && b || c -> d W e U f R g', '((((((a && b) || c) -> d) W e) U f) R g)'],
    ['a R b R c', '((a R b) R c)'],
    ['a U b U c', '(a U (b U c))'],
    ['a W b W c', '(a W (b W c))'],
    ['a -> b <-> c -> d', '(a -> (b <-> (c -> d)))'],
    ['a || b || c', '((a || b) || c)'],
    ['! a && X b', '(!{a} && X{b})'],
    ['G F a -> b', '(G{F{a}} -> b)'],
    ['! x = y + 1 * 2', '!{(x = (y + (1 * 2)))}'],
    ['x - y - z < -3', '(((x - y) - z) < -3)'],
    ['f -1', '(f - 1)'],
    ['p x (f y) c()', 'p(x, f(y), c())'],
    ['p(x, f(y))', 'p(x, f(y))'],
    ['f x + 1 = g(x)', '((f(x) + 1) = g(x))'],
  ])('%s', (input, expected) => {
    expect(parsed(input)).toBe(expected);
  });
});

describe('tokens', () => {
  it('keywords need a word boundary; dotted names are identifiers', () => {
    expect(parsed('Fa && G(b) && X.y && Xs')).toBe('(((Fa && G{b}) && X.y) && Xs)');
    expect(parsed("room.light.on && p' && @q && x_1")).toBe("(((room.light.on && p') && @q) && x_1)");
  });

  it('comments may appear anywhere whitespace may', () => {
    expect(parsed('a /* x /* nested */ y */ && // rest of line\n b')).toBe('(a && b)');
  });

  it('records positions (1-based line and column)', () => {
    const ast = parseTsl('/p.tsl', 'always guarantee {\n  F [out <- f x];\n}');
    const f = ast.sections[0].formulas[0];
    expect([f.loc.line, f.loc.col]).toEqual([2, 3]);
    expect(f.kind === 'unary' && f.arg.kind === 'update' && [f.arg.targetLoc.line, f.arg.targetLoc.col]).toEqual([2, 6]);
  });
});

describe('robustness', () => {
  it.each([
    ['deep parentheses', `guarantee { ${'('.repeat(5000)}a${')'.repeat(5000)} }`],
    ['a long chain', `guarantee { ${Array(20000).fill('a').join(' && ')} }`],
    ['deep negation', `guarantee { ${'!'.repeat(20000)}a }`],
  ])('%s loads or is a diagnostic, never a crash', (_name, text) => {
    let outcome = 'loaded';
    try {
      loadTslGame('/deep.tsl', text);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      outcome = err.diagnostics[0].message;
    }
    expect(outcome).toMatch(/^(loaded|formula nested too deeply \(more than \d+ (brackets|operators) inside each other\); split it into several formulas)$/);
  });
});
