/** Seeded random formulas and lassos for the randomized translator/simplifier tests. */
import { type Formula, and, ap, F, FALSE, G, iff, implies, M, not, or, R, TRUE, U, W, X, xor } from '../../src/ltl/formula.js';
import type { Lasso, Valuation } from '../../src/automata/lasso.js';
import { mulberry32 } from '../../runtime/random.js';

/** Seeded PRNG (mulberry32), shared with the rest of the project. */
export const prng = mulberry32;

export function randomFormula(rand: () => number, names: readonly string[], depth: number): Formula {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  if (depth <= 0 || rand() < 0.2) {
    const r = rand();
    if (r < 0.05) return TRUE;
    if (r < 0.1) return FALSE;
    const a = ap(pick(names));
    return rand() < 0.3 ? not(a) : a;
  }
  const sub = () => randomFormula(rand, names, depth - 1);
  const op = pick(['not', 'and', 'or', 'implies', 'iff', 'xor', 'X', 'F', 'G', 'U', 'W', 'R', 'M', 'F', 'G', 'U'] as const);
  switch (op) {
    case 'not':
      return not(sub());
    case 'and':
      return and(sub(), sub());
    case 'or':
      return or(sub(), sub());
    case 'implies':
      return implies(sub(), sub());
    case 'iff':
      return iff(sub(), sub());
    case 'xor':
      return xor(sub(), sub());
    case 'X':
      return X(sub());
    case 'F':
      return F(sub());
    case 'G':
      return G(sub());
    case 'U':
      return U(sub(), sub());
    case 'W':
      return W(sub(), sub());
    case 'R':
      return R(sub(), sub());
    case 'M':
      return M(sub(), sub());
  }
}

export function randomLasso(rand: () => number, names: readonly string[]): Lasso {
  const letter = (): Valuation => new Set(names.filter(() => rand() < 0.5));
  const prefix = Array.from({ length: Math.floor(rand() * 4) }, letter);
  const cycle = Array.from({ length: 1 + Math.floor(rand() * 4) }, letter);
  return { prefix, cycle };
}

export function showLasso(w: Lasso): string {
  const l = (v: Valuation) => `{${[...v].sort().join(',')}}`;
  return `${w.prefix.map(l).join(' ')} (${w.cycle.map(l).join(' ')})^ω`;
}
