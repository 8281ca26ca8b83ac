/**
 * The values a TLSF expression evaluates to — numbers, formulas (true/false are the Boolean
 * values), sets and buses — with the operations whose exact meaning syfco fixes: integer
 * division and remainder (Haskell's `div` and `mod`, rounding towards −∞), ranges (Haskell's
 * `[a, b .. c]`), and set identity. Also the n-ary connectives built from many operands at once.
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import { type Formula, and, or } from '../ltl/formula.js';

export type Value =
  | { readonly t: 'num'; readonly n: number }
  | { readonly t: 'ltl'; readonly f: Formula }
  /** Items without duplicates; `key` identifies the set (equal sets, equal keys). */
  | { readonly t: 'set'; readonly items: readonly Value[]; readonly key: string }
  | { readonly t: 'bus'; readonly name: string; readonly width: number }
  /** A value of an enum: its codes over `0`, `1`, `*`, all `width` long. */
  | { readonly t: 'enum'; readonly name: string; readonly width: number; readonly codes: readonly string[] };

/** Sets, ranges, bus widths and big-operator instances larger than this are refused. */
export const MAX_ELEMENTS = 1_000_000;

export function num(n: number): Value {
  if (!Number.isSafeInteger(n)) throw new UserError(error(`arithmetic overflow (${n})`, undefined, 'tlsf'));
  return { t: 'num', n };
}
export function ltl(f: Formula): Value {
  return { t: 'ltl', f };
}

/** A string that identifies a value: equal values (as syfco compares them), equal keys. */
export function keyOf(v: Value): string {
  switch (v.t) {
    case 'num':
      return `${v.n}`;
    case 'ltl':
      return `f${v.f.id}`;
    case 'bus':
      return `b${v.name}`;
    case 'set':
      return v.key;
    case 'enum':
      return `e${v.width}:${v.codes.join(',')}`;
  }
}

/** A set of the given values (duplicates dropped); numbers in ascending order, as syfco keeps them. */
export function makeSet(items: readonly Value[]): Value {
  const seen = new Map<string, Value>();
  for (const v of items) {
    const k = keyOf(v);
    if (!seen.has(k)) seen.set(k, v);
  }
  if (seen.size > MAX_ELEMENTS) throw new UserError(error(`a set has too many elements (${seen.size})`, undefined, 'tlsf'));
  const entries = [...seen.entries()].sort((x, y) => compareEntries(x[1], y[1], x[0], y[0]));
  return { t: 'set', items: entries.map((e) => e[1]), key: `{${entries.map((e) => e[0]).join(',')}}` };
}

function compareEntries(x: Value, y: Value, kx: string, ky: string): number {
  if (x.t === 'num' && y.t === 'num') return x.n - y.n;
  if (x.t === 'num') return -1;
  if (y.t === 'num') return 1;
  return kx < ky ? -1 : kx > ky ? 1 : 0;
}

/** Haskell's `div`: the quotient rounded towards −∞ (exact for all safe integers). */
export function floorDiv(l: number, r: number): number {
  const rem = l % r;
  const q = (l - rem) / r;
  return rem !== 0 && rem < 0 !== r < 0 ? q - 1 : q;
}
/** Haskell's `mod`: the remainder with the divisor's sign. */
export function floorMod(l: number, r: number): number {
  const rem = l % r;
  return rem !== 0 && rem < 0 !== r < 0 ? rem + r : rem + 0;
}

/**
 * The number of elements of Haskell's `[first, first + step .. last]`, or undefined when the
 * list never ends (step 0 with first ≤ last, where syfco loops forever).
 */
export function rangeLength(first: number, step: number, last: number): number | undefined {
  if (step === 0) return first <= last ? undefined : 0;
  const n = Math.floor((last - first) / step) + 1;
  return n > 0 ? n : 0;
}

/**
 * The conjunction (or disjunction) of many operands at once. Operands are flattened, sorted in
 * the formula layer's canonical order and handed over in chunks, so that a conjunction of
 * thousands of operands costs O(n log n) rather than the quadratic cost of folding `and` two
 * operands at a time (and never spreads more arguments than a call can take).
 */
export function connective(kind: 'and' | 'or', operands: readonly Formula[]): Formula {
  const build = kind === 'and' ? and : or;
  if (operands.length <= 8) return build(...operands);
  const flat: Formula[] = [];
  for (const f of operands) {
    if (f.kind === kind) for (const g of f.args) flat.push(g);
    else flat.push(f);
  }
  flat.sort((x, y) => x.rank - y.rank || x.id - y.id);
  const CHUNK = 4096;
  if (flat.length <= CHUNK) return build(...flat);
  const parts: Formula[] = [];
  for (let i = 0; i < flat.length; i += CHUNK) parts.push(build(...flat.slice(i, i + CHUNK)));
  return build(...parts);
}
