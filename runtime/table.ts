/**
 * runtime/table — the controller table: the data a generated module exports and the runtime steps.
 *
 * This is the contract between code generation (src/codegen) and the runtime. It is plain JSON
 * (no functions), so it can be hashed, diffed, snapshotted and replayed. The runtime must not
 * import anything from src/.
 */

/** A TSL term as data. Predicates and functions are called with evaluated arguments. */
export type TermData =
  /** The current value of a signal (input, cell or output). */
  | { readonly kind: 'signal'; readonly name: string }
  /** A call of a user function (or a built-in such as `add`), `args` evaluated first. */
  | { readonly kind: 'call'; readonly fn: string; readonly args: readonly TermData[] }
  /** A numeric or string literal (TSL `int1()`, `real2.5()`, `"text"` desugar to this). */
  | { readonly kind: 'literal'; readonly value: number | string | boolean };

export interface PredicateData {
  /** Index into `ControllerTable.predicates`; also the proposition's position. */
  readonly index: number;
  /** Proposition name in the synthesized game (for traces and cross-reference). */
  readonly proposition: string;
  /** The predicate function name (`inCave`). */
  readonly fn: string;
  readonly args: readonly TermData[];
  /** The term as written in the spec (`inCave storyPassage`). */
  readonly text: string;
  /**
   * Set when the proposition tests a boolean signal directly (`room.empty`) rather than calling a
   * predicate: its value is that signal's current value, and `fn`/`args` are not used.
   */
  readonly signal?: string;
}

export interface UpdateData {
  readonly index: number;
  readonly proposition: string;
  readonly signal: string;
  /** The new value's term; a self-update is `{ kind: 'signal', name: signal }`. */
  readonly term: TermData;
  readonly isSelfUpdate: boolean;
  /** `[signal <- term]` as written. */
  readonly text: string;
}

export interface SignalData {
  readonly name: string;
  /** input: read only, supplied by the caller each step; cell: read and updated; output: updated only. */
  readonly role: 'input' | 'cell' | 'output';
}

/** Per-state decision diagram over predicates; leaves choose updates and the next state. */
export type DecisionNode =
  | {
      readonly kind: 'test';
      /** Index into `predicates`. */
      readonly predicate: number;
      readonly whenTrue: DecisionNode;
      readonly whenFalse: DecisionNode;
    }
  | {
      readonly kind: 'leaf';
      /** One update index per updated signal, in `signals` order of updated signals. */
      readonly updates: readonly number[];
      readonly next: number;
      /**
       * Spec lines (1-based) this transition serves: the lines of the assumptions and guarantees
       * that mention its chosen updates, for doc comments and explanations.
       */
      readonly specLines?: readonly number[];
      /**
       * For each of `specLines`, the index in the table's `specFiles` of the file that line is in
       * (a composed controller's lines come from several files).
       */
      readonly specFiles?: readonly number[];
    };

export interface StateData {
  readonly index: number;
  readonly decision: DecisionNode;
}

export interface ControllerTable {
  readonly name: string;
  /**
   * The theory the controller was synthesized in (`#LIA`, `#UF`): the runtime then evaluates the
   * built-ins it fixes itself (integers only under #LIA), whatever the implementation provides.
   */
  readonly theory?: 'LIA' | 'UF';
  readonly signals: readonly SignalData[];
  readonly predicates: readonly PredicateData[];
  readonly updates: readonly UpdateData[];
  readonly initialState: number;
  readonly states: readonly StateData[];
  /**
   * The spec files the table was compiled from, as the compiler showed them (relative to its
   * working directory); leaves' `specFiles` index into it, so explanations can say `file:line`.
   */
  readonly specFiles?: readonly string[];
}

export interface ControllerMetadata {
  readonly specFile: string;
  /** SHA-256 of the spec text(s) the module was compiled from. */
  readonly specHash: string;
  readonly stateCount: number;
  readonly toolVersion: string;
  /** True only when the independent model checker accepted the machine against the spec. */
  readonly verified: boolean;
  readonly synthesizer: string;
}
