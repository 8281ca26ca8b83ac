/**
 * The checked ("core") form of TSL: definitions expanded, sugar desugared, every formula-level
 * atom classified as a predicate check or an update. Keys give each distinct check/update one
 * proposition; the tsltools encoder reproduces tsltools' proposition names exactly.
 */
import type { TermData } from '../../runtime/table.js';
import type { Loc } from './ast.js';

/** A value-level term. `call` covers functions, constants `c()`, and predicates used as values. */
export type CoreTerm =
  | { readonly kind: 'signal'; readonly name: string; readonly loc: Loc }
  | { readonly kind: 'call'; readonly fn: string; readonly args: readonly CoreTerm[]; readonly isPredicate: boolean; readonly loc: Loc }
  | { readonly kind: 'number'; readonly text: string; readonly loc: Loc }
  | { readonly kind: 'bool'; readonly value: boolean; readonly loc: Loc };

/** What a formula tests: a boolean signal directly, or a predicate applied to terms. */
export type Check =
  | { readonly kind: 'signal'; readonly name: string }
  | { readonly kind: 'predicate'; readonly fn: string; readonly args: readonly CoreTerm[] };

export interface Update {
  readonly signal: string;
  readonly term: CoreTerm;
}

/** Arithmetic / comparison sugar → the function tsltools' preprocessor calls. */
export const ARITH_FUNCTION = { '+': 'add', '-': 'sub', '*': 'mul', '/': 'div' } as const;
export const COMPARE_PREDICATE = { '=': 'eq', '<': 'lt', '>': 'gt', '<=': 'lte', '>=': 'gte' } as const;
export const BUILTIN_FUNCTIONS = new Set<string>(Object.values(ARITH_FUNCTION));
export const BUILTIN_PREDICATES = new Set<string>(Object.values(COMPARE_PREDICATE));

/** tsltools' name for a numeric literal's constant function: `3` → `int3`, `2.5` → `real2.5`. */
export function literalFunctionName(text: string): string {
  return text.includes('.') ? `real${text}` : `int${text}`;
}

/** Canonical text of a term in tsltools' curried style: `f x (g y)`, `c()`. */
export function termText(t: CoreTerm): string {
  switch (t.kind) {
    case 'signal':
      return t.name;
    case 'number':
      return t.text;
    case 'bool':
      return String(t.value);
    case 'call':
      return t.args.length === 0 ? `${t.fn}()` : [t.fn, ...t.args.map(argText)].join(' ');
  }
}
function argText(t: CoreTerm): string {
  return t.kind === 'call' && t.args.length > 0 ? `(${termText(t)})` : termText(t);
}

export function checkText(c: Check): string {
  return c.kind === 'signal' ? c.name : c.args.length === 0 ? `${c.fn}()` : [c.fn, ...c.args.map(argText)].join(' ');
}
export function updateText(u: Update): string {
  return `[${u.signal} <- ${termText(u.term)}]`;
}

export function termData(t: CoreTerm): TermData {
  switch (t.kind) {
    case 'signal':
      return { kind: 'signal', name: t.name };
    case 'number':
      return { kind: 'literal', value: Number(t.text) };
    case 'bool':
      return { kind: 'literal', value: t.value };
    case 'call':
      return { kind: 'call', fn: t.fn, args: t.args.map(termData) };
  }
}

// ---------------------------------------------------------------------------------------------
// tsltools' proposition encoding (tsl2tlsf): `p0…` for checks, `u0…` for updates. Characters
// that are not plain lower-case letters or digits 3–9 are escaped as `2` + code, and nested
// terms are bracketed by `f1d`/`p1d` … `1b`, so the encoding is injective and decodable.

const ESCAPES: Readonly<Record<string, string>> = { '0': '23', '1': '24', '2': '25', _: '26', '@': '27', "'": '28', '.': '29' };

export function tsltoolsEscape(name: string): string {
  let out = '';
  for (const c of name) {
    const escaped = ESCAPES[c];
    if (escaped !== undefined) out += escaped;
    else if (c >= 'A' && c <= 'Z') out += `2${c.toLowerCase()}`;
    else out += c;
  }
  return out;
}

/**
 * tsltools infers types: a signal that is (transitively, through argument positions and updates)
 * tested directly (`room.empty`) is boolean, and as an argument it is then encoded as a predicate
 * term (`p1db0…1b`), not as a plain signal; likewise a function whose result is boolean.
 */
export interface BooleanTypes {
  isBooleanSignal(name: string): boolean;
  isBooleanFunction(fn: string): boolean;
}

function encodeTermTsltools(t: CoreTerm, bools: BooleanTypes): string {
  switch (t.kind) {
    case 'signal':
      return bools.isBooleanSignal(t.name) ? `p1db0${tsltoolsEscape(t.name)}1b` : tsltoolsEscape(t.name);
    case 'number':
      return `f1d${tsltoolsEscape(literalFunctionName(t.text))}1b`;
    case 'bool':
      return t.value ? 'p1dbt1b' : 'p1dbf1b';
    case 'call': {
      const body = tsltoolsEscape(t.fn) + t.args.map((a) => `0${encodeTermTsltools(a, bools)}`).join('');
      return t.isPredicate || bools.isBooleanFunction(t.fn) ? `p1dp0${body}1b` : `f1d${body}1b`;
    }
  }
}

export function tsltoolsCheckName(c: Check, bools: BooleanTypes): string {
  if (c.kind === 'signal') return `p0b0${tsltoolsEscape(c.name)}`;
  return `p0p0${tsltoolsEscape(c.fn)}${c.args.map((a) => `0${encodeTermTsltools(a, bools)}`).join('')}`;
}

/** Self-updates are always encoded with the plain signal, as tsl2tlsf adds them. */
export function tsltoolsUpdateName(u: Update, bools: BooleanTypes): string {
  const self = u.term.kind === 'signal' && u.term.name === u.signal;
  return `u0${tsltoolsEscape(u.signal)}0${self ? tsltoolsEscape(u.signal) : encodeTermTsltools(u.term, bools)}`;
}

// ---------------------------------------------------------------------------------------------
// Readable names: the term's words joined by `_` (`inCave_s`, `u_storyPassage_toCave_s`),
// restricted to `[A-Za-z0-9_]` so Spot, TLSF and syfco all accept them unquoted. Distinct terms
// that would read the same get a numeric suffix (see NameAllocator).

function readableWords(t: CoreTerm): string[] {
  switch (t.kind) {
    case 'signal':
      return [t.name];
    case 'number':
      return [t.text];
    case 'bool':
      return [String(t.value)];
    case 'call':
      return [t.fn, ...t.args.flatMap(readableWords)];
  }
}

function sanitize(words: readonly string[]): string {
  return words
    .join('_')
    .replace(/-/g, 'neg')
    .replace(/[^A-Za-z0-9_]/g, '_');
}

/** Words Spot or TLSF read as operators (or that Spot would split, like `GF1`): not usable bare. */
const OPERATOR_LIKE = /^([XFGUWRMVOHSYZ]|true|false|xor|[XFG]+[0-9]*)$/;

export function readableCheckName(c: Check): string {
  const base = sanitize(c.kind === 'signal' ? [c.name] : [c.fn, ...c.args.flatMap(readableWords)]);
  return /^[A-Za-z]/.test(base) && !OPERATOR_LIKE.test(base) ? base : `p_${base}`;
}

export function readableUpdateName(u: Update): string {
  return sanitize(['u', u.signal, ...readableWords(u.term)]);
}

/** Hands out unique names: the first claimant of a base name gets it, later ones `base_2`, … */
export class NameAllocator {
  private readonly taken = new Set<string>();
  claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}
