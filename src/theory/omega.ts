/**
 * src/theory — TSL modulo theories: the decision procedures behind `#LIA` and `#UF`, and the
 * assumptions they justify.
 *
 * This file owns linear integer arithmetic: whether a conjunction of linear equalities and
 * inequalities over the integers has a solution, decided by Pugh's Omega test (equalities are
 * eliminated exactly with the "mod-hat" substitution; a variable is eliminated from the
 * inequalities exactly when its real and dark shadows agree, and otherwise by the dark shadow and
 * the splinters). The test is complete for this fragment; a step budget turns pathological inputs
 * into `unknown` rather than a hang. Arithmetic is on bigints, so no coefficient ever rounds.
 *
 * Soundness is what the callers rely on: `unsat` is only answered for systems without an integer
 * solution (an assumption is added only when its negation is `unsat`); `unknown` is treated as
 * "might be satisfiable", which can only cost an assumption, never add a false one.
 */

/** Σ coeffs[x]·x + constant, over integer variables named by strings. */
export interface Linear {
  readonly coeffs: ReadonlyMap<string, bigint>;
  readonly constant: bigint;
}

/** `expr ≥ 0` or `expr = 0`. */
export interface Constraint {
  readonly kind: 'ge' | 'eq';
  readonly expr: Linear;
}

export type Satisfiability = 'sat' | 'unsat' | 'unknown';

export const linear = {
  constant(c: bigint): Linear {
    return { coeffs: new Map(), constant: c };
  },
  variable(name: string): Linear {
    return { coeffs: new Map([[name, 1n]]), constant: 0n };
  },
  add(a: Linear, b: Linear): Linear {
    const coeffs = new Map(a.coeffs);
    for (const [x, c] of b.coeffs) {
      const sum = (coeffs.get(x) ?? 0n) + c;
      if (sum === 0n) coeffs.delete(x);
      else coeffs.set(x, sum);
    }
    return { coeffs, constant: a.constant + b.constant };
  },
  scale(a: Linear, k: bigint): Linear {
    if (k === 0n) return linear.constant(0n);
    const coeffs = new Map<string, bigint>();
    for (const [x, c] of a.coeffs) coeffs.set(x, c * k);
    return { coeffs, constant: a.constant * k };
  },
  sub(a: Linear, b: Linear): Linear {
    return linear.add(a, linear.scale(b, -1n));
  },
  isConstant(a: Linear): boolean {
    return a.coeffs.size === 0;
  },
};

/** Work limit per query: each normalisation, substitution and shadow counts one step. */
export const DEFAULT_STEP_BUDGET = 20_000;

class OutOfBudget extends Error {}

/** Whether the constraints have a common integer solution. */
export function satisfiable(constraints: readonly Constraint[], stepBudget = DEFAULT_STEP_BUDGET): Satisfiability {
  const budget = { left: stepBudget, fresh: 0 };
  // Most queries bound one counter at a time: intervals decide those without any elimination.
  const intervals = intervalSatisfiable(constraints);
  if (intervals !== undefined) return intervals ? 'sat' : 'unsat';
  try {
    const eqs: Linear[] = [];
    const ges: Linear[] = [];
    for (const c of constraints) (c.kind === 'eq' ? eqs : ges).push(c.expr);
    return solve(eqs, ges, budget) ? 'sat' : 'unsat';
  } catch (err) {
    if (err instanceof OutOfBudget) return 'unknown';
    throw err;
  }
}

/**
 * When every constraint mentions at most one variable: intersect each variable's bounds
 * (a·x + c ≥ 0 is x ≥ ⌈−c/a⌉ or x ≤ ⌊c/−a⌋; a·x + c = 0 needs a | c). Undefined otherwise.
 */
function intervalSatisfiable(constraints: readonly Constraint[]): boolean | undefined {
  const lo = new Map<string, bigint>();
  const hi = new Map<string, bigint>();
  const raise = (x: string, v: bigint) => {
    const cur = lo.get(x);
    if (cur === undefined || v > cur) lo.set(x, v);
  };
  const lower = (x: string, v: bigint) => {
    const cur = hi.get(x);
    if (cur === undefined || v < cur) hi.set(x, v);
  };
  for (const { kind, expr } of constraints) {
    if (expr.coeffs.size > 1) return undefined;
    if (expr.coeffs.size === 0) {
      if (kind === 'eq' ? expr.constant !== 0n : expr.constant < 0n) return false;
      continue;
    }
    const [[x, a]] = expr.coeffs;
    const c = expr.constant;
    if (kind === 'eq') {
      if (c % a !== 0n) return false;
      raise(x, -c / a);
      lower(x, -c / a);
    } else if (a > 0n) raise(x, -floorDiv(c, a)); // x ≥ −c/a, rounded up
    else lower(x, floorDiv(c, -a)); // x ≤ c/(−a), rounded down
  }
  for (const [x, l] of lo) {
    const h = hi.get(x);
    if (h !== undefined && l > h) return false;
  }
  return true;
}

interface Budget {
  left: number;
  fresh: number;
}

function tick(budget: Budget): void {
  if (--budget.left < 0) throw new OutOfBudget();
}

const abs = (a: bigint): bigint => (a < 0n ? -a : a);

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** ⌊a / b⌋ for b > 0 (bigint division truncates towards zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Pugh's symmetric residue: a − m·⌊a/m + 1/2⌋, in (−m/2, m/2]. */
function modHat(a: bigint, m: bigint): bigint {
  return a - m * floorDiv(2n * a + m, 2n * m);
}

function coeffGcd(e: Linear): bigint {
  let g = 0n;
  for (const c of e.coeffs.values()) g = gcd(g, c);
  return g;
}

function divideExact(e: Linear, g: bigint, constant: bigint): Linear {
  const coeffs = new Map<string, bigint>();
  for (const [x, c] of e.coeffs) coeffs.set(x, c / g);
  return { coeffs, constant };
}

/** Replaces `x` by `value` in `e`. */
function substitute(e: Linear, x: string, value: Linear): Linear {
  const a = e.coeffs.get(x);
  if (a === undefined) return e;
  const rest = new Map(e.coeffs);
  rest.delete(x);
  return linear.add({ coeffs: rest, constant: e.constant }, linear.scale(value, a));
}

/**
 * Normalises in place: drops trivially true constraints, divides by the coefficients' gcd (an
 * inequality's constant rounds down, which is exact over the integers). False when some
 * constraint has no solution on its own.
 */
function normalise(eqs: Linear[], ges: Linear[]): boolean {
  for (let i = eqs.length - 1; i >= 0; i--) {
    const e = eqs[i];
    if (e.coeffs.size === 0) {
      if (e.constant !== 0n) return false;
      eqs.splice(i, 1);
      continue;
    }
    const g = coeffGcd(e);
    if (e.constant % g !== 0n) return false;
    if (g !== 1n) eqs[i] = divideExact(e, g, e.constant / g);
  }
  for (let i = ges.length - 1; i >= 0; i--) {
    const e = ges[i];
    if (e.coeffs.size === 0) {
      if (e.constant < 0n) return false;
      ges.splice(i, 1);
      continue;
    }
    const g = coeffGcd(e);
    if (g !== 1n) ges[i] = divideExact(e, g, floorDiv(e.constant, g));
  }
  return true;
}

function solve(eqsIn: readonly Linear[], gesIn: readonly Linear[], budget: Budget): boolean {
  let eqs = [...eqsIn];
  let ges = [...gesIn];
  for (;;) {
    tick(budget);
    if (!normalise(eqs, ges)) return false;
    if (eqs.length > 0) {
      [eqs, ges] = eliminateEquality(eqs, ges, budget);
      continue;
    }
    // Two opposite inequalities e ≥ 0 and −e ≥ 0 are the equality e = 0; as equalities they are
    // eliminated exactly (as a pair they would only ever splinter again).
    const paired = findOppositePair(ges);
    if (paired !== undefined) {
      eqs.push(paired.expr);
      ges = ges.filter((_, i) => i !== paired.i && i !== paired.j);
      continue;
    }
    return eliminateInequalities(ges, budget);
  }
}

function keyOf(e: Linear): string {
  return [...e.coeffs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([x, c]) => `${x}:${c}`).join(',');
}

function findOppositePair(ges: readonly Linear[]): { i: number; j: number; expr: Linear } | undefined {
  const byKey = new Map<string, number>();
  ges.forEach((e, i) => byKey.set(keyOf(e), i));
  for (let i = 0; i < ges.length; i++) {
    const j = byKey.get(keyOf(linear.scale(ges[i], -1n)));
    if (j === undefined || j === i) continue;
    // e + c1 ≥ 0 and −e + c2 ≥ 0: an equality exactly when c1 + c2 = 0 (both sides tight).
    if (ges[i].constant + ges[j].constant === 0n) return { i, j, expr: ges[i] };
  }
  return undefined;
}

/** One step of equality elimination (exact substitution, or Pugh's mod-hat when no coefficient is ±1). */
function eliminateEquality(eqs: Linear[], ges: Linear[], budget: Budget): [Linear[], Linear[]] {
  const e = eqs[0];
  let unit: string | undefined;
  let smallest: [string, bigint] | undefined;
  for (const [x, c] of e.coeffs) {
    if (abs(c) === 1n) {
      unit = x;
      break;
    }
    if (smallest === undefined || abs(c) < abs(smallest[1])) smallest = [x, c];
  }
  let x: string;
  let value: Linear;
  if (unit !== undefined) {
    // a·x + rest = 0 with a = ±1: x = −rest / a = −a·rest.
    x = unit;
    const a = e.coeffs.get(unit)!;
    const rest = new Map(e.coeffs);
    rest.delete(unit);
    value = linear.scale({ coeffs: rest, constant: e.constant }, -a);
  } else {
    const [k, ak] = smallest!;
    const m = abs(ak) + 1n;
    const sigma = `#σ${++budget.fresh}`;
    const sign = ak > 0n ? 1n : -1n;
    const coeffs = new Map<string, bigint>([[sigma, -m * sign]]);
    for (const [y, c] of e.coeffs) {
      if (y === k) continue;
      const r = modHat(c, m) * sign;
      if (r !== 0n) coeffs.set(y, r);
    }
    x = k;
    value = { coeffs, constant: modHat(e.constant, m) * sign };
  }
  tick(budget);
  return [eqs.map((q) => substitute(q, x, value)), ges.map((q) => substitute(q, x, value))];
}

function eliminateInequalities(ges: Linear[], budget: Budget): boolean {
  if (ges.length === 0) return true;
  // Per variable: how many lower (positive coefficient) and upper (negative) bounds, and whether
  // eliminating it is exact (every lower or every upper coefficient is 1).
  const stats = new Map<string, { lower: number; upper: number; unitLower: boolean; unitUpper: boolean }>();
  for (const e of ges) {
    for (const [x, c] of e.coeffs) {
      let s = stats.get(x);
      if (!s) stats.set(x, (s = { lower: 0, upper: 0, unitLower: true, unitUpper: true }));
      if (c > 0n) {
        s.lower++;
        if (c !== 1n) s.unitLower = false;
      } else {
        s.upper++;
        if (c !== -1n) s.unitUpper = false;
      }
    }
  }
  // A variable bounded on one side only can always be chosen to satisfy its constraints.
  for (const [x, s] of stats) {
    if (s.lower === 0 || s.upper === 0) return solve([], ges.filter((e) => !e.coeffs.has(x)), budget);
  }
  let best: string | undefined;
  let bestCost = Infinity;
  let bestExact = false;
  for (const [x, s] of stats) {
    const exact = s.unitLower || s.unitUpper;
    const cost = s.lower * s.upper;
    if ((exact && !bestExact) || (exact === bestExact && cost < bestCost)) {
      best = x;
      bestCost = cost;
      bestExact = exact;
    }
  }
  const x = best!;
  const lowers: Linear[] = [];
  const uppers: Linear[] = [];
  const rest: Linear[] = [];
  for (const e of ges) {
    const c = e.coeffs.get(x);
    if (c === undefined) rest.push(e);
    else (c > 0n ? lowers : uppers).push(e);
  }
  // lower: a·x + L ≥ 0 (a > 0), upper: −b·x + U ≥ 0 (b > 0); together a·U + b·L ≥ 0 (real shadow),
  // and a·U + b·L ≥ (a−1)(b−1) guarantees an integer x between them (dark shadow).
  const shadow = (dark: boolean): Linear[] => {
    const out = [...rest];
    for (const lo of lowers) {
      const a = lo.coeffs.get(x)!;
      const L = withoutVar(lo, x);
      for (const up of uppers) {
        const b = -up.coeffs.get(x)!;
        const U = withoutVar(up, x);
        let combined = linear.add(linear.scale(U, a), linear.scale(L, b));
        if (dark) combined = linear.add(combined, linear.constant(-(a - 1n) * (b - 1n)));
        out.push(combined);
        tick(budget);
      }
    }
    return out;
  };
  if (bestExact) return solve([], shadow(false), budget);
  if (!solve([], shadow(false), budget)) return false;
  if (solve([], shadow(true), budget)) return true;
  // Splinters: any integer solution outside the dark shadow lies close to some lower bound,
  // a·x = −L + i for 0 ≤ i ≤ (bmax·a − bmax − a) / bmax.
  let bmax = 0n;
  for (const up of uppers) {
    const b = -up.coeffs.get(x)!;
    if (b > bmax) bmax = b;
  }
  for (const lo of lowers) {
    const a = lo.coeffs.get(x)!;
    const limit = floorDiv(bmax * a - bmax - a, bmax);
    for (let i = 0n; i <= limit; i++) {
      // a·x + L − i = 0
      const eq = linear.add(lo, linear.constant(-i));
      if (solve([eq], ges, budget)) return true;
    }
  }
  return false;
}

function withoutVar(e: Linear, x: string): Linear {
  const coeffs = new Map(e.coeffs);
  coeffs.delete(x);
  return { coeffs, constant: e.constant };
}
