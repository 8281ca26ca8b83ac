/**
 * The TSL printer behind `tslc fmt`. Its output parses back to the same AST (property tests check
 * this over random ASTs, long operator chains and the corpus). It adds parentheses wherever
 * tsltools' and Spot's precedence disagree — around the binary operands of `U`, `W`, `R` (except
 * a right-nested `a U b U c`, which both read alike) and between `->` and `<->` — so the text
 * means the same to every reader, up to MAX_OPTIONAL_BRACKET_DEPTH levels of brackets; otherwise
 * only where precedence requires them.
 * Given the source text, comments are kept: before the item or formula they precede (comments
 * inside a formula move in front of it) or after it on the same line.
 */
import { type Expr, exprChildren, type TslAst } from './ast.js';

export interface FormatOptions {
  /** `curried` (default, what tsltools reads): `p x (f y)`; `call`: `p(x, f(y))`. */
  readonly style?: 'curried' | 'call';
  readonly indent?: string;
  /** The text the AST was parsed from: its comments are carried over. */
  readonly source?: string;
}

/** Binding strength, loosest first (mirrors grammar/tsl.peggy). */
const LEVEL = {
  R: 1,
  U: 2,
  W: 3,
  '->': 4,
  '<->': 4,
  '||': 5,
  '&&': 6,
  unary: 7,
  compare: 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  signed: 11,
  primary: 12,
} as const;
const RIGHT_ASSOC = new Set(['U', 'W', '->', '<->']);
const TEMPORAL = new Set(['U', 'W', 'R']);

/**
 * Brackets added only so that Spot readers and TSL readers agree stop at this nesting depth. The
 * parser recurses once per bracket (about 500 levels fit its stack), so a long `R` chain or a
 * deep `->`/`<->` mix printed with all of them would no longer parse; past this depth only the
 * brackets TSL itself needs are printed, and the input had those already.
 */
const MAX_OPTIONAL_BRACKET_DEPTH = 64;

function levelOf(e: Expr): number {
  switch (e.kind) {
    case 'binary':
    case 'arith':
      return LEVEL[e.op];
    case 'compare':
      return LEVEL.compare;
    case 'unary':
      return LEVEL.unary;
    case 'num':
      return e.text.startsWith('-') ? LEVEL.signed : LEVEL.primary;
    case 'app':
      return e.args.length === 0 ? LEVEL.primary : LEVEL.signed;
    default:
      return LEVEL.primary;
  }
}


/** The loosest level each operand of a binary node may have without brackets. */
function operandLevels(x: Extract<Expr, { readonly left: Expr }>): [left: number, right: number] {
  const level = levelOf(x);
  return RIGHT_ASSOC.has(x.op) ? [level + 1, level] : [level, level + 1];
}

/**
 * Whether an operand is bracketed for readers although TSL does not need it: boolean/temporal
 * binaries under `U`, `W`, `R`, and `->` under `<->` (and vice versa), where tsltools' and Spot's
 * precedences differ. A right-nested `a U b U c` (or `W`) reads the same in both, so it stays flat.
 */
function forReaders(x: Expr, child: Expr, side: 'left' | 'right'): boolean {
  if (x.kind !== 'binary' || child.kind !== 'binary') return false;
  if (TEMPORAL.has(x.op)) return !(side === 'right' && child.op === x.op && x.op !== 'R');
  return (x.op === '->' || x.op === '<->') && child.op !== x.op && LEVEL[child.op] === LEVEL[x.op];
}

/**
 * The bracket depth of each node's printing when only the brackets TSL needs are used (post-order
 * with an explicit stack: a parsed 100,000-term chain is as deep as it is long).
 */
function neededDepths(root: Expr, style: 'curried' | 'call'): Map<Expr, number> {
  const depth = new Map<Expr, number>();
  const of = (e: Expr) => depth.get(e) ?? 0;
  const stack: Expr[] = [root];
  while (stack.length > 0) {
    const x = stack[stack.length - 1];
    const pending = exprChildren(x).filter((c) => !depth.has(c));
    if (pending.length > 0) {
      stack.push(...pending);
      continue;
    }
    stack.pop();
    let d = 0;
    if (x.kind === 'app' && x.args.length > 0) {
      for (const a of x.args) d = Math.max(d, style === 'call' ? 1 + of(a) : (levelOf(a) < LEVEL.primary ? 1 : 0) + of(a));
    } else if (x.kind === 'update') d = 1 + of(x.value);
    else if (x.kind === 'unary') d = (levelOf(x.arg) < LEVEL.unary ? 1 : 0) + of(x.arg);
    else if (x.kind === 'binary' || x.kind === 'arith' || x.kind === 'compare') {
      const [leftMin, rightMin] = operandLevels(x);
      d = Math.max((levelOf(x.left) < leftMin ? 1 : 0) + of(x.left), (levelOf(x.right) < rightMin ? 1 : 0) + of(x.right));
    }
    depth.set(x, d);
  }
  return depth;
}

/** Text, or a node still to print at a bracket depth. */
type Piece = string | { readonly e: Expr; readonly depth: number };

/**
 * One formula or term as text. Iterative (a work stack of pieces), so formulas of any depth the
 * parser accepts print without exhausting the call stack.
 */
export function formatExpr(e: Expr, options: FormatOptions = {}): string {
  const style = options.style ?? 'curried';
  const needed = neededDepths(e, style);
  const operand = (child: Expr, depth: number, min: number, readers = false): Piece[] => {
    const required = levelOf(child) < min;
    const optional = readers && depth + 1 + (needed.get(child) ?? 0) <= MAX_OPTIONAL_BRACKET_DEPTH;
    return required || optional ? ['(', { e: child, depth: depth + 1 }, ')'] : [{ e: child, depth }];
  };
  const piecesOf = (x: Expr, depth: number): Piece[] => {
    switch (x.kind) {
      case 'bool':
        return [String(x.value)];
      case 'num':
        return [x.text];
      case 'name':
        return [x.name];
      case 'app': {
        if (x.args.length === 0) return [`${x.fn}()`];
        if (style === 'call') return [`${x.fn}(`, ...x.args.flatMap((a, i) => [...(i > 0 ? [', '] : []), { e: a, depth: depth + 1 }]), ')'];
        return [x.fn, ...x.args.flatMap((a) => [' ', ...operand(a, depth, LEVEL.primary)])];
      }
      case 'update':
        return [`[${x.target} <- `, { e: x.value, depth: depth + 1 }, ']'];
      case 'unary':
        return [x.op === '!' ? '!' : `${x.op} `, ...operand(x.arg, depth, LEVEL.unary)];
      case 'binary':
      case 'arith':
      case 'compare': {
        const [leftMin, rightMin] = operandLevels(x);
        return [
          ...operand(x.left, depth, leftMin, forReaders(x, x.left, 'left')),
          ` ${x.op} `,
          ...operand(x.right, depth, rightMin, forReaders(x, x.right, 'right')),
        ];
      }
    }
  };
  const out: string[] = [];
  const stack: Piece[] = [{ e, depth: 0 }];
  while (stack.length > 0) {
    const piece = stack.pop()!;
    if (typeof piece === 'string') {
      out.push(piece);
      continue;
    }
    const pieces = piecesOf(piece.e, piece.depth);
    for (let i = pieces.length - 1; i >= 0; i--) stack.push(pieces[i]);
  }
  return out.join('');
}

export function formatTsl(ast: TslAst, options: FormatOptions = {}): string {
  const indent = options.indent ?? '  ';
  const comments = new CommentQueue(options.source);
  type Item = { offset: number; print: () => string };
  // Source order (a stable sort keeps imports, definitions, sections for synthetic ASTs).
  const items: Item[] = [
    ...ast.imports.map((i) => ({ offset: i.loc.offset, print: () => `import "${i.path}" as ${i.alias}${comments.trailing(i.loc.endOffset)}` })),
    ...ast.definitions.map((d) => ({
      offset: d.loc.offset,
      print: () => `${[d.name, ...d.params].join(' ')} = ${formatExpr(d.body, options)};${comments.trailing(d.loc.endOffset)}`,
    })),
    ...ast.sections.map((s) => ({
      offset: s.loc.offset,
      print: () => {
        const head = s.time === 'bare' ? s.kind : `${s.time} ${s.kind}`;
        let body = '';
        for (const f of s.formulas) {
          body += comments.leading(f.loc.endOffset, indent);
          body += `${indent}${formatExpr(f, options)};${comments.trailing(f.loc.endOffset)}\n`;
        }
        body += comments.leading(s.loc.endOffset, indent);
        return `${head} {\n${body}}`;
      },
    })),
  ].sort((a, b) => a.offset - b.offset);

  const blocks: string[] = [];
  if (ast.header) blocks.push(ast.header);
  let previousKind = '';
  for (const item of items) {
    const lead = comments.leading(item.offset, '', true);
    const text = item.print();
    const kind = text.startsWith('import ') ? 'import' : text.includes('{\n') ? 'section' : 'definition';
    // Consecutive imports and definitions stay together; sections are separated by a blank line.
    if (blocks.length > 0 && kind === previousKind && kind !== 'section' && lead === '') blocks[blocks.length - 1] += `\n${text}`;
    else blocks.push(lead + text);
    previousKind = kind;
  }
  const rest = comments.leading(Number.POSITIVE_INFINITY, '');
  if (rest) blocks.push(rest.replace(/\n$/, ''));
  return blocks.join('\n\n') + '\n';
}

interface Comment {
  readonly offset: number;
  readonly end: number;
  readonly text: string;
}

/** The source's comments in order; each is handed out once, as leading or trailing text. */
class CommentQueue {
  private readonly comments: Comment[];
  private next = 0;

  constructor(private readonly source: string | undefined) {
    this.comments = source === undefined ? [] : scanComments(source);
  }

  /** Comments starting before `offset`, each on its own line; `keepGap` keeps a blank line after them. */
  leading(offset: number, indent: string, keepGap = false): string {
    let out = '';
    let end = -1;
    while (this.next < this.comments.length && this.comments[this.next].offset < offset) {
      end = this.comments[this.next].end;
      out += `${indent}${this.comments[this.next++].text}\n`;
    }
    if (keepGap && end >= 0 && this.source !== undefined && /\n[ \t]*\r?\n/.test(this.source.slice(end, offset))) out += '\n';
    return out;
  }

  /** Comments after `end` on the same line (only whitespace or `;` between). */
  trailing(end: number): string {
    if (this.source === undefined) return '';
    let out = '';
    while (this.next < this.comments.length) {
      const c = this.comments[this.next];
      if (!/^[ \t;]*$/.test(this.source.slice(end, c.offset))) break;
      out += ` ${c.text}`;
      end = c.end;
      this.next++;
    }
    return out;
  }
}

function scanComments(source: string): Comment[] {
  const out: Comment[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '"') {
      const close = source.indexOf('"', i + 1);
      i = close < 0 ? source.length : close + 1;
    } else if (c === '/' && source[i + 1] === '/') {
      const lineEnd = source.indexOf('\n', i);
      const end = lineEnd < 0 ? source.length : lineEnd;
      out.push({ offset: i, end, text: source.slice(i, end).trimEnd() });
      i = end;
    } else if (c === '/' && source[i + 1] === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < source.length && depth > 0) {
        if (source[j] === '/' && source[j + 1] === '*') (depth++, (j += 2));
        else if (source[j] === '*' && source[j + 1] === '/') (depth--, (j += 2));
        else j++;
      }
      out.push({ offset: i, end: j, text: source.slice(i, j) });
      i = j;
    } else i++;
  }
  return out;
}
