/**
 * src/tlsf — the TLSF 1.1 front end: lexer, parser (source AST with positions), evaluator
 * (parameters, definitions, buses, big operators → hash-consed LTL), tsltools signal-group
 * recovery, and `loadTlsfGame` which assembles a `GameSpec` the way syfco combines sections.
 *
 * This file: tokens, as syfco's Parsec lexer sees them. Comments are `//…` and nested
 * `/* … *\/`; identifiers are a letter, `_` or `@` followed by letters, digits, `_`, `@` or `'`
 * (Unicode letters and digits count, as Parsec's `letter`/`alphaNum` do); strings may span lines
 * and know one escape, `\"` (any other backslash stays as written).
 */
import { error, type SourceSpan, UserError } from '../diagnostics/diagnostic.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The token's text; for a string, its value (quotes removed, `\"` unescaped). */
  readonly text: string;
  readonly offset: number;
  /** Offset just past the token (for a string, past the closing quote). */
  readonly end: number;
  readonly line: number;
  readonly col: number;
}

/** Symbols by first character, longest first, so the longest match wins. */
const SYMBOLS: ReadonlyMap<string, readonly string[]> = (() => {
  const all = ['(+)', '(-)', '(*)', '(\\)', '<->', '->', '<-', '<=', '>=', '==', '!=', '/=', '&&', '||', '..',
    '{', '}', '(', ')', '[', ']', ';', ',', ':', '!', '<', '>', '+', '-', '*', '/', '%', '|', '=', '~'];
  const byFirst = new Map<string, string[]>();
  for (const sym of all) byFirst.set(sym[0], [...(byFirst.get(sym[0]) ?? []), sym]);
  return byFirst;
})();

/*
 * ASCII characters are classified by code here, and the Unicode expressions below are made and
 * used only at a non-ASCII character: V8 parses a `\p{L}` or `\p{N}` class into a large
 * character table when it creates the expression, before it ever runs (about 4 million
 * instructions for these two, 1–2 ms of a check that runs once per spec; see docs/synthesis.md,
 * start-up), so the literals sit in a function that the first non-ASCII character calls.
 */
let unicode: { readonly ident: RegExp; readonly identPart: RegExp; readonly space: RegExp } | undefined;
const unicodeExpressions = () =>
  (unicode ??= {
    ident: /[\p{L}_@][\p{L}\p{N}_@']*/uy,
    identPart: /[\p{L}\p{N}_@']*/uy,
    space: /\s+/y,
  });
const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** Letter, `_` or `@` (ASCII): what may start an identifier. */
const isAsciiIdentStart = (c: number) => isAsciiLetter(c) || c === 95 || c === 64;
/** Letter, digit, `_`, `@` or `'` (ASCII): what may continue one. */
const isAsciiIdentPart = (c: number) => isAsciiIdentStart(c) || isDigit(c) || c === 39;

/** The end of the identifier starting at `i` (`i` itself when none starts there). */
function identifierEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c < 128 && !isAsciiIdentStart(c)) return i;
  let j = i + (c < 128 ? 1 : 0);
  for (;;) {
    while (j < t.length && isAsciiIdentPart(t.charCodeAt(j))) j++;
    if (j >= t.length || t.charCodeAt(j) < 128) return j;
    // A non-ASCII character: the Unicode classes decide (they also take the ASCII ones).
    const { ident, identPart } = unicodeExpressions();
    ident.lastIndex = j;
    if (j === i) return ident.exec(t) ? ident.lastIndex : i;
    identPart.lastIndex = j;
    identPart.exec(t);
    if (identPart.lastIndex === j) return j;
    j = identPart.lastIndex;
  }
}

export class Lexer {
  private readonly tokens: Token[] = [];
  private readonly lineStarts: number[] = [0];
  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    this.scan();
  }

  all(): readonly Token[] {
    return this.tokens;
  }

  span(offset: number, length = 1): SourceSpan {
    const { line, col } = this.position(offset);
    return { file: this.file, line, col, length };
  }

  position(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - this.lineStarts[lo] + 1 };
  }

  private scan(): void {
    const t = this.text;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 10 || (c === 13 && t.charCodeAt(i + 1) !== 10)) this.lineStarts.push(i + 1);
    }
    let i = 0;
    // Tokens come in source order, so their line is found by walking the line starts forward
    // rather than by a binary search each.
    let line = 0;
    const push = (kind: TokenKind, text: string, offset: number, end: number) => {
      while (line + 1 < this.lineStarts.length && this.lineStarts[line + 1] <= offset) line++;
      this.tokens.push({ kind, text, offset, end, line: line + 1, col: offset - this.lineStarts[line] + 1 });
    };
    while (i < t.length) {
      const code = t.charCodeAt(i);
      if (code === 32 || (code >= 9 && code <= 13)) {
        i++;
        continue;
      }
      if (code > 127) {
        const { space } = unicodeExpressions();
        space.lastIndex = i;
        if (space.test(t)) {
          i = space.lastIndex;
          continue;
        }
      }
      const c = t[i];
      if (c === '/' && t[i + 1] === '/') {
        while (i < t.length && t[i] !== '\n' && t[i] !== '\r') i++;
        continue;
      }
      if (c === '/' && t[i + 1] === '*') {
        const start = i;
        let depth = 0;
        while (i < t.length) {
          if (t[i] === '/' && t[i + 1] === '*') {
            depth++;
            i += 2;
          } else if (t[i] === '*' && t[i + 1] === '/') {
            depth--;
            i += 2;
            if (depth === 0) break;
          } else i++;
        }
        if (depth !== 0) throw new UserError(error('unterminated comment', this.span(start, 2), 'parse'));
        continue;
      }
      const wordEnd = identifierEnd(t, i);
      if (wordEnd > i) {
        push('ident', t.slice(i, wordEnd), i, wordEnd);
        i = wordEnd;
        continue;
      }
      if (isDigit(code)) {
        const start = i;
        while (i < t.length && isDigit(t.charCodeAt(i))) i++;
        if (i < t.length && identifierEnd(t, i) > i) {
          throw new UserError(error(`malformed number '${t.slice(start, i + 1)}'`, this.span(start, i + 1 - start), 'parse'));
        }
        push('number', t.slice(start, i), start, i);
        continue;
      }
      if (c === '"') {
        const start = i++;
        let value = '';
        let from = i;
        while (i < t.length && t[i] !== '"') {
          if (t[i] === '\\' && i + 1 < t.length) {
            // syfco unescapes only \" ; every other pair stays as written.
            if (t[i + 1] === '"') {
              value += t.slice(from, i) + '"';
              from = i + 2;
            }
            i += 2;
          } else i++;
        }
        if (i >= t.length) throw new UserError(error('unterminated string', this.span(start, 1), 'parse'));
        value += t.slice(from, i);
        i++;
        push('string', value, start, i);
        continue;
      }
      const sym = SYMBOLS.get(c)?.find((s) => s.length === 1 || t.startsWith(s, i));
      if (sym) {
        push('punct', sym, i, i + sym.length);
        i += sym.length;
        continue;
      }
      const point = t.codePointAt(i)!;
      const shown = point < 32 ? `\\u${point.toString(16).padStart(4, '0')}` : String.fromCodePoint(point);
      throw new UserError(error(`unexpected character '${shown}'`, this.span(i, 1), 'parse'));
    }
    push('eof', '', t.length, t.length);
  }
}
