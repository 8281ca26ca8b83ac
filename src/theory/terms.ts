/**
 * Terms with time: the values a predicate reads, as the theory solvers see them. A signal is read
 * at some step (`time` 0 = now, 1 = the next step, …); a cell read at step k+1 is replaced by the
 * term its update at step k computes, so a predicate "after an update" becomes a predicate over
 * the values of now (and over inputs of later steps, which nothing constrains).
 */
import type { TermData } from '../../runtime/table.js';

export type TTerm =
  | { readonly kind: 'var'; readonly name: string; readonly time: number }
  | { readonly kind: 'lit'; readonly value: number | string | boolean }
  | { readonly kind: 'app'; readonly fn: string; readonly args: readonly TTerm[] };

/** A predicate applied to terms (`lt n 3`, `failed reply`). */
export interface TAtom {
  readonly fn: string;
  readonly args: readonly TTerm[];
}

export interface TLiteral {
  readonly atom: TAtom;
  readonly positive: boolean;
}

export function fromTermData(t: TermData, time = 0): TTerm {
  switch (t.kind) {
    case 'signal':
      return { kind: 'var', name: t.name, time };
    case 'literal':
      return { kind: 'lit', value: t.value };
    case 'call':
      return { kind: 'app', fn: t.fn, args: t.args.map((a) => fromTermData(a, time)) };
  }
}

/** A canonical key: equal keys are the same term (`n@0`, `#3`, `retry(reply@0)`). */
export function termKey(t: TTerm): string {
  switch (t.kind) {
    case 'var':
      return `${t.name}@${t.time}`;
    case 'lit':
      return `#${JSON.stringify(t.value)}`;
    case 'app':
      return `${t.fn}(${t.args.map(termKey).join(',')})`;
  }
}

export function atomKey(a: TAtom): string {
  return `${a.fn}(${a.args.map(termKey).join(',')})`;
}

/** Every signal the term reads, with the step it is read at. */
export function termVars(t: TTerm, out: Set<string> = new Set()): Set<string> {
  if (t.kind === 'var') out.add(`${t.name}@${t.time}`);
  else if (t.kind === 'app') for (const a of t.args) termVars(a, out);
  return out;
}

export function atomSignals(a: TAtom): Set<string> {
  const out = new Set<string>();
  const visit = (t: TTerm): void => {
    if (t.kind === 'var') out.add(t.name);
    else if (t.kind === 'app') t.args.forEach(visit);
  };
  a.args.forEach(visit);
  return out;
}

/**
 * The term read one step later, after the updates `updates` (cell → its new value's term, read
 * at the earlier step): signals read at `time + 1` that are updated cells become the update's
 * term at `time`; inputs stay, read at the later step.
 */
export function shiftBack(t: TTerm, time: number, updates: ReadonlyMap<string, TermData>): TTerm {
  switch (t.kind) {
    case 'var': {
      if (t.time !== time + 1) return t;
      const u = updates.get(t.name);
      return u === undefined ? t : fromTermData(u, time);
    }
    case 'lit':
      return t;
    case 'app':
      return { kind: 'app', fn: t.fn, args: t.args.map((a) => shiftBack(a, time, updates)) };
  }
}

/** The atom `a` read at step `time`. */
export function atTime(a: TAtom, time: number): TAtom {
  const move = (t: TTerm): TTerm =>
    t.kind === 'var' ? { ...t, time } : t.kind === 'app' ? { kind: 'app', fn: t.fn, args: t.args.map(move) } : t;
  return { fn: a.fn, args: a.args.map(move) };
}

const INFIX_COMPARE: Readonly<Record<string, string>> = { eq: '=', lt: '<', gt: '>', lte: '<=', gte: '>=' };
const INFIX_ARITH: Readonly<Record<string, string>> = { add: '+', sub: '-', mul: '*', div: '/' };

/** TSL text with the arithmetic sugar back (`n + 1`, `n < 3`), for messages. */
export function termText(t: TermData): string {
  switch (t.kind) {
    case 'signal':
      return t.name;
    case 'literal':
      return typeof t.value === 'string' ? JSON.stringify(t.value) : String(t.value);
    case 'call': {
      const op = INFIX_ARITH[t.fn];
      if (op !== undefined && t.args.length === 2) return `${operand(t.args[0])} ${op} ${operand(t.args[1])}`;
      if (t.args.length === 0) return `${t.fn}()`;
      return `${t.fn}(${t.args.map(termText).join(', ')})`;
    }
  }
}

function operand(t: TermData): string {
  return t.kind === 'call' && INFIX_ARITH[t.fn] !== undefined ? `(${termText(t)})` : termText(t);
}

export function predicateText(fn: string, args: readonly TermData[]): string {
  const op = INFIX_COMPARE[fn];
  if (op !== undefined && args.length === 2) return `${termText(args[0])} ${op} ${termText(args[1])}`;
  return args.length === 0 ? `${fn}()` : `${fn}(${args.map(termText).join(', ')})`;
}
