/**
 * Spot-syntax LTL parser for the runtime and the compiler (`--ltl`, `explain-ltl`, `audit --spec`,
 * monitors, shields). Dependency-free on purpose: runtime code must not import src/.
 *
 * Precedence follows Spot's grammar (loosest first): `-> <->` (right-assoc), `|`, `xor`, `&`
 * (left-assoc), `U W R M` (right-assoc), then the prefix operators `! X F G`, which bind tighter
 * than every binary operator. So `a -> b U c` is `a -> (b U c)` here, unlike TLSF where `U` binds
 * looser than `->`. The tokenizer (lex.ts) splits text as Spot's scanner does.
 *
 * The parser is an operator-precedence loop with explicit stacks, not recursive descent, so
 * nesting costs heap, not call stack: thousands of parentheses are fine. The tree it builds is
 * bounded instead — at most `MAX_LTL_DEPTH` operators deep and `maxNodes` nodes once `F[n..m]`
 * sugar is expanded — so every recursive consumer downstream is safe; past either bound the
 * error points at the operator that crossed it.
 */
import { LtlSyntaxError } from './error.js';
import { type BinaryOp, lexLtl, type Token } from './lex.js';
import type { LtlNode } from './syntax.js';

export { LtlSyntaxError, lineCol } from './error.js';

/**
 * Deepest operator nesting a parsed formula may have. Formulas people write are a few dozen deep;
 * the compiler's and monitors' passes recurse over the tree, and this keeps them far from Node's
 * stack limit.
 */
export const MAX_LTL_DEPTH = 1000;

function precedence(op: BinaryOp): number {
  switch (op) {
    case '->':
    case '<->':
      return 1;
    case '|':
      return 2;
    case 'xor':
      return 3;
    case '&':
      return 4;
    default:
      return 5; // U W R M
  }
}
/** Levels whose operators group to the right (`a -> b -> c` is `a -> (b -> c)`). */
function rightAssoc(prec: number): boolean {
  return prec === 1 || prec === 5;
}

interface Operand {
  readonly node: LtlNode;
  readonly depth: number;
  /** Nodes of the tree as printed (shared sub-trees of `F[n..m]` counted each time). */
  readonly size: number;
}
type Pending =
  | { readonly kind: 'prefix' | 'rep' | 'lparen'; readonly tok: Token }
  | { readonly kind: 'binary'; readonly tok: Token; readonly op: BinaryOp; readonly prec: number };

/** Parse a formula in Spot's syntax; throws `LtlSyntaxError` with the position of the problem. */
export function parseLtl(text: string): LtlNode {
  const tokens = lexLtl(text);
  // Expanded sugar may not grow the tree past this (plain text cannot: a node costs a character).
  const maxNodes = Math.max(1 << 20, text.length);
  const describe = (t: Token) => (t.kind === 'eof' ? 'end of formula' : `'${text.slice(t.start, t.end)}'`);
  const fail = (message: string, t: Token): never => {
    throw new LtlSyntaxError(message, text, t.start, t.end - t.start);
  };
  const operands: Operand[] = [];
  const pending: Pending[] = [];
  // `&`/`|` nodes built here whose argument arrays nothing else holds: a chain `a & b & c & …`
  // appends to one array instead of copying it at every step.
  const growable = new Map<LtlNode, LtlNode[]>();

  const check = (o: Operand, at: Token): Operand => {
    if (o.depth > MAX_LTL_DEPTH) fail(`formula nested too deeply (more than ${MAX_LTL_DEPTH} operators inside each other); split it into smaller formulas`, at);
    if (o.size > maxNodes) fail(`formula too large once ${describe(at)} is expanded (more than ${maxNodes} nodes)`, at);
    return o;
  };

  const flat = (op: '&' | '|', left: Operand, right: Operand, at: Token): Operand => {
    const grow = left.node.op === op ? growable.get(left.node) : undefined;
    const rightArgs = right.node.op === op ? right.node.args : [right.node];
    const rightDepth = right.node.op === op ? right.depth - 1 : right.depth;
    const depth = 1 + Math.max(left.node.op === op ? left.depth - 1 : left.depth, rightDepth);
    const size = left.size + right.size - (right.node.op === op ? 1 : 0) + (left.node.op === op ? 0 : 1);
    if (grow) {
      for (const a of rightArgs) grow.push(a);
      return check({ node: left.node, depth, size }, at);
    }
    const args = [...(left.node.op === op ? left.node.args : [left.node]), ...rightArgs];
    const node: LtlNode = { op, args };
    growable.set(node, args);
    return check({ node, depth, size }, at);
  };

  const unary = (op: '!' | 'X' | 'F' | 'G', arg: Operand, at: Token): Operand =>
    check({ node: { op, arg: arg.node }, depth: arg.depth + 1, size: arg.size + 1 }, at);

  /** Spot's `nested_unop_range`: `F[n..m] f` is `X^n (f | X (f | … X f))`, `F[n..] f` is `X^n F f`. */
  const expand = (t: Token, f: Operand): Operand => {
    if (t.kind !== 'rep') throw new Error('expand: not a repetition token');
    let res = f;
    if (t.max === Infinity) res = unary(t.op === 'G' ? 'G' : 'F', f, t);
    else {
      const op = t.op === 'G' ? '&' : '|';
      for (let k = t.min; k < t.max; k++) {
        const next = unary('X', res, t);
        // A fresh node (never growable): `f` is shared by every step.
        const args = [...(f.node.op === op ? f.node.args : [f.node]), next.node];
        const depth = 1 + Math.max(f.node.op === op ? f.depth - 1 : f.depth, next.depth);
        res = check({ node: { op, args }, depth, size: f.size + next.size + (f.node.op === op ? 0 : 1) }, t);
      }
    }
    for (let k = 0; k < t.min; k++) res = unary('X', res, t);
    return res;
  };

  /** An operand is complete: apply the prefix operators waiting for it (they bind tightest). */
  const completeOperand = (o: Operand) => {
    let cur = o;
    for (let top = pending[pending.length - 1]; top && (top.kind === 'prefix' || top.kind === 'rep'); top = pending[pending.length - 1]) {
      pending.pop();
      if (top.kind === 'rep') cur = expand(top.tok, cur);
      else if (top.tok.kind === 'prefix') cur = unary(top.tok.op, cur, top.tok);
    }
    operands.push(cur);
  };

  const reduceBinary = (b: Pending & { kind: 'binary' }) => {
    const right = operands.pop()!;
    const left = operands.pop()!;
    if (b.op === '&' || b.op === '|') operands.push(flat(b.op, left, right, b.tok));
    else {
      const node: LtlNode = { op: b.op, left: left.node, right: right.node };
      operands.push(check({ node, depth: 1 + Math.max(left.depth, right.depth), size: 1 + left.size + right.size }, b.tok));
    }
  };
  /** Reduce binary operators on top of the stack that bind at least as tightly as `prec`. */
  const reduceWhile = (prec: number, rightGrouping: boolean) => {
    for (let top = pending[pending.length - 1]; top && top.kind === 'binary'; top = pending[pending.length - 1]) {
      if (top.prec < prec || (top.prec === prec && rightGrouping)) break;
      pending.pop();
      reduceBinary(top);
    }
  };

  if (tokens[0].kind === 'eof') fail('empty formula', tokens[0]);
  let expectOperand = true;
  for (let pos = 0; ; pos++) {
    const t = tokens[pos];
    if (expectOperand) {
      switch (t.kind) {
        case 'prefix':
        case 'rep':
          pending.push({ kind: t.kind, tok: t });
          continue;
        case 'lparen':
          pending.push({ kind: 'lparen', tok: t });
          continue;
        case 'atom': {
          let o: Operand = { node: { op: 'ap', name: t.name }, depth: 0, size: 1 };
          // Wring's suffixes: `a=0` is `!a`, `a=1` is `a`; only an atom takes them.
          const suffix = tokens[pos + 1];
          if (suffix.kind === 'postneg') o = unary('!', o, suffix);
          if (suffix.kind === 'postneg' || suffix.kind === 'postpos') pos++;
          completeOperand(o);
          expectOperand = false;
          continue;
        }
        case 'true':
        case 'false':
          completeOperand({ node: { op: t.kind }, depth: 0, size: 1 });
          expectOperand = false;
          continue;
        case 'eof':
          return fail('unexpected end of formula: expected an operand', t);
        case 'rparen':
          return fail("unexpected ')': expected an operand", t);
        default:
          return fail(`expected an operand, found ${describe(t)}`, t);
      }
    }
    switch (t.kind) {
      case 'binary': {
        const prec = precedence(t.op);
        reduceWhile(prec, rightAssoc(prec));
        pending.push({ kind: 'binary', tok: t, op: t.op, prec });
        expectOperand = true;
        continue;
      }
      case 'rparen': {
        reduceWhile(0, false);
        const open = pending.pop();
        if (open?.kind !== 'lparen') return fail("unmatched ')'", t);
        completeOperand(operands.pop()!);
        continue;
      }
      case 'eof': {
        reduceWhile(0, false);
        const open = pending.pop();
        if (open !== undefined) {
          const col = lineColOf(text, open.tok.start);
          return fail(`expected ')' to close the '(' at ${col}, found end of formula`, t);
        }
        return operands[0].node;
      }
      case 'postneg':
      case 'postpos':
        return fail(`${describe(t)} can only follow an atomic proposition`, t);
      default:
        return fail(`expected an operator or end of formula, found ${describe(t)}`, t);
    }
  }
}

function lineColOf(text: string, offset: number): string {
  const e = new LtlSyntaxError('', text, offset);
  return e.line === 1 ? `column ${e.col}` : `line ${e.line}, column ${e.col}`;
}

/** Offset of the first occurrence of each atom in `text` (for diagnostics about atoms). */
export function atomOffsets(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of lexLtl(text)) {
    if (t.kind === 'atom' && !out.has(t.name)) out.set(t.name, t.start);
  }
  return out;
}
