/**
 * src/tsl — the TSL front end: parsing `.tsl` files (tsltools dialect plus its sugar), checking
 * them (symbol roles, arities, imports, definitions), formatting them back, and abstracting them
 * into a propositional `GameSpec` (predicate terms → inputs, updates → outputs).
 *
 * This file is the source AST the peggy grammar (grammar/tsl.peggy) builds. Formulas and terms
 * share one expression type, exactly as tsltools parses them: whether `p x` is a predicate or a
 * function application is decided by the checker from where it appears, not by the parser.
 */

/** Where a node starts (1-based line and column) and the offsets it covers in its file. */
export interface Loc {
  readonly line: number;
  readonly col: number;
  readonly offset: number;
  readonly endOffset: number;
}

export type UnaryOp = '!' | 'X' | 'F' | 'G';
/** Boolean and temporal binary operators of formulas. */
export type BinaryOp = '&&' | '||' | '->' | '<->' | 'U' | 'W' | 'R';
/** Arithmetic sugar (tsltools' preprocessor turns these into `add`, `sub`, `mul`, `div`). */
export type ArithOp = '+' | '-' | '*' | '/';
/** Comparison sugar (`eq`, `lt`, `gt`, `lte`, `gte`). */
export type CompareOp = '=' | '<' | '>' | '<=' | '>=';

interface NodeBase {
  readonly loc: Loc;
  /** True when the user wrote parentheses around this node (used for precedence warnings only). */
  readonly paren?: boolean;
}

export type Expr =
  | (NodeBase & { readonly kind: 'bool'; readonly value: boolean })
  /** A numeric literal: `3`, `-2`, `2.5` (tsltools: `int3()`, `real2.5()`). */
  | (NodeBase & { readonly kind: 'num'; readonly text: string })
  /** An identifier: a signal, a definition, or (qualified) a name from an import. */
  | (NodeBase & { readonly kind: 'name'; readonly name: string })
  /** `f x y`, `f(x, y)`, `(f x) y` and the nullary constant `c()` (then `args` is empty). */
  | (NodeBase & { readonly kind: 'app'; readonly fn: string; readonly fnLoc: Loc; readonly args: readonly Expr[] })
  | (NodeBase & { readonly kind: 'update'; readonly target: string; readonly targetLoc: Loc; readonly value: Expr })
  | (NodeBase & { readonly kind: 'unary'; readonly op: UnaryOp; readonly arg: Expr })
  | (NodeBase & { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr })
  | (NodeBase & { readonly kind: 'arith'; readonly op: ArithOp; readonly left: Expr; readonly right: Expr })
  | (NodeBase & { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Expr; readonly right: Expr });

export type ExprKind = Expr['kind'];
export type ExprOf<K extends ExprKind> = Extract<Expr, { kind: K }>;

export type SectionTime = 'initially' | 'always' | 'bare';

export interface Section {
  readonly kind: 'assume' | 'guarantee';
  /** `bare` (no keyword) means the same as `initially`: the formulas hold at the first step. */
  readonly time: SectionTime;
  readonly formulas: readonly Expr[];
  readonly loc: Loc;
}

export interface Import {
  readonly path: string;
  readonly alias: string;
  readonly loc: Loc;
  readonly pathLoc: Loc;
}

/** `NAME = expr;` or `f x y = expr;` (a macro: uses are replaced by the body). */
export interface Definition {
  readonly name: string;
  readonly params: readonly string[];
  readonly body: Expr;
  readonly loc: Loc;
}

export interface TslAst {
  readonly file: string;
  /** `#UF`, `#EUF`, `#LIA`, `#QF_UF`: the theory the predicates are read in (docs/theories.md). */
  readonly header?: string;
  /** Where the header is. */
  readonly headerLoc?: Loc;
  readonly imports: readonly Import[];
  readonly definitions: readonly Definition[];
  readonly sections: readonly Section[];
}

/** The expressions directly inside `e`, for the walkers that must not recurse (deep specs). */
export function exprChildren(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'app':
      return e.args;
    case 'update':
      return [e.value];
    case 'unary':
      return [e.arg];
    case 'binary':
    case 'arith':
    case 'compare':
      return [e.left, e.right];
    default:
      return [];
  }
}
