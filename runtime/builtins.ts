/**
 * runtime/builtins — default implementations of TSL's arithmetic and comparison sugar.
 *
 * The TSL front end desugars `x + 1` into `add x int1()`; these defaults let a spec use that sugar
 * without the user writing `add` themselves. A user implementation of the same name wins, which is
 * how someone with bigint or decimal signals swaps in their own arithmetic.
 */

type Binary<R> = (left: unknown, right: unknown) => R;

function numeric(value: unknown, fn: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  // A NaN would silently poison a counter forever; failing the step keeps the controller consistent.
  if (Number.isNaN(n)) throw new TypeError(`built-in ${fn}: ${JSON.stringify(value)} is not a number`);
  return n;
}

const arithmetic = (fn: string, op: (a: number, b: number) => number): Binary<number> => (a, b) =>
  op(numeric(a, fn), numeric(b, fn));

const comparison = (fn: string, op: (a: number, b: number) => boolean): Binary<boolean> => (a, b) =>
  op(numeric(a, fn), numeric(b, fn));

export const builtinFunctions = {
  add: arithmetic('add', (a, b) => a + b),
  sub: arithmetic('sub', (a, b) => a - b),
  mul: arithmetic('mul', (a, b) => a * b),
  div: arithmetic('div', (a, b) => {
    if (b === 0) throw new RangeError('built-in div: division by zero');
    return a / b;
  }),
  // Equality compares values as given so `eq label "done"` works on strings too.
  eq: ((a, b) => a === b) as Binary<boolean>,
  lt: comparison('lt', (a, b) => a < b),
  gt: comparison('gt', (a, b) => a > b),
  lte: comparison('lte', (a, b) => a <= b),
  gte: comparison('gte', (a, b) => a >= b),
} as const;

export type BuiltinName = keyof typeof builtinFunctions;

export const builtinNames: readonly string[] = Object.keys(builtinFunctions);

export function isBuiltinName(name: string): name is BuiltinName {
  return Object.prototype.hasOwnProperty.call(builtinFunctions, name);
}

/**
 * The theory a table was synthesized in (`#LIA`, `#UF`): its assumptions were derived from the
 * exact meaning of these built-ins, so under a theory they are fixed (an implementation of the
 * same name is not used) and they refuse values outside the theory instead of computing
 * something the controller's guarantees were not proven for.
 */
export type TheoryName = 'LIA' | 'UF';

function integer(value: unknown, fn: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new TypeError(`built-in ${fn} (#LIA): ${describe(value)} is not an integer`);
  return value;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}

const integerArithmetic = (fn: string, op: (a: number, b: number) => number): Binary<number> => (a, b) => {
  const result = op(integer(a, fn), integer(b, fn));
  if (!Number.isSafeInteger(result)) throw new RangeError(`built-in ${fn} (#LIA): the result ${result} is outside the safe integers`);
  return result;
};
const integerComparison = (fn: string, op: (a: number, b: number) => boolean): Binary<boolean> => (a, b) => op(integer(a, fn), integer(b, fn));

/** `eq` of any two values; a number taking part must be an integer (#LIA) — else the step fails. */
const integerEquality: Binary<boolean> = (a, b) => {
  if (typeof a === 'number') integer(a, 'eq');
  if (typeof b === 'number') integer(b, 'eq');
  return a === b;
};

/** `eq` under #UF: equality of values (`===`); objects are refused, since two equal-looking objects are never `===`. */
const valueEquality: Binary<boolean> = (a, b) => {
  for (const v of [a, b])
    if ((typeof v === 'object' && v !== null) || typeof v === 'function')
      throw new TypeError(`built-in eq (#UF): compares values (strings, numbers, booleans), not ${typeof v === 'function' ? 'a function' : 'an object'}`);
  return a === b;
};

/** The built-ins whose meaning a theory fixes, as the theory reads them. */
export const theoryFunctions: Readonly<Record<TheoryName, Readonly<Record<string, Binary<unknown>>>>> = {
  LIA: {
    add: integerArithmetic('add', (a, b) => a + b),
    sub: integerArithmetic('sub', (a, b) => a - b),
    mul: integerArithmetic('mul', (a, b) => a * b),
    eq: integerEquality,
    lt: integerComparison('lt', (a, b) => a < b),
    gt: integerComparison('gt', (a, b) => a > b),
    lte: integerComparison('lte', (a, b) => a <= b),
    gte: integerComparison('gte', (a, b) => a >= b),
  },
  UF: { eq: valueEquality },
};

/** The built-in `fn` fixed by `theory`, if it fixes one. */
export function theoryFunction(theory: TheoryName | undefined, fn: string): Binary<unknown> | undefined {
  if (theory === undefined) return undefined;
  const table = theoryFunctions[theory];
  return Object.prototype.hasOwnProperty.call(table, fn) ? table[fn] : undefined;
}
