/**
 * The TSL printer behind `tslc fmt`. Its output parses back to the same AST (a property test
 * checks this over random ASTs). It adds parentheses wherever tsltools' and Spot's precedence
 * disagree — around every binary operand of `U`, `W`, `R` and between `->` and `<->` — so the
 * text means the same to every reader, and otherwise only where precedence requires them.
 * Comments are not preserved.
 */
import type { Expr, TslAst } from './ast.js';

export interface FormatOptions {
  /** `curried` (default, what tsltools reads): `p x (f y)`; `call`: `p(x, f(y))`. */
  readonly style?: 'curried' | 'call';
  readonly indent?: string;
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
  const blocks: string[] = [];
  if (ast.header) blocks.push(ast.header);
  if (ast.imports.length > 0) blocks.push(ast.imports.map((i) => `import "${i.path}" as ${i.alias}`).join('\n'));
  if (ast.definitions.length > 0)
    blocks.push(ast.definitions.map((d) => `${[d.name, ...d.params].join(' ')} = ${formatExpr(d.body, options)};`).join('\n'));
  for (const s of ast.sections) {
    const head = s.time === 'bare' ? s.kind : `${s.time} ${s.kind}`;
    const body = s.formulas.map((f) => `${indent}${formatExpr(f, options)};\n`).join('');
    blocks.push(`${head} {\n${body}}`);
  }
  return blocks.join('\n\n') + '\n';
}
