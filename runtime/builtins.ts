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
