/**
 * The nesting limit of TSL formulas, checked before any pass recurses over them.
 *
 * The checker, the abstraction and the LTL layers walk formulas recursively; thousands of
 * operators inside each other (`a && a && …`, `!!!…a`, `f (f (… x))`, or definitions that nest
 * when expanded) would exhaust the stack. So the depth of every formula, *with its definitions
 * expanded*, is computed here without recursion, and a formula deeper than MAX_FORMULA_DEPTH is
 * refused at the place where it crosses the limit: the operator of the node one level too deep,
 * or the use of the definition whose expansion goes too deep. The limit is the runtime LTL
 * parser's (MAX_LTL_DEPTH), so every front end accepts the same nesting.
 *
 * Depth is computed like expansion cost (expansion-cost.ts): each definition gets a profile once,
 * its expanded depth as `max(base, perParam[i] + depth(argument i))`, in dependency order.
 */
import { MAX_LTL_DEPTH } from '../../runtime/ltl/parse.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { type Definition, type Expr, exprChildren, type TslAst } from './ast.js';
import { findDefinition, type Scope } from './expansion-cost.js';

export const MAX_FORMULA_DEPTH = MAX_LTL_DEPTH;

/** depth = max(base, perParam[i] + depth of argument i); -Infinity where nothing contributes. */
interface Profile {
  readonly base: number;
  readonly perParam: readonly number[];
}

const NONE = Number.NEGATIVE_INFINITY;


/** The definition a node uses (a name or an application of one), if it is not a parameter. */
function usedName(e: Expr, params: ReadonlyMap<string, number>): string | undefined {
  if (e.kind === 'name' && !params.has(e.name)) return e.name;
  if (e.kind === 'app' && !params.has(e.fn)) return e.fn;
  return undefined;
}

export class FormulaDepths {
  private readonly profiles = new Map<Definition, Profile>();

  /**
   * Depth profiles of `root` and every node under it (post-order, no recursion). Uses of
   * definitions take the definitions' profiles: `prepare` must have computed them.
   */
  private walk(root: Expr, scope: Scope, params: ReadonlyMap<string, number>, out?: Map<Expr, Profile>): Profile {
    const arity = params.size;
    const done = new Map<Expr, Profile>();
    const stack: Expr[] = [root];
    while (stack.length > 0) {
      const e = stack[stack.length - 1];
      if (done.has(e)) {
        stack.pop();
        continue;
      }
      const kids = exprChildren(e);
      const pending = kids.filter((k) => !done.has(k));
      if (pending.length > 0) {
        for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]);
        continue;
      }
      stack.pop();
      const args = kids.map((k) => done.get(k)!);
      let p: Profile;
      const bound = e.kind === 'name' ? params.get(e.name) : undefined;
      const found = this.callee(e, scope, params);
      if (bound !== undefined) p = { base: NONE, perParam: Array.from({ length: arity }, (_, i) => (i === bound ? 0 : NONE)) };
      else if (found) p = apply(found, args, arity);
      else
        p = {
          base: 1 + Math.max(0, ...args.map((a) => a.base)),
          perParam: Array.from({ length: arity }, (_, i) => 1 + Math.max(NONE, ...args.map((a) => a.perParam[i]))),
        };
      done.set(e, p);
      out?.set(e, p);
    }
    return done.get(root)!;
  }

  /** The profile of the definition `e` uses with its number of arguments, if any (else the node is plain). */
  private callee(e: Expr, scope: Scope, params: ReadonlyMap<string, number>): Profile | undefined {
    const name = usedName(e, params);
    if (name === undefined) return undefined;
    const found = findDefinition(scope, name);
    const argc = e.kind === 'app' ? e.args.length : 0;
    // A wrong arity or a recursive use is the checker's error; it puts `true` in its place.
    if (!found || found.def.params.length !== argc) return undefined;
    return this.profiles.get(found.def);
  }

  /** Profiles every definition `root` reaches, callees before callers (iteratively). */
  private prepare(root: Expr, scope: Scope, params: ReadonlyMap<string, number>): void {
    type Task = { def: Definition; scope: Scope; expanded: boolean };
    const uses = (e: Expr, s: Scope, ps: ReadonlyMap<string, number>): Task[] => {
      const found: Task[] = [];
      const stack = [e];
      while (stack.length > 0) {
        const x = stack.pop()!;
        const name = usedName(x, ps);
        const def = name === undefined ? undefined : findDefinition(s, name);
        if (def && !this.profiles.has(def.def)) found.push({ def: def.def, scope: def.scope, expanded: false });
        stack.push(...exprChildren(x));
      }
      return found;
    };
    const active = new Set<Definition>();
    const tasks: Task[] = uses(root, scope, params);
    while (tasks.length > 0) {
      const t = tasks[tasks.length - 1];
      if (this.profiles.has(t.def)) {
        tasks.pop();
        continue;
      }
      const ps = new Map(t.def.params.map((p, i) => [p, i] as const));
      if (!t.expanded) {
        // A definition met again while its callees are pending is recursive: profiled without them.
        if (active.has(t.def)) {
          tasks.pop();
          continue;
        }
        t.expanded = true;
        active.add(t.def);
        tasks.push(...uses(t.def.body, t.scope, ps).filter((u) => !active.has(u.def)));
        continue;
      }
      tasks.pop();
      active.delete(t.def);
      this.profiles.set(t.def, this.walk(t.def.body, t.scope, ps));
    }
  }

  /**
   * The place where `formula` (with no parameters bound) has more than `limit` operators inside
   * each other, or undefined when it has not: the operator one level too deep, or the use of a
   * definition whose expansion goes too deep (then `definition` names it). `depth` is the
   * formula's nesting in operators.
   */
  crossing(formula: Expr, scope: Scope, limit = MAX_FORMULA_DEPTH): { node: Expr; depth: number; definition?: string } | undefined {
    // Depth counts levels, leaves included: `limit` operators inside each other are limit + 1 levels.
    const levels = limit + 1;
    const profiles = new Map<Expr, Profile>();
    this.prepare(formula, scope, new Map());
    const depth = this.walk(formula, scope, new Map(), profiles).base;
    if (depth <= levels) return undefined;
    const none = new Map<string, number>();
    let node = formula;
    // Levels above `node` in the expanded formula; the crossing node is the one at level `levels`.
    let above = 0;
    for (;;) {
      if (above + 1 >= levels) return { node, depth: depth - 1 };
      const found = this.callee(node, scope, none);
      if (found) {
        // Through an argument, the arguments' nodes (here in the file) are deeper in the expansion.
        const args = exprChildren(node);
        const j = args.findIndex((a, i) => above + found.perParam[i] + profiles.get(a)!.base > levels && above + found.perParam[i] + 1 <= levels);
        if (j < 0) return { node, depth: depth - 1, definition: usedName(node, none) };
        above += found.perParam[j];
        node = args[j];
        continue;
      }
      const next = exprChildren(node).find((k) => above + 1 + profiles.get(k)!.base > levels);
      if (!next) return { node, depth: depth - 1 };
      above += 1;
      node = next;
    }
  }
}

function apply(callee: Profile, args: readonly Profile[], arity: number): Profile {
  let base = callee.base;
  const perParam = new Array<number>(arity).fill(NONE);
  args.forEach((a, j) => {
    const m = callee.perParam[j];
    if (m === NONE) return;
    base = Math.max(base, m + a.base);
    for (let i = 0; i < arity; i++) perParam[i] = Math.max(perParam[i], m + a.perParam[i]);
  });
  return { base, perParam };
}

/** Where a node's own text is: a binary node's operator (its start is its left operand's). */
function operatorOffsets(e: Expr, source: string): { offset: number; length: number } {
  if (e.kind === 'binary' || e.kind === 'arith' || e.kind === 'compare') {
    let i = e.left.loc.endOffset;
    while (i < e.right.loc.offset && /[\s)]/.test(source[i])) i++;
    const op = /^(?:&&|\|\||<->|->|<=|>=|[UWR+\-*/=<>])/.exec(source.slice(i, i + 3));
    if (op) return { offset: i, length: op[0].length };
  }
  if (e.kind === 'app') return { offset: e.fnLoc.offset, length: Math.max(1, e.fnLoc.endOffset - e.fnLoc.offset) };
  return { offset: e.loc.offset, length: Math.max(1, Math.min(e.loc.endOffset - e.loc.offset, e.kind === 'unary' ? e.op.length : Infinity)) };
}

function lineCol(source: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: offset - start + 1 };
}

function tooDeep(file: string, source: string, found: { node: Expr; definition?: string }, limit: number): Diagnostic {
  const at = operatorOffsets(found.node, source);
  const { line, col } = lineCol(source, at.offset);
  const lineEnd = source.indexOf('\n', at.offset);
  const length = lineEnd < 0 ? at.length : Math.max(1, Math.min(at.length, lineEnd - at.offset));
  const expanded = found.definition !== undefined ? ` once "${found.definition}" is expanded` : '';
  return {
    severity: 'error',
    message: `formula nested too deeply${expanded} (more than ${limit} operators inside each other); split it into several formulas`,
    span: { file, line, col, length },
    code: 'too-deep',
  };
}

/**
 * Diagnostics for every formula and definition body of `ast` that nests deeper than the limit as
 * written (definitions not expanded): what must hold before any pass recurses over the file.
 */
export function sourceDepthDiagnostics(ast: TslAst, source: string, limit = MAX_FORMULA_DEPTH): Diagnostic[] {
  const depths = new FormulaDepths();
  const asWritten: Scope = { file: ast.file, definitions: new Map(), imports: new Map() };
  const out: Diagnostic[] = [];
  for (const e of [...ast.definitions.map((d) => d.body), ...ast.sections.flatMap((s) => s.formulas)]) {
    const found = depths.crossing(e, asWritten, limit);
    if (found) out.push(tooDeep(ast.file, source, found, limit));
  }
  return out;
}

/** The diagnostic for `formula` if, with its definitions expanded, it nests deeper than the limit. */
export function expandedDepthDiagnostic(depths: FormulaDepths, formula: Expr, scope: Scope, source: string, limit = MAX_FORMULA_DEPTH): Diagnostic | undefined {
  const found = depths.crossing(formula, scope, limit);
  return found && tooDeep(scope.file, source, found, limit);
}

