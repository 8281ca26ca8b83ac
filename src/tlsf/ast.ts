/**
 * The TLSF source tree: what the file says, with offsets for diagnostics. Evaluation (parameters,
 * definitions, big operators) happens in eval.ts; nothing here is simplified.
 */

/** Every node keeps the [start, end) character range it was parsed from. */
interface At {
  readonly start: number;
  readonly end: number;
}

export type BinaryOp =
  | ':'
  | 'R'
  | 'U'
  | 'W'
  | '->'
  | '<->'
  | '||'
  | '&&'
  | 'IN'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'CUP'
  | 'CAP'
  | 'SETMINUS'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%';

export type PrefixOp = '!' | 'X' | 'F' | 'G' | 'SIZE' | 'MIN' | 'MAX' | 'SIZEOF';
/** Operators with a bracketed argument list: `&&[i <- S] e`, `X[2] e`, `SUM[i <- S] e`. */
export type IndexedOp = '&&' | '||' | 'X' | 'F' | 'G' | 'SUM' | 'PROD' | 'CUP' | 'CAP';

export type Expr = At &
  (
    | { readonly kind: 'number'; readonly value: number }
    | { readonly kind: 'bool'; readonly value: boolean }
    | { readonly kind: 'otherwise' }
    | { readonly kind: 'id'; readonly name: string }
    | { readonly kind: 'call'; readonly name: string; readonly nameEnd: number; readonly args: readonly Expr[] }
    | { readonly kind: 'index'; readonly name: string; readonly nameEnd: number; readonly index: Expr }
    | { readonly kind: 'prefix'; readonly op: PrefixOp; readonly arg: Expr }
    | { readonly kind: 'indexed'; readonly op: IndexedOp; readonly params: readonly Expr[]; readonly arg: Expr }
    | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
    | { readonly kind: 'set'; readonly items: readonly Expr[] }
    /** `{first, second .. last}` (step second-first) or `{first .. last}` (step 1). */
    | { readonly kind: 'range'; readonly first: Expr; readonly second?: Expr; readonly last: Expr }
    | { readonly kind: 'size'; readonly arg: Expr }
  );

export interface Binding extends At {
  readonly name: string;
  readonly params: readonly string[];
  /**
   * One or more alternatives, separated by white space. Guarded cases are `guard : value` (the
   * guard first, as in syfco); `otherwise` as a guard means "no other guard holds".
   */
  readonly alternatives: readonly Expr[];
}

export interface SignalDecl extends At {
  readonly name: string;
  /** Bus width expression for `r[n]`. */
  readonly width?: Expr;
  /** For a typed signal `color c;`: the enumeration `color` (a bus as wide as its codes). */
  readonly enumType?: { readonly name: string; readonly start: number };
}

/**
 * `enum color = red: 01  green: 10, 11  blue: 00;` — each value names one or more codes over
 * `0`, `1` and `*` (don't care), all of one length; bit i of a code is the signal's i-th line.
 */
export interface EnumDecl extends At {
  readonly name: string;
  readonly values: readonly { readonly name: string; readonly start: number; readonly codes: readonly string[] }[];
}

export type TlsfSemantics = 'mealy' | 'moore' | 'mealy-strict' | 'moore-strict';

export interface TlsfSection {
  readonly keyword: string;
  readonly start: number;
  readonly items: readonly Expr[];
}

export interface TlsfDocumentAst {
  readonly title?: string;
  readonly description?: string;
  readonly semantics: TlsfSemantics;
  readonly target: 'mealy' | 'moore';
  readonly tags: readonly string[];
  readonly parameters: readonly Binding[];
  readonly definitions: readonly Binding[];
  readonly enums: readonly EnumDecl[];
  readonly inputs: readonly SignalDecl[];
  readonly outputs: readonly SignalDecl[];
  readonly initially: readonly Expr[];
  readonly preset: readonly Expr[];
  readonly require: readonly Expr[];
  readonly assume: readonly Expr[];
  readonly assert: readonly Expr[];
  readonly guarantee: readonly Expr[];
}
