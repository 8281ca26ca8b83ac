/**
 * The TLSF lexer classifies ASCII characters by code and uses its Unicode expressions only at a
 * non-ASCII character (src/tlsf/lexer.ts, for start-up time). These tests hold it to the
 * definition those expressions state — an identifier is `[\p{L}_@][\p{L}\p{N}_@']*`, a number
 * `[0-9]+` not followed by an identifier's first character — on mixed ASCII and Unicode text.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { Lexer } from '../../src/tlsf/lexer.js';

/** Words and numbers by the regular-expression definition alone, in order (the texts below have nothing else). */
function reference(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const word = /[\p{L}_@][\p{L}\p{N}_@']*|[0-9]+/uy;
  for (let i = 0; i < text.length; ) {
    if (/\s/u.test(text[i]) || text[i] === ';') {
      i++;
      continue;
    }
    word.lastIndex = i;
    const m = word.exec(text);
    if (!m) throw new Error(`reference: no token at ${i}`);
    out.push([/^[0-9]/.test(m[0]) ? 'number' : 'ident', m[0]]);
    i = word.lastIndex;
  }
  return out;
}

const tokens = (text: string) =>
  new Lexer('t.tlsf', text)
    .all()
    .filter((t) => t.kind === 'ident' || t.kind === 'number')
    .map((t): [string, string] => [t.kind, t.text]);

describe('TLSF lexer: identifiers and numbers', () => {
  it.each([
    'abc a_b @x x@y _ a1 z9\' q\'\' A Zz 0 42 007',
    'émile naïve λx xλ aé1 éa a_é_b _λ1 @é',
    // Letters outside the Basic Multilingual Plane (surrogate pairs) and non-Latin digits.
    '𝑥 a𝑥b 𝑥1 x٣ ٣',
    'r1;g2; r_1 ;x\'',
    // A number at the very end, and an identifier at the very end.
    'x 12',
    '12 x',
  ])('%s', (text) => {
    // `٣` (an Arabic-Indic digit) starts nothing: it is \p{N}, not \p{L} or [0-9].
    if (text.startsWith('𝑥')) {
      expect(tokens(text.replace(' ٣', ''))).toEqual(reference(text.replace(' ٣', '')));
      expect(() => tokens(text)).toThrow(UserError);
    } else expect(tokens(text)).toEqual(reference(text));
  });

  it('records positions on lines and columns as before', () => {
    const lexer = new Lexer('t.tlsf', 'ab\n  é1 42\n');
    expect(lexer.all().map((t) => [t.kind, t.text, t.line, t.col, t.offset, t.end])).toEqual([
      ['ident', 'ab', 1, 1, 0, 2],
      ['ident', 'é1', 2, 3, 5, 7],
      ['number', '42', 2, 6, 8, 10],
      ['eof', '', 3, 1, 11, 11],
    ]);
  });

  it.each([
    ['3x', "malformed number '3x'"],
    ['12_', "malformed number '12_'"],
    ['7@', "malformed number '7@'"],
    ['5é', "malformed number '5é'"],
  ])('a number followed by an identifier character (%s) is an error', (text, message) => {
    expect(() => new Lexer('t.tlsf', text)).toThrow(message);
  });

  it('a non-ASCII character that is neither a letter nor white space is an unexpected character', () => {
    expect(() => new Lexer('t.tlsf', 'a → b')).toThrow("unexpected character '→'");
    expect(() => new Lexer('t.tlsf', 'a\u00a0b')).not.toThrow();
  });
});
