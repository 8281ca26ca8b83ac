/**
 * Spot-syntax LTL parser for the runtime and the compiler (`--ins/--outs` front end, monitors,
 * shields). Dependency-free on purpose: runtime code must not import src/.
 *
 * Precedence follows Spot's grammar (loosest first): `-> <->` (right-assoc), `|`, `xor`, `&`,
 * `U W R M V` (right-assoc), then the prefix operators `! X F G` which bind tightest. So
 * `a -> b U c` is `a -> (b U c)` here, unlike TLSF where `U` binds looser than `->`.
 */
import type { LtlNode } from './syntax.js';

/** A syntax error with a 0-based offset and the 1-based line/column editors show. */
export class LtlSyntaxError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly col: number;
  /** Characters of the offending token (at least 1), for carets. */
  readonly length: number;
  constructor(message: string, text: string, offset: number, length = 1) {
    super(message);
    this.name = 'LtlSyntaxError';
    this.offset = offset;
    const { line, col } = lineCol(text, offset);
    this.line = line;
    this.col = col;
    this.length = Math.max(1, length);
  }
}

export function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

type TokKind = 'ident' | 'string' | 'op' | 'lparen' | 'rparen' | 'eof';
interface Token {
  readonly kind: TokKind;
  /** For `op`: a canonical operator; for `ident`/`string`: the name. */
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** Symbolic operators, longest first so `<->` wins over `<-`… and `->`. */
const SYMBOLS: readonly (readonly [string, string])[] = [
  ['<->', '<->'],
  ['<=>', '<->'],
  ['->', '->'],
  ['=>', '->'],
  ['&&', '&'],
  ['/\\', '&'],
  ['||', '|'],
  ['\\/', '|'],
  ['[]', 'G'],
  ['<>', 'F'],
  ['&', '&'],
  ['|', '|'],
  ['!', '!'],
  ['~', '!'],
  ['^', 'xor'],
];

/** Words that are operators or constants rather than atoms. */
const WORDS: Readonly<Record<string, string>> = {
  X: 'X',
  F: 'F',
  G: 'G',
  U: 'U',
  W: 'W',
  R: 'R',
  V: 'R',
  M: 'M',
  xor: 'xor',
  true: 'true',
  false: 'false',
};

function isIdentStart(c: string): boolean {
  return /[A-Za-z_]/.test(c);
}
function isIdentPart(c: string): boolean {
  return /[A-Za-z0-9_.]/.test(c);
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: TokKind, value: string, start: number, end: number) => out.push({ kind, value, start, end });
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '(') {
      push('lparen', '(', i, ++i);
      continue;
    }
    if (c === ')') {
      push('rparen', ')', i, ++i);
      continue;
    }
    if (c === '"') {
      const start = i++;
      let name = '';
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        name += text[i++];
      }
      if (i >= text.length) throw new LtlSyntaxError('unterminated quoted atom', text, start, i - start);
      i++;
      if (name.length === 0) throw new LtlSyntaxError('empty quoted atom', text, start, 2);
      push('string', name, start, i);
      continue;
    }
    if (c === '0' || c === '1') {
      // `0`/`1` are constants only when they stand alone (not the start of `10` or `1a`).
      if (i + 1 >= text.length || !isIdentPart(text[i + 1])) {
        push('op', c === '1' ? 'true' : 'false', i, ++i);
        continue;
      }
    }
    if (isIdentStart(c)) {
      const start = i;
      while (i < text.length && isIdentPart(text[i])) i++;
      splitIdentifier(text.slice(start, i), start, push);
      continue;
    }
    const sym = SYMBOLS.find(([s]) => text.startsWith(s, i));
    if (sym) {
      push('op', sym[1], i, i + sym[0].length);
      i += sym[0].length;
      continue;
    }
    throw new LtlSyntaxError(`unexpected character '${c}'`, text, i);
  }
  out.push({ kind: 'eof', value: '', start: text.length, end: text.length });
  return out;
}

/**
 * Spot reads `GFa` as `G F a`: an identifier made of a run of `F G X` followed by a rest that
 * does not start with an upper-case letter is split into prefix operators and an atom. Write
 * `"Fire"` in double quotes to get an atom that starts like an operator.
 */
function splitIdentifier(
  word: string,
  start: number,
  push: (kind: TokKind, value: string, start: number, end: number) => void,
): void {
  const op = WORDS[word];
  if (op !== undefined) {
    push('op', op, start, start + word.length);
    return;
  }
  const m = /^([FGX]+)(.*)$/.exec(word);
  if (m && (m[2] === '' || !/^[A-Z]/.test(m[2]))) {
    for (let k = 0; k < m[1].length; k++) push('op', m[1][k], start + k, start + k + 1);
    const rest = m[2];
    if (rest === '') return;
    const restStart = start + m[1].length;
    if (rest === '0' || rest === '1') push('op', rest === '1' ? 'true' : 'false', restStart, restStart + 1);
    else push('ident', rest, restStart, restStart + rest.length);
    return;
  }
  push('ident', word, start, start + word.length);
}

const BINARY_LEVELS: readonly (readonly string[])[] = [
  ['->', '<->'],
  ['|'],
  ['xor'],
  ['&'],
  ['U', 'W', 'R', 'M'],
];
const RIGHT_ASSOC = new Set(['->', '<->', 'U', 'W', 'R', 'M']);
const PREFIX = new Set(['!', 'X', 'F', 'G']);

/** Parse a formula in Spot's syntax; throws `LtlSyntaxError` with the position of the problem. */
export function parseLtl(text: string): LtlNode {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const describe = (t: Token) =>
    t.kind === 'eof' ? 'end of formula' : `'${text.slice(t.start, t.end)}'`;
  const fail = (message: string, t: Token): never => {
    throw new LtlSyntaxError(message, text, t.start, t.end - t.start);
  };

  const parseLevel = (level: number): LtlNode => {
    if (level >= BINARY_LEVELS.length) return parseUnary();
    const ops = BINARY_LEVELS[level];
    const first = parseLevel(level + 1);
    const t = peek();
    if (t.kind !== 'op' || !ops.includes(t.value)) return first;
    if (RIGHT_ASSOC.has(t.value)) {
      pos++;
      const right = parseLevel(level); // right-associative: same level on the right
      return binary(t.value, first, right);
    }
    const operands: LtlNode[] = [first];
    let op = t.value;
    while (peek().kind === 'op' && ops.includes(peek().value)) {
      const next = peek();
      if (next.value !== op) {
        // A level with several left-assoc ops (none today) would fold here.
        op = next.value;
      }
      pos++;
      operands.push(parseLevel(level + 1));
    }
    if (op === 'xor') return operands.reduce((l, r) => ({ op: 'xor', left: l, right: r }));
    return { op: op as '&' | '|', args: flatten(op as '&' | '|', operands) };
  };

  const parseUnary = (): LtlNode => {
    const t = peek();
    if (t.kind === 'op' && PREFIX.has(t.value)) {
      pos++;
      const arg = parseUnary();
      return { op: t.value as '!' | 'X' | 'F' | 'G', arg };
    }
    return parsePrimary();
  };

  const parsePrimary = (): LtlNode => {
    const t = peek();
    if (t.kind === 'ident' || t.kind === 'string') {
      pos++;
      return { op: 'ap', name: t.value };
    }
    if (t.kind === 'op' && (t.value === 'true' || t.value === 'false')) {
      pos++;
      return { op: t.value };
    }
    if (t.kind === 'lparen') {
      pos++;
      if (peek().kind === 'rparen') fail('empty parentheses', peek());
      const inner = parseLevel(0);
      const close = peek();
      if (close.kind !== 'rparen') fail(`expected ')' to close the '(' at column ${lineCol(text, t.start).col}, found ${describe(close)}`, close);
      pos++;
      return inner;
    }
    if (t.kind === 'eof') return fail('unexpected end of formula: expected an operand', t);
    if (t.kind === 'rparen') return fail("unexpected ')': expected an operand", t);
    return fail(`expected an operand, found ${describe(t)}`, t);
  };

  if (peek().kind === 'eof') fail('empty formula', peek());
  const node = parseLevel(0);
  const rest = peek();
  if (rest.kind !== 'eof') {
    if (rest.kind === 'rparen') fail("unmatched ')'", rest);
    fail(`expected an operator or end of formula, found ${describe(rest)}`, rest);
  }
  return node;
}

function binary(op: string, left: LtlNode, right: LtlNode): LtlNode {
  return { op: op as '->' | '<->' | 'U' | 'W' | 'R' | 'M', left, right };
}

function flatten(op: '&' | '|', operands: readonly LtlNode[]): LtlNode[] {
  const out: LtlNode[] = [];
  for (const o of operands) {
    if (o.op === op) out.push(...o.args);
    else out.push(o);
  }
  return out;
}

/** Offset of the first occurrence of each atom in `text` (for diagnostics about atoms). */
export function atomOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tokenize(text)) {
    if ((t.kind === 'ident' || t.kind === 'string') && !out.has(t.value)) out.set(t.value, t.start);
  }
  return out;
}
