/**
 * `tslc parse <file>`: parse a `.tsl` file (syntax only) and print its AST as JSON; with
 * `--locations` each node keeps its line/column. Exit 2 on a syntax error, or on a formula too deep
 * to print as JSON.
 */
import { UserError } from '../../diagnostics/diagnostic.js';
import type { Expr, Loc, TslAst } from '../../tsl/ast.js';
import { writeOut } from '../tsl-support.js';
import { parse } from '../../api/parse.js';
import { ExitCode } from '../exit-codes.js';

export async function run(args: Record<string, unknown>): Promise<number> {
  const file = String(args.file);
  const parsed = await parse(file);
  if (!parsed.ast) throw new UserError(parsed.errors);
  const ast = parsed.ast;
  const keepLocations = Boolean(args.locations);
  const replacer = (key: string, value: unknown) => {
    if (key === 'paren') return undefined;
    if (!keepLocations && (key === 'loc' || key === 'fnLoc' || key === 'targetLoc' || key === 'pathLoc' || key === 'headerLoc')) return undefined;
    if (keepLocations && value && typeof value === 'object' && 'endOffset' in value) {
      const loc = value as Loc;
      return { line: loc.line, col: loc.col };
    }
    return value;
  };
  let json: string;
  try {
    json = JSON.stringify(ast, replacer, 2);
  } catch (err) {
    // The parser folds operator chains without recursing, JSON.stringify does recurse.
    if (!(err instanceof RangeError)) throw err;
    const deepest = deepestFormula(ast);
    throw new UserError({
      severity: 'error',
      message: 'formula nested too deeply to print as JSON (split it into several formulas)',
      span: deepest ? { file, line: deepest.loc.line, col: deepest.loc.col } : { file, line: 1, col: 1 },
      code: 'too-deep',
    });
  }
  writeOut(json);
  return ExitCode.ok;
}

/** The formula (or definition body) with the most nested nodes, measured without recursion. */
function deepestFormula(ast: TslAst): Expr | undefined {
  let best: { e: Expr; depth: number } | undefined;
  for (const root of [...ast.definitions.map((d) => d.body), ...ast.sections.flatMap((s) => s.formulas)]) {
    let depth = 0;
    const stack: [Expr, number][] = [[root, 1]];
    while (stack.length > 0) {
      const [e, d] = stack.pop()!;
      depth = Math.max(depth, d);
      if (e.kind === 'app') for (const a of e.args) stack.push([a, d + 1]);
      else if (e.kind === 'update') stack.push([e.value, d + 1]);
      else if (e.kind === 'unary') stack.push([e.arg, d + 1]);
      else if ('left' in e) stack.push([e.left, d + 1], [e.right, d + 1]);
    }
    if (!best || depth > best.depth) best = { e: root, depth };
  }
  return best?.e;
}
