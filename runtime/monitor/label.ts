/**
 * Labeling functions: turn raw events (log lines, agent steps) into the truth values of atomic
 * propositions. Declarative rules cover the common cases (equality, membership, regex, numeric
 * comparison, change since the previous event) and compile once into closures; any TypeScript
 * function works too. What happens when an event lacks a field a rule needs is an explicit choice:
 * the proposition is false, or labeling fails.
 */
import { dict, mergeDicts } from '../dict.js';

export type EventRecord = Readonly<Record<string, unknown>>;
export type Scalar = string | number | boolean | null;

export type Condition =
  | { readonly field: string; readonly eq: Scalar }
  | { readonly field: string; readonly ne: Scalar }
  | { readonly field: string; readonly in: readonly Scalar[] }
  | { readonly field: string; readonly matches: string; readonly flags?: string }
  | { readonly field: string; readonly gt: number }
  | { readonly field: string; readonly gte: number }
  | { readonly field: string; readonly lt: number }
  | { readonly field: string; readonly lte: number }
  /** "1", "true", "yes", non-zero numbers and `true` are true; "0", "false", "", "no" and `false` are not. */
  | { readonly field: string; readonly truthy: boolean }
  /** The field's numeric value minus its value in the previous event of the same run. */
  | { readonly field: string; readonly delta: number }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };

/** Proposition name → condition; a bare string names a field read as a truthy flag. */
export type LabelRules = Readonly<Record<string, Condition | string>>;

/** What to do when an event lacks a field a rule reads. */
export type MissingPolicy = 'false' | 'error';

export type Labeler = (event: EventRecord, previous?: EventRecord) => Record<string, boolean>;

/** A rule file is malformed; `path` points into it (e.g. `inCave.any[1].matches`). */
export class LabelRuleError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'LabelRuleError';
  }
}

/** An event lacks a field a rule needs and the policy is `error`. */
export class MissingFieldError extends Error {
  constructor(
    readonly proposition: string,
    readonly field: string,
  ) {
    super(`event has no field '${field}' (needed for proposition '${proposition}')`);
    this.name = 'MissingFieldError';
  }
}

type Test = (event: EventRecord, previous: EventRecord | undefined) => boolean;

const MISSING = Symbol('missing');

function getField(event: EventRecord | undefined, path: readonly string[]): unknown {
  let cur: unknown = event;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, key)) return MISSING;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur === undefined ? MISSING : cur;
}

const FALSY_TEXT = new Set(['', '0', 'false', 'no', 'n', 'f', 'off', 'null', 'none']);

export function truthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return !FALSY_TEXT.has(value.trim().toLowerCase());
  return value !== null && value !== undefined;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number.NaN;
}

/** Loose equality that lets CSV text "1" match the number 1 and "true" match `true`. */
function sameValue(value: unknown, expected: Scalar): boolean {
  if (value === expected) return true;
  if (expected === null) return value === null;
  if (typeof expected === 'number') return toNumber(value) === expected;
  if (typeof expected === 'boolean') return typeof value === 'string' || typeof value === 'number' ? truthy(value) === expected : false;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) === expected : false;
}

const OPS = ['eq', 'ne', 'in', 'matches', 'gt', 'gte', 'lt', 'lte', 'truthy', 'delta'] as const;

function compile(cond: unknown, prop: string, path: string, missing: MissingPolicy): Test {
  if (typeof cond === 'string') return compile({ field: cond, truthy: true }, prop, path, missing);
  if (cond === null || typeof cond !== 'object' || Array.isArray(cond)) {
    throw new LabelRuleError('expected a condition object or a field name', path);
  }
  const c = cond as Record<string, unknown>;
  if ('all' in c || 'any' in c) {
    const key = 'all' in c ? 'all' : 'any';
    const list = c[key];
    if (!Array.isArray(list)) throw new LabelRuleError(`'${key}' needs a list of conditions`, path);
    const tests = list.map((x, i) => compile(x, prop, `${path}.${key}[${i}]`, missing));
    return key === 'all' ? (e, p) => tests.every((t) => t(e, p)) : (e, p) => tests.some((t) => t(e, p));
  }
  if ('not' in c) {
    const inner = compile(c.not, prop, `${path}.not`, missing);
    return (e, p) => !inner(e, p);
  }
  if (typeof c.field !== 'string' || c.field === '') throw new LabelRuleError("a condition needs a 'field'", path);
  const field = c.field;
  const fieldPath = field.split('.');
  const ops = OPS.filter((o) => o in c);
  const unknown = Object.keys(c).filter((k) => k !== 'field' && k !== 'flags' && !(OPS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new LabelRuleError(`unknown operator '${unknown[0]}' (expected one of ${OPS.join(', ')})`, path);
  if (ops.length !== 1) throw new LabelRuleError(`a condition needs exactly one operator (${OPS.join(', ')})`, path);
  const op = ops[0];
  const arg = c[op];
  const onMissing = (): boolean => {
    if (missing === 'error') throw new MissingFieldError(prop, field);
    return false;
  };
  const num = (): number => {
    if (typeof arg !== 'number') throw new LabelRuleError(`'${op}' needs a number`, path);
    return arg;
  };
  let test: (v: unknown, e: EventRecord, p: EventRecord | undefined) => boolean;
  switch (op) {
    case 'eq':
    case 'ne': {
      if (arg !== null && !['string', 'number', 'boolean'].includes(typeof arg)) throw new LabelRuleError(`'${op}' needs a string, number, boolean or null`, path);
      const neg = op === 'ne';
      test = (v) => sameValue(v, arg as Scalar) !== neg;
      break;
    }
    case 'in': {
      if (!Array.isArray(arg)) throw new LabelRuleError("'in' needs a list", path);
      const list = arg as Scalar[];
      test = (v) => list.some((x) => sameValue(v, x));
      break;
    }
    case 'matches': {
      if (typeof arg !== 'string') throw new LabelRuleError("'matches' needs a regular expression string", path);
      let re: RegExp;
      try {
        re = new RegExp(arg, typeof c.flags === 'string' ? c.flags : '');
      } catch (err) {
        throw new LabelRuleError(`invalid regular expression: ${(err as Error).message}`, path);
      }
      test = (v) => {
        re.lastIndex = 0;
        return re.test(typeof v === 'string' ? v : JSON.stringify(v));
      };
      break;
    }
    case 'gt': {
      const n = num();
      test = (v) => toNumber(v) > n;
      break;
    }
    case 'gte': {
      const n = num();
      test = (v) => toNumber(v) >= n;
      break;
    }
    case 'lt': {
      const n = num();
      test = (v) => toNumber(v) < n;
      break;
    }
    case 'lte': {
      const n = num();
      test = (v) => toNumber(v) <= n;
      break;
    }
    case 'truthy': {
      if (typeof arg !== 'boolean') throw new LabelRuleError("'truthy' needs true or false", path);
      test = (v) => truthy(v) === arg;
      break;
    }
    case 'delta': {
      const n = num();
      // The first event of a run has no predecessor: its change is measured from 0.
      test = (v, _e, prev) => {
        const before = prev === undefined ? 0 : getField(prev, fieldPath);
        return toNumber(v) - (before === MISSING ? Number.NaN : toNumber(before)) === n;
      };
      break;
    }
  }
  return (e, p) => {
    const v = getField(e, fieldPath);
    if (v === MISSING) return onMissing();
    return test(v, e, p);
  };
}

/** Compile declarative rules into a labeler; throws `LabelRuleError` for malformed rules. */
export function symbolicLabeler(rules: LabelRules, options: { missing?: MissingPolicy } = {}): Labeler {
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) throw new LabelRuleError('expected an object of proposition → condition', 'labels');
  const missing = options.missing ?? 'false';
  const compiled = Object.entries(rules).map(([prop, cond]) => [prop, compile(cond, prop, prop, missing)] as const);
  return (event, previous) => {
    // Null prototype: a proposition may be called `__proto__` or `constructor`.
    const out = dict<boolean>();
    for (const [prop, test] of compiled) out[prop] = test(event, previous);
    return out;
  };
}

/** Wrap a TypeScript labeling function (e.g. a closure over domain code) in the `Labeler` shape. */
export function functionLabeler(fn: (event: EventRecord, previous?: EventRecord) => Iterable<string> | Record<string, boolean>): Labeler {
  return (event, previous) => {
    const r = fn(event, previous);
    // Prototype-less copies: a proposition may be called `__proto__` or `constructor`.
    if (isIterable(r)) return dict([...r].map((name) => [name, true]));
    return mergeDicts(r);
  };
}

function isIterable(x: unknown): x is Iterable<string> {
  return typeof x === 'object' && x !== null && typeof (x as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
