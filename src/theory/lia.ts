/**
 * `#LIA`: which predicates are linear integer arithmetic, their meaning as linear constraints,
 * and whether a conjunction of such literals has an integer model (omega.ts decides).
 *
 * A comparison (`= < > <= >=`) is an arithmetic predicate when its sides are integer terms:
 * integer literals, `+`, `-`, multiplication by a constant, signals of number type (those the
 * arithmetic and ordering built-ins read, compared with a number, or copied from one), and calls
 * of user functions in those positions, which stand for unknown integers (a call's value is one
 * variable per distinct call term, so `len(q) < 3` and `len(q) >= 3` still conflict). `eq` of two
 * terms of which neither is known to be a number stays uninterpreted, as without a theory.
 */
import type { TermData } from '../../runtime/table.js';
import { type Constraint, type Linear, linear, satisfiable } from './omega.js';
import { type TAtom, type TLiteral, type TTerm, termKey } from './terms.js';

const ORDERING = new Set(['lt', 'gt', 'lte', 'gte']);
const ARITHMETIC = new Set(['add', 'sub', 'mul']);

/** Signals holding integers, as far as the spec's own terms show (a fixpoint over its uses). */
export function numericSignals(
  predicates: readonly { readonly fn: string; readonly args: readonly TermData[] }[],
  updates: readonly { readonly signal: string; readonly term: TermData }[],
): Set<string> {
  const numeric = new Set<string>();
  const isNumericTerm = (t: TermData): boolean =>
    (t.kind === 'literal' && typeof t.value === 'number') ||
    (t.kind === 'call' && ARITHMETIC.has(t.fn)) ||
    (t.kind === 'signal' && numeric.has(t.name));
  const mark = (t: TermData): boolean => {
    if (t.kind !== 'signal' || numeric.has(t.name)) return false;
    numeric.add(t.name);
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    const visit = (t: TermData): void => {
      if (t.kind !== 'call') return;
      if (ARITHMETIC.has(t.fn) || ORDERING.has(t.fn)) for (const a of t.args) if (mark(a)) changed = true;
      if (t.fn === 'eq' && t.args.length === 2) {
        if (isNumericTerm(t.args[0]) && mark(t.args[1])) changed = true;
        if (isNumericTerm(t.args[1]) && mark(t.args[0])) changed = true;
      }
      t.args.forEach(visit);
    };
    for (const p of predicates) visit({ kind: 'call', fn: p.fn, args: p.args });
    for (const u of updates) {
      visit(u.term);
      if (isNumericTerm(u.term) && !numeric.has(u.signal)) {
        numeric.add(u.signal);
        changed = true;
      }
      if (numeric.has(u.signal) && mark(u.term)) changed = true;
    }
  }
  return numeric;
}

/** The linear form of an integer term, or undefined if it is not one. */
export function linearOf(t: TTerm, numeric: ReadonlySet<string>): Linear | undefined {
  switch (t.kind) {
    case 'var':
      return numeric.has(t.name) ? linear.variable(termKey(t)) : undefined;
    case 'lit':
      return typeof t.value === 'number' && Number.isSafeInteger(t.value) ? linear.constant(BigInt(t.value)) : undefined;
    case 'app': {
      if (ARITHMETIC.has(t.fn) && t.args.length === 2) {
        const l = linearOf(t.args[0], numeric);
        const r = linearOf(t.args[1], numeric);
        if (!l || !r) return undefined;
        if (t.fn === 'add') return linear.add(l, r);
        if (t.fn === 'sub') return linear.sub(l, r);
        if (linear.isConstant(l)) return linear.scale(r, l.constant);
        if (linear.isConstant(r)) return linear.scale(l, r.constant);
        return undefined;
      }
      // Comparisons used as values and `div` are not integers; any other call is an unknown integer.
      if (ORDERING.has(t.fn) || t.fn === 'eq' || t.fn === 'div') return undefined;
      return linear.variable(termKey(t));
    }
  }
}

/** Whether the term is an integer by its own form (not only by its position). */
function numericByForm(t: TTerm, numeric: ReadonlySet<string>): boolean {
  if (t.kind === 'lit') return typeof t.value === 'number';
  if (t.kind === 'var') return numeric.has(t.name);
  return ARITHMETIC.has(t.fn);
}

/** `left − right` for an arithmetic comparison, or undefined when the atom is not one. */
export function comparisonOf(a: TAtom, numeric: ReadonlySet<string>): { op: string; diff: Linear } | undefined {
  if (a.args.length !== 2 || !(ORDERING.has(a.fn) || a.fn === 'eq')) return undefined;
  if (a.fn === 'eq' && !numericByForm(a.args[0], numeric) && !numericByForm(a.args[1], numeric)) return undefined;
  const l = linearOf(a.args[0], numeric);
  const r = linearOf(a.args[1], numeric);
  if (!l || !r) return undefined;
  return { op: a.fn, diff: linear.sub(l, r) };
}

/**
 * A literal as constraints: one conjunctive list, or (a negated `=`) two alternatives.
 * d = left − right: `<` d ≤ −1, `<=` d ≤ 0, `>` d ≥ 1, `>=` d ≥ 0, `=` d = 0, `≠` d ≤ −1 ∨ d ≥ 1.
 */
export function literalConstraints(op: string, diff: Linear, positive: boolean): Constraint[][] {
  const neg = linear.scale(diff, -1n);
  const ge = (e: Linear, k: bigint): Constraint => ({ kind: 'ge', expr: linear.add(e, linear.constant(k)) });
  const effective = positive ? op : ({ lt: 'gte', gte: 'lt', gt: 'lte', lte: 'gt', eq: 'ne' } as Record<string, string>)[op];
  switch (effective) {
    case 'lt':
      return [[ge(neg, -1n)]];
    case 'lte':
      return [[ge(neg, 0n)]];
    case 'gt':
      return [[ge(diff, -1n)]];
    case 'gte':
      return [[ge(diff, 0n)]];
    case 'eq':
      return [[{ kind: 'eq', expr: diff }]];
    default:
      return [[ge(neg, -1n)], [ge(diff, -1n)]];
  }
}

/** Case splits allowed per query (negated equalities): beyond this the answer is "maybe sat". */
const MAX_SPLITS = 8;

/**
 * Whether the literals (all arithmetic comparisons) have no integer model, plus `extra`
 * constraints. True only when certain.
 */
export function liaUnsat(literals: readonly TLiteral[], numeric: ReadonlySet<string>, extra: readonly Constraint[] = []): boolean {
  const base: Constraint[] = [...extra];
  const choices: Constraint[][][] = [];
  for (const { atom, positive } of literals) {
    const c = comparisonOf(atom, numeric);
    if (!c) return false;
    const alternatives = literalConstraints(c.op, c.diff, positive);
    if (alternatives.length === 1) base.push(...alternatives[0]);
    else choices.push(alternatives);
  }
  if (choices.length > MAX_SPLITS) return false;
  // Unsatisfiable iff every combination of the alternatives is.
  const go = (i: number, acc: Constraint[]): boolean => {
    if (i === choices.length) return satisfiable(acc) === 'unsat';
    return choices[i].every((alt) => go(i + 1, [...acc, ...alt]));
  };
  if (satisfiable(base) === 'unsat') return true;
  return go(0, base);
}
