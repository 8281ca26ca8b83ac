/**
 * TLSF expressions, parsed by operator precedence with explicit stacks instead of recursion, so
 * that nesting depth is bounded by memory, not by the JavaScript stack (generated specs nest
 * parentheses thousands deep).
 *
 * Precedence is syfco's expression table (Reader/Parser/Expression.hs), tightest first:
 *   numeric prefix (SIZE MIN MAX SIZEOF SUM[…] PROD[…]) · `*` · `/ %` (right) · `+ -` ·
 *   set prefix (CUP[…] CAP[…]) · SETMINUS (right) · CAP · CUP · comparisons · `<-`/IN ·
 *   LTL prefix (! X F G X[n] F[a:b] G[a:b] &&[…] ||[…]) · `&&` · `||` · `-> <->` (right) ·
 *   W (right) · U (right) · R · `:`.
 * So in TLSF `a -> b U c` is `(a -> b) U c`, and a prefix operator takes everything that binds
 * tighter than itself: `! a == b` is `!(a == b)`, `G a -> b` is `(G a) -> b`.
 *
 * A prefix operator of level P applies to an operand made of operators tighter than P, exactly
 * as Parsec's buildExpressionParser does; this parser also accepts a few forms syfco rejects
 * (a prefix operator right after a tighter binary one: `a == !b`), never giving a form syfco
 * accepts another meaning.
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { BinaryOp, Expr, IndexedOp, PrefixOp } from './ast.js';
import type { Lexer, Token } from './lexer.js';

/** What the expression parser needs from the document parser: a token cursor. */
export interface TokenCursor {
  peek(ahead?: number): Token;
  next(): Token;
  readonly lexer: Lexer;
}

/** Precedence levels, tightest (smallest) first; prefix families have levels of their own. */
const NUM_PREFIX = 1;
const SET_PREFIX = 5;
const LTL_PREFIX = 11;

interface BinarySpec {
  readonly op: BinaryOp;
  readonly level: number;
  readonly right: boolean;
}
const binarySpecs: Array<[string[], BinaryOp, number, boolean]> = [
  [['*', 'MUL'], '*', 2, false],
  [['/', 'DIV'], '/', 3, true],
  [['%', 'MOD'], '%', 3, true],
  [['+', 'PLUS'], '+', 4, false],
  [['-', 'MINUS'], '-', 4, false],
  [['(-)', '(\\)', 'SETMINUS'], 'SETMINUS', 6, true],
  [['(*)', 'CAP'], 'CAP', 7, false],
  [['(+)', 'CUP'], 'CUP', 8, false],
  [['==', 'EQ'], '==', 9, false],
  [['/=', '!=', 'NEQ'], '!=', 9, false],
  [['>', 'GE'], '>', 9, false],
  [['>=', 'GEQ'], '>=', 9, false],
  [['<', 'LE'], '<', 9, false],
  [['<=', 'LEQ'], '<=', 9, false],
  [['<-', 'IN', 'ELEM'], 'IN', 10, false],
  [['&&', 'AND'], '&&', 12, false],
  [['||', 'OR'], '||', 13, false],
  [['->', 'IMPLIES'], '->', 14, true],
  [['<->', 'EQUIV'], '<->', 14, true],
  [['W'], 'W', 15, true],
  [['U'], 'U', 16, true],
  [['R'], 'R', 17, false],
  [[':'], ':', 20, false],
];
const BINARY: ReadonlyMap<string, BinarySpec> = new Map(
  binarySpecs.flatMap(([spellings, op, level, right]) => spellings.map((s) => [s, { op, level, right }] as const)),
);

/** Words that start an operator with a bracketed argument list, `&&[i <- S] e`, by family. */
const INDEXED: ReadonlyMap<string, { readonly op: IndexedOp; readonly level: number }> = new Map([
  ['&&', { op: '&&', level: LTL_PREFIX }],
  ['AND', { op: '&&', level: LTL_PREFIX }],
  ['FORALL', { op: '&&', level: LTL_PREFIX }],
  ['||', { op: '||', level: LTL_PREFIX }],
  ['OR', { op: '||', level: LTL_PREFIX }],
  ['EXISTS', { op: '||', level: LTL_PREFIX }],
  ['X', { op: 'X', level: LTL_PREFIX }],
  ['F', { op: 'F', level: LTL_PREFIX }],
  ['G', { op: 'G', level: LTL_PREFIX }],
  ['(+)', { op: 'CUP', level: SET_PREFIX }],
  ['CUP', { op: 'CUP', level: SET_PREFIX }],
  ['(*)', { op: 'CAP', level: SET_PREFIX }],
  ['CAP', { op: 'CAP', level: SET_PREFIX }],
  ['+', { op: 'SUM', level: NUM_PREFIX }],
  ['SUM', { op: 'SUM', level: NUM_PREFIX }],
  ['*', { op: 'PROD', level: NUM_PREFIX }],
  ['PROD', { op: 'PROD', level: NUM_PREFIX }],
] as const);

const PREFIX: ReadonlyMap<string, { readonly op: PrefixOp; readonly level: number }> = new Map([
  ['!', { op: '!', level: LTL_PREFIX }],
  ['NOT', { op: '!', level: LTL_PREFIX }],
  ['X', { op: 'X', level: LTL_PREFIX }],
  ['F', { op: 'F', level: LTL_PREFIX }],
  ['G', { op: 'G', level: LTL_PREFIX }],
  ['SIZEOF', { op: 'SIZEOF', level: NUM_PREFIX }],
  ['SIZE', { op: 'SIZE', level: NUM_PREFIX }],
  ['MIN', { op: 'MIN', level: NUM_PREFIX }],
  ['MAX', { op: 'MAX', level: NUM_PREFIX }],
] as const);

const PAST_TIME = new Set(['Y', 'H', 'O', 'S', 'T']);
const PAST_TIME_PREFIX = new Set(['Y', 'H', 'O']);

/**
 * Words that can never name a signal, parameter or definition. The binary temporal operators
 * `U W R S T` are not among them: syfco reads them as names wherever an operand is expected (a
 * signal may be called `R`), as tslc does.
 */
export const RESERVED = new Set([
  'NOT', 'AND', 'OR', 'IMPLIES', 'EQUIV', 'true', 'false', 'PLUS', 'MINUS', 'MUL', 'DIV', 'MOD', 'SIZE', 'MIN',
  'MAX', '_', 'SETMINUS', 'CAP', 'CUP', 'otherwise', 'X', 'G', 'F', 'SUM', 'PROD', 'IN', 'SIZEOF',
  'Y', 'H', 'O', 'EQ', 'NEQ', 'LE', 'GE', 'LEQ', 'GEQ', 'ELEM',
]);

type Pending =
  | { readonly kind: 'prefix'; readonly op: PrefixOp; readonly level: number; readonly start: number }
  | { readonly kind: 'indexed'; readonly op: IndexedOp; readonly level: number; readonly start: number; readonly params: Expr[] }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly level: number };

/** A bracketing construct being read; its items are the comma-separated expressions inside. */
type Group =
  | { readonly kind: 'top' }
  | { readonly kind: 'paren'; readonly open: Token }
  | { readonly kind: 'call'; readonly name: Token; readonly open: Token }
  | { readonly kind: 'index'; readonly name: Token; readonly open: Token }
  | { readonly kind: 'set'; readonly open: Token }
  | { readonly kind: 'size'; readonly open: Token }
  | { readonly kind: 'params'; readonly op: IndexedOp; readonly level: number; readonly start: number; readonly open: Token };

interface Context {
  readonly group: Group;
  readonly items: Expr[];
  readonly operands: Expr[];
  readonly operators: Pending[];
  /** In a set: how many items came before `..` (a range), else undefined. */
  rangeAfter?: number;
}

const isWord = (t: Token, text: string) => (t.kind === 'punct' || t.kind === 'ident') && t.text === text;

export function parseExpression(cursor: TokenCursor): Expr {
  return new ExpressionParser(cursor).parse();
}

class ExpressionParser {
  private readonly stack: Context[] = [];
  constructor(private readonly c: TokenCursor) {}

  private fail(message: string, t: Token): never {
    throw new UserError(error(message, this.c.lexer.span(t.offset, Math.max(1, t.end - t.offset)), 'parse'));
  }
  private describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'string') return `string "${t.text}"`;
    return `'${t.text}'`;
  }

  private open(group: Group): void {
    this.stack.push({ group, items: [], operands: [], operators: [] });
  }

  parse(): Expr {
    this.open({ kind: 'top' });
    let operand = true;
    for (;;) {
      const ctx = this.stack[this.stack.length - 1];
      const t = this.c.peek();
      if (operand) {
        operand = this.operandPosition(ctx, t);
        continue;
      }
      // Operator position: a binary operator, or the end of the current group.
      const spec = t.kind === 'punct' || t.kind === 'ident' ? BINARY.get(t.text) : undefined;
      if (spec) {
        this.c.next();
        const ops = ctx.operators;
        while (ops.length > 0) {
          const top = ops[ops.length - 1];
          if (top.level < spec.level || (top.level === spec.level && !spec.right)) this.reduce(ctx);
          else break;
        }
        ops.push({ kind: 'binary', op: spec.op, level: spec.level });
        operand = true;
        continue;
      }
      if (t.kind === 'ident' && PAST_TIME.has(t.text)) this.fail(`past-time operator '${t.text}' is not supported by tslc`, t);
      if (isWord(t, '~')) this.fail("pattern matching ('~') is not supported by tslc", t);
      const next = this.endOfItem(ctx, t);
      if (typeof next !== 'string') return next.done;
      operand = next === 'operand';
    }
  }

  /** Reads what may start an operand; returns whether an operand is still expected. */
  private operandPosition(ctx: Context, t: Token): boolean {
    const c = this.c;
    if (t.kind === 'eof') this.fail('unexpected end of file: expected an operand', t);
    if (t.kind === 'number') {
      c.next();
      const value = Number(t.text);
      if (!Number.isSafeInteger(value)) this.fail(`number ${t.text} is too large`, t);
      ctx.operands.push({ kind: 'number', value, start: t.offset, end: t.end });
      return false;
    }
    if (t.kind === 'string') this.fail(`expected an operand, found ${this.describe(t)}`, t);
    const bracket = isWord(c.peek(1), '[');
    if (bracket) {
      const indexed = INDEXED.get(t.text);
      if (indexed) {
        c.next();
        const open = c.next();
        this.open({ kind: 'params', op: indexed.op, level: indexed.level, start: t.offset, open });
        return this.paramsOpened(indexed.op);
      }
    }
    const prefix = PREFIX.get(t.text);
    if (prefix && (t.kind === 'punct' || t.kind === 'ident')) {
      c.next();
      ctx.operators.push({ kind: 'prefix', op: prefix.op, level: prefix.level, start: t.offset });
      return true;
    }
    if (t.kind === 'punct') {
      if (t.text === '(') {
        c.next();
        this.open({ kind: 'paren', open: t });
        return true;
      }
      if (t.text === '{') {
        c.next();
        if (isWord(c.peek(), '}')) {
          const close = c.next();
          ctx.operands.push({ kind: 'set', items: [], start: t.offset, end: close.end });
          return false;
        }
        this.open({ kind: 'set', open: t });
        return true;
      }
      if (t.text === '|') {
        c.next();
        this.open({ kind: 'size', open: t });
        return true;
      }
      return this.fail(`expected an operand, found ${this.describe(t)}`, t);
    }
    // An identifier or keyword.
    const word = t.text;
    if (word === 'true' || word === 'false') {
      c.next();
      ctx.operands.push({ kind: 'bool', value: word === 'true', start: t.offset, end: t.end });
      return false;
    }
    if (word === 'otherwise') {
      c.next();
      ctx.operands.push({ kind: 'otherwise', start: t.offset, end: t.end });
      return false;
    }
    if (PAST_TIME_PREFIX.has(word)) this.fail(`past-time operator '${word}' is not supported by tslc`, t);
    if (RESERVED.has(word)) this.fail(`expected an operand, found the operator '${word}'`, t);
    c.next();
    const after = c.peek();
    if (isWord(after, '(')) {
      c.next();
      if (isWord(c.peek(), ')')) {
        const close = c.next();
        ctx.operands.push({ kind: 'call', name: word, nameEnd: t.end, args: [], start: t.offset, end: close.end });
        return false;
      }
      this.open({ kind: 'call', name: t, open: after });
      return true;
    }
    if (isWord(after, '[')) {
      c.next();
      this.open({ kind: 'index', name: t, open: after });
      return true;
    }
    ctx.operands.push({ kind: 'id', name: word, start: t.offset, end: t.end });
    return false;
  }

  /**
   * Just after `op[`: syfco's strong variants `X[!]`, `X[!n]`, `F[!a:b]`, `G[!a:b]` mean the
   * same as the plain ones under infinite-trace semantics; `&&[]` has no bindings.
   */
  private paramsOpened(op: IndexedOp): boolean {
    const c = this.c;
    if ((op === 'X' || op === 'F' || op === 'G') && isWord(c.peek(), '!')) {
      if (op === 'X' && isWord(c.peek(1), ']')) {
        // `X[!]` is the strong next operator: a plain prefix X.
        const group = this.stack.pop()!.group as Group & { kind: 'params' };
        c.next();
        c.next();
        this.top().operators.push({ kind: 'prefix', op: 'X', level: group.level, start: group.start });
        return true;
      }
      c.next();
    }
    if (isWord(c.peek(), ']')) {
      c.next();
      const group = this.stack.pop()!.group as Group & { kind: 'params' };
      this.top().operators.push({ kind: 'indexed', op: group.op, level: group.level, start: group.start, params: [] });
    }
    return true;
  }

  private top(): Context {
    return this.stack[this.stack.length - 1];
  }

  private reduce(ctx: Context): void {
    const op = ctx.operators.pop()!;
    if (op.kind === 'binary') {
      const right = ctx.operands.pop()!;
      const left = ctx.operands.pop()!;
      ctx.operands.push({ kind: 'binary', op: op.op, left, right, start: left.start, end: right.end });
      return;
    }
    const arg = ctx.operands.pop()!;
    if (op.kind === 'prefix') ctx.operands.push({ kind: 'prefix', op: op.op, arg, start: op.start, end: arg.end });
    else ctx.operands.push({ kind: 'indexed', op: op.op, params: op.params, arg, start: op.start, end: arg.end });
  }

  /** The expression of the current item, all its operators applied. */
  private finishItem(ctx: Context): Expr {
    while (ctx.operators.length > 0) this.reduce(ctx);
    const e = ctx.operands.pop()!;
    ctx.items.push(e);
    return e;
  }

  /**
   * At a token that is not a binary operator: the top-level expression ends (returned), or the
   * current group takes a separator (`,` `..`) or its closing token; anything else is an error.
   * Otherwise says what comes next: an operand or an operator.
   */
  private endOfItem(ctx: Context, t: Token): { done: Expr } | 'operand' | 'operator' {
    const g = ctx.group;
    const c = this.c;
    switch (g.kind) {
      case 'top':
        return { done: this.finishItem(ctx) };
      case 'paren':
        if (isWord(t, ')')) return this.close(ctx, t);
        return this.fail(`expected ')' to close the '(' at ${g.open.line}:${g.open.col}, found ${this.describe(t)}`, t);
      case 'call':
        if (isWord(t, ',')) return this.separator(ctx);
        if (isWord(t, ')')) return this.close(ctx, t);
        return this.fail(`expected ')' to close the arguments of '${g.name.text}', found ${this.describe(t)}`, t);
      case 'index':
        if (isWord(t, ']')) return this.close(ctx, t);
        return this.fail(`expected ']' to close the index of '${g.name.text}', found ${this.describe(t)}`, t);
      case 'size':
        if (isWord(t, '|')) return this.close(ctx, t);
        return this.fail(`expected '|' to close the set size |…|, found ${this.describe(t)}`, t);
      case 'params':
        if (isWord(t, ',')) return this.separator(ctx);
        if ((g.op === 'X' || g.op === 'F' || g.op === 'G') && isWord(t, '!') && isWord(c.peek(1), ']')) {
          // The strong variants `X[n!]`, `F[a:b!]`, `G[a:b!]`.
          c.next();
          return this.close(ctx, c.peek());
        }
        if (isWord(t, ']')) return this.close(ctx, t);
        return this.fail(`expected ']' to close the '${this.source(g)}[' bracket, found ${this.describe(t)}`, t);
      case 'set':
        if (isWord(t, ',') && ctx.rangeAfter === undefined) return this.separator(ctx);
        if (isWord(t, '..') && ctx.rangeAfter === undefined) {
          this.finishItem(ctx);
          if (ctx.items.length > 2) this.fail('a range is written {first .. last} or {first, second .. last}', t);
          ctx.rangeAfter = ctx.items.length;
          c.next();
          return 'operand';
        }
        if (isWord(t, '}')) return this.close(ctx, t);
        if (ctx.rangeAfter !== undefined) return this.fail(`expected '}' to close the range, found ${this.describe(t)}`, t);
        return this.fail(`expected '}' to close the set opened at ${g.open.line}:${g.open.col}, found ${this.describe(t)}`, t);
    }
  }

  private source(g: Group & { kind: 'params' }): string {
    return this.c.lexer.text.slice(g.start, g.open.offset).trim();
  }

  private separator(ctx: Context): 'operand' {
    this.finishItem(ctx);
    this.c.next();
    return 'operand';
  }

  /** The closing token of the current group: build its node into the enclosing context. */
  private close(ctx: Context, t: Token): 'operand' | 'operator' {
    this.finishItem(ctx);
    this.c.next();
    this.stack.pop();
    const outer = this.top();
    const g = ctx.group;
    const items = ctx.items;
    const end = t.end;
    switch (g.kind) {
      case 'paren': {
        const inner = items[0];
        outer.operands.push({ ...inner, start: g.open.offset, end });
        break;
      }
      case 'call':
        outer.operands.push({ kind: 'call', name: g.name.text, nameEnd: g.name.end, args: items, start: g.name.offset, end });
        break;
      case 'index':
        outer.operands.push({ kind: 'index', name: g.name.text, nameEnd: g.name.end, index: items[0], start: g.name.offset, end });
        break;
      case 'size':
        outer.operands.push({ kind: 'size', arg: items[0], start: g.open.offset, end });
        break;
      case 'set':
        if (ctx.rangeAfter === undefined) outer.operands.push({ kind: 'set', items, start: g.open.offset, end });
        else if (items.length !== ctx.rangeAfter + 1) this.fail('a range is written {first .. last} or {first, second .. last}', t);
        else if (ctx.rangeAfter === 1) outer.operands.push({ kind: 'range', first: items[0], last: items[1], start: g.open.offset, end });
        else outer.operands.push({ kind: 'range', first: items[0], second: items[1], last: items[2], start: g.open.offset, end });
        break;
      case 'params':
        // An operand follows a bracket list `&&[…]`; an operator follows any other group.
        outer.operators.push({ kind: 'indexed', op: g.op, level: g.level, start: g.start, params: items });
        return 'operand';
      case 'top':
        break;
    }
    return 'operator';
  }
}
