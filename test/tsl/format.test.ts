/**
 * The formatter: its output parses back to the same AST (property test over random ASTs), it
 * brackets wherever tsltools and Spot precedence disagree, and corpus files survive a round trip.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Expr, Loc, Section, TslAst } from '../../src/tsl/ast.js';
import { formatExpr, formatTsl } from '../../src/tsl/format.js';
import { MAX_BRACKET_DEPTH, parseTsl } from '../../src/tsl/parse.js';
import { corpusPath } from '../support/corpus.js';
import { mulberry32 as rng } from '../../runtime/random.js';

const loc: Loc = { line: 1, col: 1, offset: 0, endOffset: 0 };
const LOCATION_KEYS = new Set(['loc', 'fnLoc', 'targetLoc', 'pathLoc', 'headerLoc', 'paren', 'file']);

/** The AST without positions and parenthesis marks: what "the same AST" means. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k, v]) => !LOCATION_KEYS.has(k) && v !== undefined)
        .map(([k, v]) => [k, strip(v)]),
    );
  }
  return value;
}

const names = fc.constantFrom('a', 'b', 'x', 'inCave', 'room.light', 'Time.am0', 'x_1', "p'", '@q', 'Fa', 'Gx', 'Xs', 'U2', 'truely');
const segments = fc.constantFrom('s', 'y', 'arg', 'k2');
const numbers = fc.constantFrom('0', '3', '42', '2.5', '-1', '-2.5');

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('name' as const), name: names, loc: fc.constant(loc) }),
    fc.record({ kind: fc.constant('bool' as const), value: fc.boolean(), loc: fc.constant(loc) }),
    fc.record({ kind: fc.constant('num' as const), text: numbers, loc: fc.constant(loc) }),
    fc.record({
      kind: fc.constant('app' as const),
      fn: names,
      fnLoc: fc.constant(loc),
      args: fc.array(tie('expr'), { maxLength: 3 }),
      loc: fc.constant(loc),
    }),
    fc.record({ kind: fc.constant('update' as const), target: names, targetLoc: fc.constant(loc), value: tie('expr'), loc: fc.constant(loc) }),
    fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom('!', 'X', 'F', 'G'), arg: tie('expr'), loc: fc.constant(loc) }),
    fc.record({
      kind: fc.constant('binary' as const),
      op: fc.constantFrom('&&', '||', '->', '<->', 'U', 'W', 'R'),
      left: tie('expr'),
      right: tie('expr'),
      loc: fc.constant(loc),
    }),
    fc.record({ kind: fc.constant('arith' as const), op: fc.constantFrom('+', '-', '*', '/'), left: tie('expr'), right: tie('expr'), loc: fc.constant(loc) }),
    fc.record({
      kind: fc.constant('compare' as const),
      op: fc.constantFrom('=', '<', '>', '<=', '>='),
      left: tie('expr'),
      right: tie('expr'),
      loc: fc.constant(loc),
    }),
  ) as fc.Arbitrary<Expr>,
})).expr;

/** Operators only, over two atoms: dense in exactly the precedence/associativity corner cases. */
const operatorArb: fc.Arbitrary<Expr> = fc.letrec<{ expr: Expr }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'medium', maxDepth: 4 },
    fc.record({ kind: fc.constant('name' as const), name: fc.constantFrom('a', 'b'), loc: fc.constant(loc) }),
    fc.record({
      kind: fc.constant('binary' as const),
      op: fc.constantFrom('&&', '||', '->', '<->', 'U', 'W', 'R'),
      left: tie('expr'),
      right: tie('expr'),
      loc: fc.constant(loc),
    }),
    fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom('!', 'G'), arg: tie('expr'), loc: fc.constant(loc) }),
    fc.record({ kind: fc.constant('arith' as const), op: fc.constantFrom('+', '-', '*', '/'), left: tie('expr'), right: tie('expr'), loc: fc.constant(loc) }),
    fc.record({ kind: fc.constant('compare' as const), op: fc.constantFrom('=', '<'), left: tie('expr'), right: tie('expr'), loc: fc.constant(loc) }),
  ) as fc.Arbitrary<Expr>,
})).expr;

const sectionArb: fc.Arbitrary<Section> = fc.record({
  kind: fc.constantFrom('assume' as const, 'guarantee' as const),
  time: fc.constantFrom('initially' as const, 'always' as const, 'bare' as const),
  formulas: fc.array(exprArb, { maxLength: 3 }),
  loc: fc.constant(loc),
});

const astArb: fc.Arbitrary<TslAst> = fc.record({
  file: fc.constant('/random.tsl'),
  header: fc.option(fc.constantFrom('#UF', '#EUF', '#LIA', '#QF_UF'), { nil: undefined }),
  imports: fc.array(
    fc.record({ path: fc.constantFrom('lib.tsl', '../x/y.tsl'), alias: fc.constantFrom('L', 'Lib'), loc: fc.constant(loc), pathLoc: fc.constant(loc) }),
    { maxLength: 2 },
  ),
  definitions: fc.array(
    fc.record({ name: fc.constantFrom('A', 'between2', 'my.def'), params: fc.array(segments, { maxLength: 2 }), body: exprArb, loc: fc.constant(loc) }),
    { maxLength: 2 },
  ),
  sections: fc.array(sectionArb, { maxLength: 3 }),
});

describe('formatTsl', () => {
  it('random ASTs are not trivial', () => {
    const samples = fc.sample(exprArb, { numRuns: 300, seed: 3 });
    const depth = (e: Expr): number =>
      e.kind === 'unary' ? 1 + depth(e.arg) : 'left' in e ? 1 + Math.max(depth(e.left), depth(e.right)) : e.kind === 'app' ? 1 + Math.max(0, ...e.args.map(depth)) : e.kind === 'update' ? 1 + depth(e.value) : 0;
    expect(samples.filter((e) => depth(e) >= 3).length).toBeGreaterThan(60);
  });

  it('output parses back to the same AST (random ASTs, both term styles)', () => {
    fc.assert(
      fc.property(astArb, fc.constantFrom('curried' as const, 'call' as const), (ast, style) => {
        const text = formatTsl(ast, { style });
        expect(strip(parseTsl('/random.tsl', text))).toEqual(strip(ast));
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('keeps every operator nesting (operator-dense random formulas)', () => {
    fc.assert(
      fc.property(operatorArb, (e) => {
        const text = `guarantee { ${formatExpr(e)}; }`;
        expect(strip(parseTsl('/random.tsl', text).sections[0].formulas[0])).toEqual(strip(e));
      }),
      { numRuns: 1500, seed: 5 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(astArb, (ast) => {
        const once = formatTsl(ast);
        expect(formatTsl(parseTsl('/random.tsl', once))).toBe(once);
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  const formatted = (formula: string) => formatExpr(parseTsl('/t.tsl', `guarantee { ${formula} }`).sections[0].formulas[0]);

  it.each([
    // tsltools: binary temporal operators bind loosest; the output makes that explicit.
    ['a -> b W c', '(a -> b) W c'],
    ['a W b -> c', 'a W (b -> c)'],
    ['a && b U c || d', '(a && b) U (c || d)'],
    ['a U b R c', '(a U b) R c'],
    ['a R b R c', '(a R b) R c'],
    // A right-nested U (or W) chain reads the same to both, so it stays flat (and parses at any length).
    ['a U b U c', 'a U b U c'],
    ['a W (b W c)', 'a W b W c'],
    ['a U (b W c)', 'a U (b W c)'],
    ['(a U b) U c', '(a U b) U c'],
    ['a -> b <-> c', 'a -> (b <-> c)'],
    // Elsewhere only the brackets precedence needs.
    ['(a && b) || c', 'a && b || c'],
    ['a && (b || c)', 'a && (b || c)'],
    ['!(p x) && G (F y)', '!p x && G F y'],
    ['p(x, f(y), c())', 'p x (f y) c()'],
    ['(between t.pm7) t.pm8', 'between t.pm7 t.pm8'],
    ['[n <- n + 1 * 2]', '[n <- n + 1 * 2]'],
    ['[n <- (n + 1) * 2]', '[n <- (n + 1) * 2]'],
    ['x - (y - z) = -1', 'x - (y - z) = -1'],
  ])('%s → %s', (input, output) => {
    expect(formatted(input)).toBe(output);
  });

  describe('with the source text, comments are kept', () => {
    const specs = join(import.meta.dirname, '../../specs');
    const commentsOf = (text: string) => text.match(/\/\/[^\n]*|\/\*[^]*?\*\//g)?.map((c) => c.trimEnd()) ?? [];
    const cases = [
      ...readdirSync(specs)
        .filter((f) => f.endsWith('.tsl'))
        .map((f) => [f, readFileSync(join(specs, f), 'utf8')] as const),
      ['inline', 'import "a.tsl" as A // lib\n/* about x */ x = y; // trailing\n\nguarantee { a; b // on b\n  && c;\n  // last\n}\n// eof\n'] as const,
    ];
    it.each(cases)('%s', (name, text) => {
      const ast = parseTsl(name, text);
      const out = formatTsl(ast, { source: text });
      expect(commentsOf(out)).toEqual(commentsOf(text));
      expect(strip(parseTsl(name, out))).toEqual(strip(ast));
      expect(formatTsl(parseTsl(name, out), { source: out })).toBe(out);
    });

    it('places leading and trailing comments', () => {
      const text = 'guarantee {\n  // why a\n  a; // a is fine\n  b /* inside */ && c;\n}\n';
      expect(formatTsl(parseTsl('t', text), { source: text })).toBe(
        'guarantee {\n  // why a\n  a; // a is fine\n  /* inside */\n  b && c;\n}\n',
      );
    });
  });

  const corpus = corpusPath('syntcomp-tsl');
  const specFiles = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((n) => n.endsWith('.tsl'))
      .map((n) => join(dir, n));
  it.skipIf(!existsSync(corpus))('every corpus and specs/ file keeps its AST through fmt (both styles), and fmt is idempotent on it', () => {
    const files = [...specFiles(corpus), ...specFiles(join(import.meta.dirname, '../../specs'))];
    expect(files.length).toBeGreaterThanOrEqual(189 + 10);
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      const ast = parseTsl(f, text);
      for (const style of ['curried', 'call'] as const) {
        const out = formatTsl(ast, { style, source: text });
        expect(strip(parseTsl(f, out)), `${f} (${style})`).toEqual(strip(ast));
        expect(formatTsl(parseTsl(f, out), { style, source: out }), `${f} (${style})`).toBe(out);
      }
    }
  });
});

/**
 * Generated spec text — long flat chains of one or several binary operators (TSL-vs-Spot mixes
 * such as `a -> b W c R d` included), and deeply bracketed ones — must come back from fmt as the
 * same AST. Before, a 1,000-term `U` chain was printed as `a U (b U (c …))`, which the parser no
 * longer accepts (it recurses once per bracket).
 */
describe('fmt output parses again to the same AST (generated specs)', () => {
  const BINARY = ['&&', '||', '->', '<->', 'U', 'W', 'R'] as const;
  const opSets: readonly (readonly string[])[] = [
    ...BINARY.map((op) => [op]),
    ['U', 'W', 'R'],
    ['->', '<->'],
    ['U', '&&', '->'],
    ['R', '||', 'W', '<->'],
    ['W', '->', 'U'],
    BINARY,
  ];
  const atoms = ['a', 'p x', '!q', 'X r', 'G (s || t)', 'F p(x, y)', '[o <- f x]', 'b = c + 1', '(a R b)', 'true'];
  const pick = <T,>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

  /** `n` atoms joined by operators from `ops`, flat (the parser folds chains without recursing). */
  const chain = (ops: readonly string[], n: number, seed: number): string => {
    const r = rng(seed);
    const parts = [pick(r, atoms)];
    for (let i = 1; i < n; i++) parts.push(pick(r, ops), pick(r, atoms));
    return parts.join(' ');
  };
  /** `depth` levels of explicit brackets, each level a short chain around the next. */
  const nested = (ops: readonly string[], depth: number, seed: number): string => {
    const r = rng(seed);
    let text = pick(r, atoms);
    for (let i = 0; i < depth; i++) text = r() < 0.5 ? `${pick(r, atoms)} ${pick(r, ops)} (${text})` : `(${text}) ${pick(r, ops)} ${pick(r, atoms)}`;
    return text;
  };
  const roundTrips = (formula: string): void => {
    const text = `always guarantee {\n  ${formula};\n}\n`;
    const ast = parseTsl('/gen.tsl', text);
    for (const style of ['curried', 'call'] as const) {
      const out = formatTsl(ast, { style });
      // As JSON strings: a deep `toEqual` of thousand-node trees is slow and no more exact.
      expect(JSON.stringify(strip(parseTsl('/gen.tsl', out)))).toBe(JSON.stringify(strip(ast)));
    }
  };

  it.each(BINARY)('a 1,000-term %s chain', (op) => {
    roundTrips(Array.from({ length: 1000 }, (_, i) => `a${i}`).join(` ${op} `));
  });

  it('long chains of every operator and their mixes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...opSets), fc.integer({ min: 2, max: 1200 }), fc.integer({ min: 0, max: 0x7fffffff }), (ops, n, seed) =>
        roundTrips(chain(ops, n, seed)),
      ),
      { numRuns: 40, seed: 18 },
    );
  });

  it(`deeply bracketed formulas (up to ${MAX_BRACKET_DEPTH} levels, the parser's limit)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...opSets), fc.integer({ min: 1, max: MAX_BRACKET_DEPTH }), fc.integer({ min: 0, max: 0x7fffffff }), (ops, depth, seed) =>
        roundTrips(nested(ops, depth, seed)),
      ),
      { numRuns: 60, seed: 19 },
    );
  });

  it('long arithmetic and comparison chains inside updates and predicates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1000 }), fc.integer({ min: 0, max: 0x7fffffff }), (n, seed) => {
        const r = rng(seed);
        const term = Array.from({ length: n }, () => pick(r, ['x', '2', 'f y', '(g z)', 'c()'])).reduce((acc, t) => `${acc} ${pick(r, ['+', '-', '*', '/'])} ${t}`);
        roundTrips(`[o <- ${term}] && p (${term}) ${pick(r, ['=', '<', '>=', '<=', '>'])} ${term}`);
      }),
      { numRuns: 15, seed: 20 },
    );
  });
});
