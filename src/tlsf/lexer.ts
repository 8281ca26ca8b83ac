/**
 * src/tlsf — the TLSF 1.1 front end: lexer, parser (source AST with positions), evaluator
 * (parameters, definitions, buses, big operators → hash-consed LTL), tsltools signal-group
 * recovery, and `loadTlsfGame` which assembles a `GameSpec` the way syfco combines sections.
 *
 * This file: tokens. Comments are `//…` and nested `/* … *\/`, as in syfco.
 */
import { error, type SourceSpan, UserError } from '../diagnostics/diagnostic.js';

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly offset: number;
  readonly line: number;
  readonly col: number;
}

/** Multi-character symbols first, so the longest match wins. */
const SYMBOLS = [
  '(+)', '(-)', '(*)', '(\\)',
  '<->', '->', '<-', '<=', '>=', '==', '!=', '/=', '&&', '||', '..',
  '{', '}', '(', ')', '[', ']', ';', ',', ':', '!', '<', '>', '+', '-', '*', '/', '%', '|', '=', '~',
] as const;

export class Lexer {
  private readonly tokens: Token[] = [];
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

  private lineStarts: number[] = [0];
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
    const push = (kind: TokenKind, text: string, offset: number) => {
      const { line, col } = this.position(offset);
      this.tokens.push({ kind, text, offset, line, col });
    };
    while (i < t.length) {
      const c = t[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
        i++;
        continue;
      }
      if (t.startsWith('//', i)) {
        while (i < t.length && t[i] !== '\n' && t[i] !== '\r') i++;
        continue;
      }
      if (t.startsWith('/*', i)) {
        const start = i;
        let depth = 0;
        while (i < t.length) {
          if (t.startsWith('/*', i)) {
            depth++;
            i += 2;
          } else if (t.startsWith('*/', i)) {
            depth--;
            i += 2;
            if (depth === 0) break;
          } else i++;
        }
        if (depth !== 0) throw new UserError(error('unterminated comment', this.span(start, 2), 'parse'));
        continue;
      }
      if (/[A-Za-z_@]/.test(c)) {
        const start = i;
        while (i < t.length && /[A-Za-z0-9_@']/.test(t[i])) i++;
        push('ident', t.slice(start, i), start);
        continue;
      }
      if (/[0-9]/.test(c)) {
        const start = i;
        while (i < t.length && /[0-9]/.test(t[i])) i++;
        if (i < t.length && /[A-Za-z_@]/.test(t[i])) {
          throw new UserError(error(`malformed number '${t.slice(start, i + 1)}'`, this.span(start, i + 1 - start), 'parse'));
        }
        push('number', t.slice(start, i), start);
        continue;
      }
      if (c === '"') {
        const start = i++;
        let value = '';
        while (i < t.length && t[i] !== '"' && t[i] !== '\n') {
          if (t[i] === '\\' && i + 1 < t.length) i++;
          value += t[i++];
        }
        if (t[i] !== '"') throw new UserError(error('unterminated string', this.span(start, 1), 'parse'));
        i++;
        push('string', value, start);
        continue;
      }
      const sym = SYMBOLS.find((s) => t.startsWith(s, i));
      if (sym) {
        push('punct', sym, i);
        i += sym.length;
        continue;
      }
      const shown = c.codePointAt(0)! < 32 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c;
      throw new UserError(error(`unexpected character '${shown}'`, this.span(i, 1), 'parse'));
    }
    push('eof', '', t.length);
  }
}
