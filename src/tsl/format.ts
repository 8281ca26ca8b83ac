/**
 * The TSL printer behind `tslc fmt`. Its output parses back to the same AST (a property test
 * checks this over random ASTs). It adds parentheses wherever tsltools' and Spot's precedence
 * disagree — around every binary operand of `U`, `W`, `R` and between `->` and `<->` — so the
 * text means the same to every reader, and otherwise only where precedence requires them.
 * Given the source text, comments are kept: before the item or formula they precede (comments
 * inside a formula move in front of it) or after it on the same line.
 */
import type { Expr, TslAst } from './ast.js';

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

export function formatExpr(e: Expr, options: FormatOptions = {}): string {
  const style = options.style ?? 'curried';
  const at = (child: Expr, min: number, force = false): string => {
    const text = go(child);
    return force || levelOf(child) < min ? `(${text})` : text;
  };
  const go = (x: Expr): string => {
    switch (x.kind) {
      case 'bool':
        return String(x.value);
      case 'num':
        return x.text;
      case 'name':
        return x.name;
      case 'app':
        if (x.args.length === 0) return `${x.fn}()`;
        if (style === 'call') return `${x.fn}(${x.args.map((a) => go(a)).join(', ')})`;
        return [x.fn, ...x.args.map((a) => at(a, LEVEL.primary))].join(' ');
      case 'update':
        return `[${x.target} <- ${go(x.value)}]`;
      case 'unary':
        return x.op === '!' ? `!${at(x.arg, LEVEL.unary)}` : `${x.op} ${at(x.arg, LEVEL.unary)}`;
      case 'binary':
      case 'arith':
      case 'compare': {
        const level = levelOf(x);
        const right = RIGHT_ASSOC.has(x.op);
        const temporal = x.kind === 'binary' && TEMPORAL.has(x.op);
        // Operands that are themselves boolean/temporal binaries under U/W/R, or `->` under
        // `<->` (and vice versa), are always bracketed: the readers' precedences differ there.
        const ambiguous = (child: Expr) =>
          child.kind === 'binary' && (temporal || ((x.op === '->' || x.op === '<->') && child.op !== x.op && LEVEL[child.op] === level));
        const left = at(x.left, right ? level + 1 : level, ambiguous(x.left));
        const rightText = at(x.right, right ? level : level + 1, ambiguous(x.right));
        return `${left} ${x.op} ${rightText}`;
      }
    }
  };
  return go(e);
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
