/**
 * runtime/ltl — plain, JSON-serialisable LTL syntax shared by the runtime (monitors, shields) and
 * the compiler. The compiler converts it into hash-consed formulas (src/ltl); the runtime works on
 * it directly so monitors can snapshot their state as plain JSON and need nothing from src/.
 */

export type LtlNode =
  | { readonly op: 'true' }
  | { readonly op: 'false' }
  | { readonly op: 'ap'; readonly name: string }
  | { readonly op: '!' | 'X' | 'F' | 'G'; readonly arg: LtlNode }
  /** n-ary conjunction / disjunction (at least two operands when built by the parser). */
  | { readonly op: '&' | '|'; readonly args: readonly LtlNode[] }
  | {
      readonly op: '->' | '<->' | 'xor' | 'U' | 'W' | 'R' | 'M';
      readonly left: LtlNode;
      readonly right: LtlNode;
    };

/** Offsets into the parsed text (0-based, end exclusive), kept beside the tree, not inside it. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}
