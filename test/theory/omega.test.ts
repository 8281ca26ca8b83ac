/**
 * The Omega test against brute force: random small systems, bounded to a box so that enumerating
 * the box decides them exactly. Every answer must be right (`unknown` is not expected here).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Constraint, type Linear, linear, satisfiable } from '../../src/theory/omega.js';

const VARS = ['x', 'y', 'z'];
const BOX = 6;

const lin = (coeffs: Record<string, number>, constant: number): Linear => ({
  coeffs: new Map(Object.entries(coeffs).filter(([, c]) => c !== 0).map(([x, c]) => [x, BigInt(c)])),
  constant: BigInt(constant),
});

function holds(c: Constraint, at: Record<string, number>): boolean {
  let v = c.expr.constant;
  for (const [x, a] of c.expr.coeffs) v += a * BigInt(at[x]);
  return c.kind === 'eq' ? v === 0n : v >= 0n;
}

function bruteForce(cs: readonly Constraint[]): boolean {
  const at: Record<string, number> = {};
  const go = (i: number): boolean => {
    if (i === VARS.length) return cs.every((c) => holds(c, at));
    for (let v = -BOX; v <= BOX; v++) {
      at[VARS[i]] = v;
      if (go(i + 1)) return true;
    }
    return false;
  };
  return go(0);
}

const boxed = (cs: Constraint[]): Constraint[] => [
  ...cs,
  ...VARS.flatMap((x): Constraint[] => [
    { kind: 'ge', expr: lin({ [x]: 1 }, BOX) },
    { kind: 'ge', expr: lin({ [x]: -1 }, BOX) },
  ]),
];

const constraint = fc.record({
  kind: fc.constantFrom<'ge' | 'eq'>('ge', 'ge', 'eq'),
  x: fc.integer({ min: -5, max: 5 }),
  y: fc.integer({ min: -5, max: 5 }),
  z: fc.integer({ min: -5, max: 5 }),
  c: fc.integer({ min: -12, max: 12 }),
}).map(({ kind, x, y, z, c }): Constraint => ({ kind, expr: lin({ x, y, z }, c) }));

describe('Omega test', () => {
  it('agrees with brute force on random bounded systems', () => {
    fc.assert(
      fc.property(fc.array(constraint, { minLength: 1, maxLength: 5 }), (cs) => {
        const system = boxed(cs);
        expect(satisfiable(system)).toBe(bruteForce(system) ? 'sat' : 'unsat');
      }),
      { numRuns: 600, seed: 20 },
    );
  });

  it('agrees with brute force on systems of one-variable constraints (the interval shortcut)', () => {
    const single = fc.record({
      kind: fc.constantFrom<'ge' | 'eq'>('ge', 'ge', 'eq'),
      x: fc.constantFrom(...VARS),
      a: fc.integer({ min: -5, max: 5 }),
      c: fc.integer({ min: -12, max: 12 }),
    }).map(({ kind, x, a, c }): Constraint => ({ kind, expr: lin({ [x]: a }, c) }));
    fc.assert(
      fc.property(fc.array(single, { minLength: 1, maxLength: 6 }), (cs) => {
        const system = boxed(cs);
        expect(satisfiable(system)).toBe(bruteForce(system) ? 'sat' : 'unsat');
      }),
      { numRuns: 600, seed: 21 },
    );
  });

  it('knows integers from rationals', () => {
    // 2x = 1 has a rational solution only.
    expect(satisfiable([{ kind: 'eq', expr: lin({ x: 2 }, -1) }])).toBe('unsat');
    // 1 ≤ 3x ≤ 2: the real shadow is non-empty, no integer fits.
    expect(satisfiable([{ kind: 'ge', expr: lin({ x: 3 }, -1) }, { kind: 'ge', expr: lin({ x: -3 }, 2) }])).toBe('unsat');
    // 27 ≤ 11x + 13y ≤ 45, −10 ≤ 7x − 9y ≤ 4 (Pugh's example without integer points).
    const pugh: Constraint[] = [
      { kind: 'ge', expr: lin({ x: 11, y: 13 }, -27) },
      { kind: 'ge', expr: lin({ x: -11, y: -13 }, 45) },
      { kind: 'ge', expr: lin({ x: 7, y: -9 }, 10) },
      { kind: 'ge', expr: lin({ x: -7, y: 9 }, 4) },
    ];
    expect(satisfiable(pugh)).toBe('unsat');
    // n < 3 and n ≥ 3.
    expect(satisfiable([{ kind: 'ge', expr: lin({ n: -1 }, 2) }, { kind: 'ge', expr: lin({ n: 1 }, -3) }])).toBe('unsat');
    expect(satisfiable([{ kind: 'ge', expr: lin({ n: -1 }, 2) }, { kind: 'ge', expr: lin({ n: 1 }, -2) }])).toBe('sat');
  });

  it('answers unknown, not a guess, when the budget runs out', () => {
    const cs: Constraint[] = [
      { kind: 'ge', expr: lin({ x: 11, y: 13 }, -27) },
      { kind: 'ge', expr: lin({ x: -11, y: -13 }, 45) },
      { kind: 'ge', expr: lin({ x: 7, y: -9 }, 10) },
      { kind: 'ge', expr: lin({ x: -7, y: 9 }, 4) },
    ];
    expect(satisfiable(cs, 3)).toBe('unknown');
  });

  it('builds linear expressions', () => {
    const e = linear.sub(linear.add(linear.variable('x'), linear.constant(3n)), linear.scale(linear.variable('x'), 2n));
    expect([...e.coeffs]).toEqual([['x', -1n]]);
    expect(e.constant).toBe(3n);
  });
});
