/**
 * Definitions are macros, so a few lines can stand for an astronomically large formula. The
 * checker computes what expansion would cost before expanding (src/tsl/expansion-cost.ts) and
 * refuses, located at the use, what does not fit — at once, instead of after 100 s (or an
 * out-of-memory crash) as before. The cost model is checked against a naive expander.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import type { Definition, Expr } from '../../src/tsl/ast.js';
import { ExpansionCosts, findDefinition, type Scope } from '../../src/tsl/expansion-cost.js';
import { tslSymbols } from '../../src/tsl/index.js';
import { parseTsl } from '../../src/tsl/parse.js';

/** `f0 x = BASE;` then `fi x = f(i-1) (f(i-1) x);` up to `levels`, used once in a guarantee. */
function doubling(base: string, levels: number, use: string): string {
  const lines = [`f0 x = ${base};`];
  for (let i = 1; i <= levels; i++) lines.push(`f${i} x = f${i - 1} (f${i - 1} x);`);
  lines.push(`guarantee { ${use.replace('FN', `f${levels}`)}; }`);
  return lines.join('\n');
}

function firstError(source: string): { where: string; message: string } {
  try {
    tslSymbols('/t/bomb.tsl', source);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const d = err.diagnostics[0];
    return { where: `${d.span?.line}:${d.span?.col}`, message: d.message };
  }
  throw new Error('no error');
}

describe('definition bombs are refused before expanding, at the use', () => {
  // Each took 70–100 s (or ran out of memory) before; the timeout is only a hang guard.
  it('a function definition doubled 20 times (2^20 nested terms)', { timeout: 20_000 }, () => {
    expect(firstError(doubling('p x', 20, 'FN y'))).toEqual({
      where: '22:13',
      message: 'definitions expand to a formula that is too large: "f20" here stands for 1,048,577 nodes (at most 200,000 for the whole file)',
    });
  });

  it('a body that repeats its parameter, doubled 16 times (2^(2^16) nodes)', { timeout: 20_000 }, () => {
    expect(firstError(doubling('f x x', 16, 'p (FN y)'))).toEqual({
      where: '18:15',
      message: 'definitions expand to a formula that is too large: "f16" here stands for more than 1,000,000,000,000 nodes (at most 200,000 for the whole file)',
    });
  });

  it('an identity doubled 20 times (small result, 2^22 steps)', { timeout: 20_000 }, () => {
    expect(firstError(doubling('x', 20, 'p (FN y)'))).toEqual({
      where: '22:15',
      message: 'definitions take too long to expand: "f20" here takes 4,194,303 steps (at most 200,000 for the whole file)',
    });
  });

  /** `g0 = p y && q y;`, `gi = g(i-1) || g(i-1);`: g14 is 98,303 nodes (131,070 steps), flat enough to check. */
  const wide = ['g0 = p y && q y;', ...Array.from({ length: 14 }, (_, i) => `g${i + 1} = g${i} || g${i};`)].join('\n');

  it('a large expansion within the limit is checked as usual', () => {
    const { symbols } = tslSymbols('/t/ok.tsl', `${wide}\nguarantee { g14; }`);
    expect(symbols.predicates).toEqual([
      { name: 'p', arity: 1 },
      { name: 'q', arity: 1 },
    ]);
  });

  it('the limit is for the whole file: the formula that crosses it is the one reported', () => {
    expect(firstError(`${wide}\nguarantee {\n  g14;\n  g13;\n  g14;\n}`)).toEqual({
      where: '19:3',
      message: 'definitions expand to a formula that is too large: "g14" here stands for 98,303 nodes (at most 200,000 for the whole file)',
    });
  });
});

/** Expands by plain substitution, counting nodes and steps as Checker.expand does. */
function naive(e: Expr, scope: Scope, params: ReadonlyMap<string, Expr>, counter: { steps: number }): Expr {
  counter.steps++;
  const at = { ...e } as Expr;
  switch (e.kind) {
    case 'bool':
    case 'num':
      return at;
    case 'name': {
      const bound = params.get(e.name);
      if (bound) return bound;
      const found = findDefinition(scope, e.name);
      if (!found || found.def.params.length !== 0) return at;
      return naive(found.def.body, found.scope, new Map(), counter);
    }
    case 'app': {
      const args = e.args.map((a) => naive(a, scope, params, counter));
      const found = findDefinition(scope, e.fn);
      if (!found) return { ...e, args };
      if (found.def.params.length !== args.length) return { kind: 'bool', value: true, loc: e.loc };
      return naive(found.def.body, found.scope, new Map(found.def.params.map((p, i) => [p, args[i]] as const)), counter);
    }
    case 'update':
      return { ...e, value: naive(e.value, scope, params, counter) };
    case 'unary':
      return { ...e, arg: naive(e.arg, scope, params, counter) };
    default:
      return { ...e, left: naive(e.left, scope, params, counter), right: naive(e.right, scope, params, counter) } as Expr;
  }
}

function nodes(e: Expr): number {
  if (e.kind === 'app') return 1 + e.args.reduce((n, a) => n + nodes(a), 0);
  if (e.kind === 'update') return 1 + nodes(e.value);
  if (e.kind === 'unary') return 1 + nodes(e.arg);
  if ('left' in e) return 1 + nodes(e.left) + nodes(e.right);
  return 1;
}

describe('the cost model', () => {
  /** Definitions d0…dn, each body over its parameters and the earlier definitions (no recursion). */
  const specArb = fc
    .array(
      fc.record({
        params: fc.integer({ min: 0, max: 2 }),
        body: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 6 }),
      }),
      { minLength: 1, maxLength: 5 },
    )
    .map((defs) => {
      const lines = defs.map((d, i) => {
        const params = ['a', 'b'].slice(0, d.params);
        const operand = (k: number): string => {
          const callee = k % (i + 1);
          if (callee < i && k % 3 !== 0) {
            const arity = defs[callee].params;
            return `(d${callee}${Array.from({ length: arity }, (_, j) => ` ${params[(k + j) % Math.max(1, params.length)] ?? 'z'}`).join('')})`;
          }
          return params.length > 0 && k % 2 === 0 ? params[k % params.length] : `p z${k % 3}`;
        };
        return `d${i}${params.map((p) => ` ${p}`).join('')} = ${d.body.map(operand).join(i % 2 === 0 ? ' && ' : ' || ')};`;
      });
      const last = defs.length - 1;
      lines.push(`guarantee { q (d${last}${' y'.repeat(defs[last].params)}) || d${last}${' w'.repeat(defs[last].params)}; }`);
      return lines.join('\n');
    });

  it('predicts exactly the size and the steps of expanding each formula', () => {
    fc.assert(
      fc.property(specArb, (source) => {
        const ast = parseTsl('/t/gen.tsl', source);
        const scope: Scope = { file: ast.file, definitions: new Map<string, Definition>(ast.definitions.map((d) => [d.name, d])), imports: new Map() };
        const formula = ast.sections[0].formulas[0];
        const counter = { steps: 0 };
        const expanded = naive(formula, scope, new Map(), counter);
        expect(new ExpansionCosts().of(formula, scope)).toEqual({ size: nodes(expanded), steps: counter.steps });
      }),
      { numRuns: 300, seed: 4 },
    );
  });
});
