/**
 * The tokenizer of Spot's LTL syntax, written to split text exactly as Spot 2.12's flex scanner
 * (`spot/parsetl/scantl.ll`) does for the LTL part of its language, so that `parseLtl` reads every
 * formula the way `ltlfilt` does (test/conformance/ltl-spot.test.ts checks it on recorded output).
 *
 * What makes this more than a keyword table is flex's rule: the longest match wins, ties go to
 * the earlier rule, and atoms are lexed differently right after an operand. In particular:
 * - `GFa` is `G F a` (an atom cannot start with `F`, `G` or `X` unless a digit follows: `F1`,
 *   `X1a` are atoms), but `TRUE`, `False` are constants and `Falsehood` is `False` then `hood`.
 * - Right after an atom, `)` or a quoted atom, an atom cannot start with `F G M R U V W X` nor
 *   have `F G X` as its second letter, so `a Ub` is `a U b` while `Ub` alone is an atom.
 * - `()` is `X`, `=0`/`=1` after an atom negate/keep it, `*` is `&`, `+` is `|`, `/* … *\/`
 *   comments nest, and inside quotes a run of white space at a rule boundary is dropped.
 * - `X[n]`, `F[n..m]`, `G[n..m]` (Spot's TSLF-like sugar) become repetition tokens.
 * PSL/SERE syntax (`{…}`, `;`, `[*…]`, `|->`, …) and strong next (`X[!]`) are refused with a clear
 * message: tslc reads LTL only.
 */
import { LtlSyntaxError } from './error.js';

export type BinaryOp = '->' | '<->' | '|' | 'xor' | '&' | 'U' | 'W' | 'R' | 'M';
export type PrefixOp = '!' | 'X' | 'F' | 'G';

interface Span {
  readonly start: number;
  readonly end: number;
}
export type Token = Span &
  (
    | { readonly kind: 'atom'; readonly name: string }
    | { readonly kind: 'true' | 'false' | 'lparen' | 'rparen' | 'postneg' | 'postpos' | 'eof' }
    | { readonly kind: 'prefix'; readonly op: PrefixOp }
    /** `X[n]` (min = max = n), `F[n..m]`, `G[n..m]`; `max` is Infinity for `F[n..]`. */
    | { readonly kind: 'rep'; readonly op: 'X' | 'F' | 'G'; readonly min: number; readonly max: number }
    | { readonly kind: 'binary'; readonly op: BinaryOp }
  );

/** Spot stores repetition bounds in 8 bits; 255 means "unbounded". */
export const MAX_REPETITION = 254;

type SymbolMeaning =
  | { readonly kind: 'binary'; readonly op: BinaryOp }
  | { readonly kind: 'prefix'; readonly op: PrefixOp }
  | { readonly kind: 'lparen' | 'rparen' | 'postneg' | 'postpos' | 'string' | 'comment' }
  | { readonly kind: 'unsupported'; readonly what: string };

const BOX = ['[]', '□', '⬜', '◻'];
const DIAMOND = ['<>', '◇', '⋄', '♢'];
const ARROWL = ['->', '-->', '→', '⟶'];
const DARROWL = ['=>', '⇒', '⟹'];
const PSL = 'PSL/SERE syntax is not supported (tslc reads LTL only)';

/** Every spelling that does not start with a letter, digit, `_` or `.`; longest match wins. */
const SYMBOLS: ReadonlyMap<string, SymbolMeaning> = (() => {
  const m = new Map<string, SymbolMeaning>();
  const add = (spellings: readonly string[], meaning: SymbolMeaning) => {
    for (const s of spellings) m.set(s, meaning);
  };
  const psl: SymbolMeaning = { kind: 'unsupported', what: PSL };
  add(['('], { kind: 'lparen' });
  add([')'], { kind: 'rparen' });
  add(['{', '}', ';', ':', '##', '[*]', '[+]', '[*', '[:*]', '[:+]', '[:*', '[='], psl);
  add(ARROWL.map((a) => `[${a}`), psl);
  for (const left of [...BOX, '|']) add([...ARROWL, ...DARROWL].map((a) => left + a), psl);
  for (const left of DIAMOND) add([...ARROWL, ...DARROWL].map((a) => left + a), psl);
  add(['↦', '⤇'], psl);
  add(['Ⓧ'], { kind: 'unsupported', what: 'strong next (Ⓧ, X[!]) is not supported (tslc reads infinite-trace LTL)' });
  add(['!', '~', '¬'], { kind: 'prefix', op: '!' });
  add(['||', '|', '+', '\\/', '∨', '∪'], { kind: 'binary', op: '|' });
  add(['&&', '/\\', '∧', '∩', '&', '*'], { kind: 'binary', op: '&' });
  add(['^', '⊕'], { kind: 'binary', op: 'xor' });
  add([...ARROWL, ...DARROWL], { kind: 'binary', op: '->' });
  add(['<->', '<-->', '↔', '<=>', '⇔'], { kind: 'binary', op: '<->' });
  add(DIAMOND, { kind: 'prefix', op: 'F' });
  add(BOX, { kind: 'prefix', op: 'G' });
  add(['()', '○', '◯'], { kind: 'prefix', op: 'X' });
  add(['=0', '\u0305', '\u0304'], { kind: 'postneg' });
  add(['=1'], { kind: 'postpos' });
  add(['"'], { kind: 'string' });
  add(['/*'], { kind: 'comment' });
  return m;
})();
/** The spellings by first character, longest first, so the first `startsWith` hit is the longest match. */
const SYMBOLS_BY_FIRST: ReadonlyMap<string, readonly (readonly [string, SymbolMeaning])[]> = (() => {
  const m = new Map<string, [string, SymbolMeaning][]>();
  for (const [spelling, meaning] of SYMBOLS) {
    const list = m.get(spelling[0]) ?? [];
    list.push([spelling, meaning]);
    m.set(spelling[0], list);
  }
  for (const list of m.values()) list.sort((a, b) => b[0].length - a[0].length);
  return m;
})();

function isWs(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
/** `[a-zA-Z0-9_.]`: the characters of an unquoted atom. */
function isAtomChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95 || c === 46;
}
const F = 70;
const G = 71;
const X = 88;
/** Upper-case letters an atom cannot start with right after an operand: F G M R U V W X. */
function isOperatorLetter(c: number): boolean {
  return c === F || c === G || c === X || c === 77 || c === 82 || c === 85 || c === 86 || c === 87;
}

/** Letter-spelled keywords: length of the longest one at `i` and what it means. */
function keywordAt(text: string, i: number): { length: number; token: TokenBody } | null {
  switch (text[i]) {
    case 'f':
    case 'F':
    case 't':
    case 'T':
      if (text.startsWith('first_match', i)) return { length: 11, token: { kind: 'unsupported', what: PSL } };
      if (text.slice(i, i + 5).toLowerCase() === 'false') return { length: 5, token: { kind: 'false' } };
      if (text.slice(i, i + 4).toLowerCase() === 'true') return { length: 4, token: { kind: 'true' } };
      break;
    case 'x':
      if (text.startsWith('xor', i)) return { length: 3, token: { kind: 'binary', op: 'xor' } };
      break;
  }
  switch (text[i]) {
    case 'U':
      return { length: 1, token: { kind: 'binary', op: 'U' } };
    case 'W':
      return { length: 1, token: { kind: 'binary', op: 'W' } };
    case 'M':
      return { length: 1, token: { kind: 'binary', op: 'M' } };
    case 'R':
    case 'V':
      return { length: 1, token: { kind: 'binary', op: 'R' } };
    case 'F':
    case 'G':
    case 'X':
      return { length: 1, token: { kind: 'prefix', op: text[i] as 'F' | 'G' | 'X' } };
    default:
      return null;
  }
}

type TokenBody =
  | { readonly kind: 'true' | 'false' }
  | { readonly kind: 'binary'; readonly op: BinaryOp }
  | { readonly kind: 'prefix'; readonly op: PrefixOp }
  | { readonly kind: 'unsupported'; readonly what: string };

/** Length of the unquoted atom at `i`, or 0; Spot's two atom rules depend on the state. */
function atomLength(text: string, i: number, afterOperand: boolean): number {
  const c = text.charCodeAt(i);
  let end = i;
  while (end < text.length && isAtomChar(text.charCodeAt(end))) end++;
  if (!afterOperand) {
    if (c === F || c === G || c === X) return isDigit(text.charCodeAt(i + 1)) ? end - i : 0;
    return isDigit(c) ? 0 : end - i;
  }
  if (isDigit(c) || isOperatorLetter(c)) return 0;
  const c2 = text.charCodeAt(i + 1);
  // Spot: the second character may not be F, G or X; past it, anything goes.
  if (i + 1 < end && c2 !== F && c2 !== G && c2 !== X) return end - i;
  return 1;
}

/** Tokenize Spot-syntax LTL; throws `LtlSyntaxError` at the first character Spot would reject. */
export function lexLtl(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  // Spot's `not_prop` start condition: set after an atom, a quoted atom or `)`.
  let afterOperand = false;
  const fail = (message: string, at: number, length = 1): never => {
    throw new LtlSyntaxError(message, text, at, length);
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWs(c)) {
      i++;
      continue;
    }
    if (isAtomChar(c)) {
      if (isDigit(c)) {
        if (c === 48 || c === 49) {
          out.push({ kind: c === 49 ? 'true' : 'false', start: i, end: i + 1 });
          afterOperand = false;
          i++;
          continue;
        }
        fail(`unexpected character '${text[i]}'`, i);
      }
      const atomLen = atomLength(text, i, afterOperand);
      const kw = keywordAt(text, i);
      if (kw === null || atomLen > kw.length) {
        out.push({ kind: 'atom', name: text.slice(i, i + atomLen), start: i, end: i + atomLen });
        afterOperand = true;
        i += atomLen;
        continue;
      }
      const body = kw.token;
      if (body.kind === 'unsupported') fail(body.what, i, kw.length);
      else if (body.kind === 'prefix' && body.op !== '!') {
        // `X[n]`, `F[n..m]`, `G[n..m]`, possibly with white space before `[`; `X[]` is `X` then `[]`.
        let j = i + 1;
        while (j < text.length && isWs(text.charCodeAt(j))) j++;
        if (text[j] === '[' && text[j + 1] !== ']') {
          const rep = lexRepetition(text, i, j + 1, body.op);
          out.push(rep);
          afterOperand = false;
          i = rep.end;
          continue;
        }
        out.push({ kind: 'prefix', op: body.op, start: i, end: i + 1 });
      } else out.push({ ...body, start: i, end: i + kw.length });
      afterOperand = false;
      i += kw.length;
      continue;
    }
    let meaning: SymbolMeaning | undefined;
    let len = 0;
    for (const [spelling, m] of SYMBOLS_BY_FIRST.get(text[i]) ?? []) {
      if (text.startsWith(spelling, i)) {
        meaning = m;
        len = spelling.length;
        break;
      }
    }
    if (meaning === undefined) {
      const cp = text.codePointAt(i) ?? c;
      fail(`unexpected character '${String.fromCodePoint(cp)}'`, i, cp > 0xffff ? 2 : 1);
      return out; // unreachable: fail throws
    }
    switch (meaning.kind) {
      case 'comment':
        i = skipComment(text, i);
        continue;
      case 'string': {
        const { name, end } = lexQuoted(text, i);
        out.push({ kind: 'atom', name, start: i, end });
        afterOperand = true;
        i = end;
        continue;
      }
      case 'unsupported':
        return fail(meaning.what, i, len);
      case 'postneg':
      case 'postpos':
        // Spot leaves its start condition unchanged after `=0`/`=1`.
        out.push({ kind: meaning.kind, start: i, end: i + len });
        i += len;
        continue;
      case 'rparen':
        out.push({ kind: 'rparen', start: i, end: i + len });
        afterOperand = true;
        i += len;
        continue;
      case 'lparen':
        out.push({ kind: 'lparen', start: i, end: i + len });
        afterOperand = false;
        i += len;
        continue;
      default:
        out.push({ ...meaning, start: i, end: i + len });
        afterOperand = false;
        i += len;
    }
  }
  out.push({ kind: 'eof', start: text.length, end: text.length });
  return out;
}

/**
 * Skip a `/* … *\/` comment starting at `start`; returns the offset after it. Mirrors Spot's
 * comment rules, which nest (`/*` opens another level) but read `/` followed by non-`*`
 * characters as one chunk, so `/**\/` alone does not close (`/**` opens, `/` is text).
 */
function skipComment(text: string, start: number): number {
  let level = 0;
  let p = start;
  const n = text.length;
  while (true) {
    if (p >= n) throw new LtlSyntaxError('unclosed comment', text, start, n - start);
    const c = text.charCodeAt(p);
    if (c === 47 /* / */) {
      if (text.charCodeAt(p + 1) === 42 /* * */) {
        level++;
        p++;
        while (text.charCodeAt(p) === 42) p++;
      } else {
        p++;
        while (p < n && !'*\n\r'.includes(text[p])) p++;
      }
    } else if (c === 42) {
      while (text.charCodeAt(p) === 42) p++;
      if (text.charCodeAt(p) === 47) {
        p++;
        if (--level === 0) return p;
      } else while (p < n && !'*/\n\r'.includes(text[p])) p++;
    } else {
      p++;
      while (p < n && !'*/'.includes(text[p])) p++;
    }
  }
}

/**
 * A double-quoted atom at `start`. Spot's rules: `\c` is `c` (any character but a line break);
 * otherwise at each rule boundary the longest of "text up to `\`, `"` or a line break", "a run of
 * white space" and "a comment opener" wins, ties going to white space (dropped) and to the comment.
 */
function lexQuoted(text: string, start: number): { name: string; end: number } {
  let p = start + 1;
  let name = '';
  const n = text.length;
  while (true) {
    if (p >= n) throw new LtlSyntaxError('unterminated quoted atom', text, start, p - start);
    const c = text.charCodeAt(p);
    if (c === 34 /* " */) return { name, end: p + 1 };
    if (c === 92 /* \ */) {
      if (p + 1 >= n || text.charCodeAt(p + 1) === 10) {
        throw new LtlSyntaxError('a backslash in a quoted atom must escape a character on the same line', text, p);
      }
      name += text[p + 1];
      p += 2;
      continue;
    }
    let content = p;
    while (content < n && !'\\"\n\r'.includes(text[content])) content++;
    let ws = p;
    while (ws < n && isWs(text.charCodeAt(ws))) ws++;
    const contentLen = content - p;
    const wsLen = ws - p;
    if (/^\/\*+$/.test(text.slice(p, content))) {
      throw new LtlSyntaxError("'/*' inside a quoted atom starts a comment in Spot's syntax; write '\\/*'", text, p, contentLen);
    }
    if (wsLen > 0 && wsLen >= contentLen) {
      p = ws; // Spot drops this white space (its white-space rule wins the tie)
      continue;
    }
    name += text.slice(p, content);
    p = content;
  }
}

/**
 * `X[n]`, `F[n..m]`, `G[n..m]` with the bracket opening at `open - 1`: Spot's bracket syntax
 * (`n..m`, `n,m`, `n:m`, `n to m`; `F[n..]`, `F[n..$]`, `F[n:inf]` unbounded; white space and
 * comments allowed inside).
 */
function lexRepetition(text: string, opStart: number, open: number, op: 'X' | 'F' | 'G'): Token {
  type Sq = { kind: 'num'; value: number; start: number; end: number } | { kind: 'sep' | 'unbounded' | 'close' | 'strong'; start: number; end: number };
  const parts: Sq[] = [];
  let p = open;
  const n = text.length;
  const fail = (message: string, at: number, length = 1): never => {
    throw new LtlSyntaxError(message, text, at, length);
  };
  for (;;) {
    if (p >= n) fail(`missing ']' to close the '[' of ${op}[…]`, open - 1);
    const c = text.charCodeAt(p);
    if (isWs(c)) {
      p++;
      continue;
    }
    if (text.startsWith('/*', p)) {
      p = skipComment(text, p);
      continue;
    }
    if (c === 93 /* ] */) {
      parts.push({ kind: 'close', start: p, end: ++p });
      break;
    }
    if (text.startsWith('!]', p)) {
      parts.push({ kind: 'strong', start: p, end: (p += 2) });
      break;
    }
    if (isDigit(c)) {
      const s = p;
      while (p < n && isDigit(text.charCodeAt(p))) p++;
      const digits = text.slice(s, p).replace(/^0+(?=\d)/, '');
      const value = digits.length > 3 ? Infinity : Number(digits);
      if (value > MAX_REPETITION) fail(`${text.slice(s, p)} exceeds the largest repetition Spot supports (${MAX_REPETITION})`, s, p - s);
      parts.push({ kind: 'num', value, start: s, end: p });
      continue;
    }
    const sep = [',', '..', ':', 'to'].find((t) => text.startsWith(t, p));
    if (sep !== undefined) {
      parts.push({ kind: 'sep', start: p, end: (p += sep.length) });
      continue;
    }
    const unb = ['$', 'inf'].find((t) => text.startsWith(t, p));
    if (unb !== undefined) {
      parts.push({ kind: 'unbounded', start: p, end: (p += unb.length) });
      continue;
    }
    fail(`unexpected character '${text[p]}' in ${op}[…]`, p);
  }
  const shape = parts.map((x) => x.kind).join(' ');
  const last = parts[parts.length - 1];
  if (last.kind === 'strong') fail('strong next (Ⓧ, X[!]) is not supported (tslc reads infinite-trace LTL)', last.start, 2);
  const num = (k: number) => (parts[k] as { value: number }).value;
  const token = (min: number, max: number): Token => ({ kind: 'rep', op, min: Math.min(min, max), max: Math.max(min, max), start: opStart, end: p });
  if (op === 'X') {
    if (shape === 'num close') return token(num(0), num(0));
    return fail('X[n] expects one number, as in X[3] a', opStart, p - opStart);
  }
  if (shape === 'num sep num close') return token(num(0), num(2));
  if (shape === 'num sep close' || shape === 'num sep unbounded close') return token(num(0), Infinity);
  return fail(`${op}[n..m] expects two bounds, as in ${op}[2..4] a or ${op}[2..] a`, opStart, p - opStart);
}
