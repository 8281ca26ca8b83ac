/**
 * A plain LTL syntax tree for conformance tests, independent of `src/ltl`: no simplification, no
 * canonical operand order, nothing that could hide a front-end error. It owns the tree type, an
 * iterative parser for syfco's `-f ltl -m fully` output, a printer for failure messages and a
 * converter from our `Formula`.
 *
 * Reference formulas run to tens of MB and nest thousands deep, so nothing here recurses. Nodes
 * live in flat arrays in bottom-up order (a node's operands always have smaller indices), which
 * lets the evaluator sweep them in one loop. Structurally identical subtrees are stored once: that
 * is sharing, not rewriting (the formula denoted is exactly the one parsed), and it keeps
 * syfco's expanded parametric formulas small.
 */
import { children, type Formula } from '../../src/ltl/formula.js';

/** Operators, by number: the store keeps them in a plain number array. */
export const Op = {
  true: 0,
  false: 1,
  ap: 2,
  not: 3,
  X: 4,
  F: 5,
  G: 6,
  and: 7,
  or: 8,
  implies: 9,
  iff: 10,
  xor: 11,
  U: 12,
  W: 13,
  R: 14,
  M: 15,
} as const;
export type OpCode = (typeof Op)[keyof typeof Op];
export type UnaryOp = typeof Op.not | typeof Op.X | typeof Op.F | typeof Op.G;
export type BinaryOp =
  | typeof Op.and
  | typeof Op.or
  | typeof Op.implies
  | typeof Op.iff
  | typeof Op.xor
  | typeof Op.U
  | typeof Op.W
  | typeof Op.R
  | typeof Op.M;

/** Operator spellings as syfco prints them (and as the printer here writes them). */
const SPELLING: readonly string[] = ['true', 'false', '', '!', 'X', 'F', 'G', '&&', '||', '->', '<->', 'xor', 'U', 'W', 'R', 'M'];

export function isUnary(op: OpCode): op is UnaryOp {
  return op >= Op.not && op <= Op.G;
}
export function isBinary(op: OpCode): op is BinaryOp {
  return op >= Op.and;
}

/** Key space for one operand index: 2^26 nodes, far above any formula we store. */
const KEY_SPAN = 2 ** 26;

/**
 * One formula: nodes `0..size-1` bottom-up, `root` the whole formula. For an atom, `left` is the
 * index of its name in `names`; for a unary operator `left` is the operand; `right` is -1 where
 * unused.
 */
export class LtlTree {
  readonly op: OpCode[] = [];
  readonly left: number[] = [];
  readonly right: number[] = [];
  readonly names: string[] = [];
  root = -1;
  private readonly nameIndex = new Map<string, number>();
  private readonly shared: Map<number, number>[] = Array.from({ length: 16 }, () => new Map());

  get size(): number {
    return this.op.length;
  }

  constant(value: boolean): number {
    return this.node(value ? Op.true : Op.false, -1, -1);
  }
  atom(name: string): number {
    let k = this.nameIndex.get(name);
    if (k === undefined) {
      k = this.names.push(name) - 1;
      this.nameIndex.set(name, k);
    }
    return this.node(Op.ap, k, -1);
  }
  unary(op: UnaryOp, arg: number): number {
    this.checkOperand(arg);
    return this.node(op, arg, -1);
  }
  binary(op: BinaryOp, l: number, r: number): number {
    this.checkOperand(l);
    this.checkOperand(r);
    return this.node(op, l, r);
  }
  /** Sets and returns the root (for fluent construction in tests). */
  setRoot(node: number): this {
    this.checkOperand(node);
    this.root = node;
    return this;
  }

  /** Names of the atoms that occur below `root`. */
  atoms(): string[] {
    const live = this.reachable();
    const out = new Set<string>();
    for (let i = 0; i < this.size; i++) if (live[i] && this.op[i] === Op.ap) out.add(this.names[this.left[i]]);
    return [...out];
  }

  /** Marks the nodes below `root` (operands have smaller indices, so one downward sweep does). */
  reachable(): Uint8Array {
    const live = new Uint8Array(this.size);
    if (this.root < 0) throw new Error('LtlTree: no root set');
    live[this.root] = 1;
    for (let i = this.root; i >= 0; i--) {
      if (!live[i]) continue;
      const op = this.op[i];
      if (op === Op.ap || op === Op.true || op === Op.false) continue;
      live[this.left[i]] = 1;
      if (isBinary(op)) live[this.right[i]] = 1;
    }
    return live;
  }

  /** Longest root-to-leaf path (nesting depth), computed bottom-up without recursion. */
  depth(): number {
    const d = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const op = this.op[i];
      if (op === Op.ap || op === Op.true || op === Op.false) d[i] = 1;
      else d[i] = 1 + Math.max(d[this.left[i]], isBinary(op) ? d[this.right[i]] : 0);
    }
    return d[this.root];
  }

  private node(op: OpCode, l: number, r: number): number {
    const key = l * KEY_SPAN + (r + 1);
    const table = this.shared[op];
    const hit = table.get(key);
    if (hit !== undefined) return hit;
    const i = this.op.push(op) - 1;
    this.left.push(l);
    this.right.push(r);
    table.set(key, i);
    return i;
  }
  private checkOperand(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) throw new Error(`LtlTree: no node ${i}`);
  }
}

/** A parse error in syfco output: position and what was expected. */
export class SyfcoParseError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`syfco formula, offset ${offset}: ${message}`);
    this.name = 'SyfcoParseError';
  }
}

const UNARY_WORDS = new Map<string, UnaryOp>([
  ['X', Op.X],
  ['F', Op.F],
  ['G', Op.G],
]);
const BINARY_WORDS = new Map<string, BinaryOp>([
  ['U', Op.U],
  ['W', Op.W],
  ['R', Op.R],
]);

/** Token kinds of the syfco scanner. */
const Tok = { End: 0, Open: 1, Close: 2, Unary: 3, Binary: 4, Value: 5 } as const;
type TokKind = (typeof Tok)[keyof typeof Tok];

/**
 * Parses syfco's `-f ltl -m fully` output. The grammar is deliberately strict:
 *
 *     group   := operand [binop operand]
 *     operand := '(' group ')' | identifier | 'true' | 'false' | unop operand
 *
 * so a binary operator chained without brackets (`a && b && c`) is an error instead of a guess
 * at syfco's precedence: in fully parenthesised output it never occurs, and anywhere else a
 * silent misreading would make a conformance test pass or fail for the wrong reason.
 */
export function parseSyfcoLtl(text: string): LtlTree {
  const tree = new LtlTree();
  let pos = 0;
  let tokOp: OpCode = Op.true;
  let tokValue = -1;
  let tokStart = 0;

  const isIdent = (c: number) =>
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 64 || c === 39 || c === 46;
  const next = (): TokKind => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      pos++;
    }
    tokStart = pos;
    if (pos >= text.length) return Tok.End;
    const c = text.charCodeAt(pos);
    if (c === 40) return (pos++, Tok.Open);
    if (c === 41) return (pos++, Tok.Close);
    if (c === 33) return (pos++, (tokOp = Op.not), Tok.Unary);
    if (text.startsWith('&&', pos)) return ((pos += 2), (tokOp = Op.and), Tok.Binary);
    if (text.startsWith('||', pos)) return ((pos += 2), (tokOp = Op.or), Tok.Binary);
    if (text.startsWith('->', pos)) return ((pos += 2), (tokOp = Op.implies), Tok.Binary);
    if (text.startsWith('<->', pos)) return ((pos += 3), (tokOp = Op.iff), Tok.Binary);
    if (!isIdent(c)) throw new SyfcoParseError(`unexpected character ${JSON.stringify(text[pos])}`, pos);
    let end = pos + 1;
    while (end < text.length && isIdent(text.charCodeAt(end))) end++;
    const word = text.slice(pos, end);
    pos = end;
    const u = UNARY_WORDS.get(word);
    if (u !== undefined) return ((tokOp = u), Tok.Unary);
    const b = BINARY_WORDS.get(word);
    if (b !== undefined) return ((tokOp = b), Tok.Binary);
    tokValue = word === 'true' ? tree.constant(true) : word === 'false' ? tree.constant(false) : tree.atom(word);
    return Tok.Value;
  };

  // The explicit stack: '(' markers, pending unary operators, and pending `left binop`.
  const OPEN = -1;
  const kinds: number[] = []; // OPEN, or a unary/binary OpCode
  const lefts: number[] = []; // left operand of a pending binary operator
  // Reduce a finished operand against the stack: apply pending unaries, then at most one binary.
  const reduce = (value: number): { value: number; hasBinary: boolean } => {
    while (kinds.length > 0 && kinds[kinds.length - 1] !== OPEN && isUnary(kinds[kinds.length - 1] as OpCode)) {
      value = tree.unary(kinds.pop() as UnaryOp, value);
      lefts.pop();
    }
    if (kinds.length > 0 && kinds[kinds.length - 1] !== OPEN) {
      const op = kinds.pop() as BinaryOp;
      value = tree.binary(op, lefts.pop()!, value);
      return { value, hasBinary: true };
    }
    return { value, hasBinary: false };
  };

  let tok = next();
  for (;;) {
    // Expecting an operand.
    while (tok === Tok.Open || tok === Tok.Unary) {
      kinds.push(tok === Tok.Open ? OPEN : tokOp);
      lefts.push(-1);
      tok = next();
    }
    if (tok !== Tok.Value) throw new SyfcoParseError(tok === Tok.End ? 'unexpected end of formula' : 'expected an operand', tokStart);
    let { value, hasBinary } = reduce(tokValue);
    tok = next();
    // After an operand: a binary operator, a closing bracket, or the end.
    for (;;) {
      if (tok === Tok.Binary) {
        if (hasBinary) throw new SyfcoParseError('binary operators chained without brackets (not `-m fully` output)', tokStart);
        kinds.push(tokOp);
        lefts.push(value);
        tok = next();
        break;
      }
      if (tok === Tok.Close) {
        if (kinds.length === 0 || kinds[kinds.length - 1] !== OPEN) throw new SyfcoParseError('unbalanced ")"', tokStart);
        kinds.pop();
        lefts.pop();
        ({ value, hasBinary } = reduce(value));
        tok = next();
        continue;
      }
      if (tok === Tok.End) {
        if (kinds.length > 0) throw new SyfcoParseError('unexpected end of formula (unclosed "(")', tokStart);
        return tree.setRoot(value);
      }
      throw new SyfcoParseError('expected an operator, ")" or the end', tokStart);
    }
  }
}

/**
 * Fully parenthesised text of the formula, cut at `maxChars` (with "…"). Printing a shared DAG as
 * text can be exponential, so the cut also bounds the work.
 */
export function printTree(tree: LtlTree, maxChars = Infinity): string {
  let out = '';
  // Work items: a node index (≥ 0) or a literal string.
  const stack: (number | string)[] = [tree.root];
  while (stack.length > 0) {
    if (out.length > maxChars) return `${out.slice(0, Math.max(0, maxChars - 1))}…`;
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    const op = tree.op[item];
    if (op === Op.ap) out += tree.names[tree.left[item]];
    else if (op === Op.true || op === Op.false) out += SPELLING[op];
    else if (isUnary(op)) stack.push(')', tree.left[item], `(${SPELLING[op]} `);
    else stack.push(')', tree.right[item], ` ${SPELLING[op]} `, tree.left[item], '(');
  }
  return out;
}

/**
 * Our hash-consed `Formula` as a tree (n-ary ∧/∨ folded left). Iterative post-order over the
 * DAG with a memo by formula id, so shared sub-formulas stay shared.
 */
export function treeFromFormula(f: Formula): LtlTree {
  const tree = new LtlTree();
  const done = new Map<number, number>();
  const stack: { f: Formula; expanded: boolean }[] = [{ f, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const g = top.f;
    if (done.has(g.id)) {
      stack.pop();
      continue;
    }
    const kids = children(g);
    if (!top.expanded) {
      top.expanded = true;
      for (const k of kids) if (!done.has(k.id)) stack.push({ f: k, expanded: false });
      continue;
    }
    stack.pop();
    done.set(g.id, build(tree, g, kids.map((k) => done.get(k.id)!)));
  }
  return tree.setRoot(done.get(f.id)!);
}


function build(tree: LtlTree, f: Formula, kids: readonly number[]): number {
  switch (f.kind) {
    case 'true':
      return tree.constant(true);
    case 'false':
      return tree.constant(false);
    case 'ap':
      return tree.atom(f.name);
    case 'not':
      return tree.unary(Op.not, kids[0]);
    case 'X':
    case 'F':
    case 'G':
      return tree.unary(Op[f.kind], kids[0]);
    case 'and':
    case 'or': {
      let acc = kids[0];
      for (let i = 1; i < kids.length; i++) acc = tree.binary(Op[f.kind], acc, kids[i]);
      return acc;
    }
    default:
      return tree.binary(Op[f.kind], kids[0], kids[1]);
  }
}
