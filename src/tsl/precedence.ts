/**
 * Warnings where TSL's (tsltools') precedence and Spot's / the LTL textbooks' disagree.
 *
 * tsltools makes the binary temporal operators bind loosest (`a -> b W c` is `(a -> b) W c`),
 * while Spot binds them tighter than the boolean connectives (`a -> (b W c)`). Both readings are
 * common, so an unparenthesised mix is almost certainly read differently by someone.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Expr, TslAst } from './ast.js';

const TEMPORAL = new Set(['U', 'W', 'R']);

export function precedenceWarnings(ast: TslAst): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'unary':
        return visit(e.arg);
      case 'update':
        return visit(e.value);
      case 'app':
        return e.args.forEach(visit);
      case 'binary':
      case 'arith':
      case 'compare':
        visit(e.left);
        visit(e.right);
        if (e.kind === 'binary' && TEMPORAL.has(e.op)) {
          for (const side of ['left', 'right'] as const) {
            const child: Expr = e[side];
            if (child.kind !== 'binary' || child.paren) continue;
            // Right-nested U/W chains read the same everywhere (both right-associative).
            if (side === 'right' && child.op === e.op && e.op !== 'R') continue;
            const reading =
              side === 'left'
                ? `"(… ${child.op} …) ${e.op} …"`
                : `"… ${e.op} (… ${child.op} …)"`;
            const other = side === 'left' ? `"… ${child.op} (… ${e.op} …)"` : `"(… ${e.op} …) ${child.op} …"`;
            out.push({
              severity: 'warning',
              message: `"${e.op}" mixed with "${child.op}" without parentheses: TSL reads ${reading}, Spot and LTL textbooks read ${other}; add parentheses`,
              span: { file: ast.file, line: e.loc.line, col: e.loc.col, length: Math.max(1, e.loc.endOffset - e.loc.offset) },
              code: 'precedence',
            });
          }
        }
        return;
      default:
        return;
    }
  };
  for (const def of ast.definitions) visit(def.body);
  for (const section of ast.sections) section.formulas.forEach(visit);
  return out;
}
