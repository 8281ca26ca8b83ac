/**
 * runtime/decision — pure functions over a controller table's decision diagrams: walking a
 * diagram with known predicate values, which predicates a state may ask, explanations and replay.
 * Nothing here calls user code, so these work equally on a live controller and on a stored trace.
 */
import type { ControllerTable, DecisionNode } from './table.js';
import type { StepRecord } from './trace.js';

export type Leaf = Extract<DecisionNode, { kind: 'leaf' }>;

/** Every predicate index tested anywhere in the diagram, in first-seen (root-first) order. */
export function predicatesOf(node: DecisionNode): number[] {
  const seen = new Set<number>();
  const visit = (n: DecisionNode): void => {
    if (n.kind === 'leaf') return;
    seen.add(n.predicate);
    visit(n.whenTrue);
    visit(n.whenFalse);
  };
  visit(node);
  return [...seen];
}

export type WalkResult =
  | { readonly kind: 'leaf'; readonly leaf: Leaf; readonly path: readonly number[] }
  /** The walk needed a predicate whose value is not known. */
  | { readonly kind: 'missing'; readonly predicate: number; readonly path: readonly number[] };

/** Follow the diagram using `values` (predicate index → value). */
export function walk(node: DecisionNode, values: ReadonlyMap<number, boolean>): WalkResult {
  const path: number[] = [];
  let current = node;
  while (current.kind === 'test') {
    const value = values.get(current.predicate);
    if (value === undefined) return { kind: 'missing', predicate: current.predicate, path };
    path.push(current.predicate);
    current = value ? current.whenTrue : current.whenFalse;
  }
  return { kind: 'leaf', leaf: current, path };
}

/**
 * Where a leaf's spec lines are, as `file:line` (`specs/adventure.tsl:21`), or `line 21` when the
 * table does not say which file (tables written before files were recorded).
 */
export function specSitesOf(table: Pick<ControllerTable, 'specFiles'>, leaf: { readonly specLines?: readonly number[]; readonly specFiles?: readonly number[] }): string[] {
  const lines = leaf.specLines ?? [];
  return lines.map((line, i) => {
    const fileIndex = leaf.specFiles?.[i];
    const file = fileIndex === undefined ? undefined : table.specFiles?.[fileIndex];
    return file === undefined ? `line ${line}` : `${file}:${line}`;
  });
}

/** Leaves reachable when `values` fixes some predicates and the rest may take either value. */
function reachableLeaves(node: DecisionNode, values: ReadonlyMap<number, boolean>, out: Leaf[]): void {
  if (node.kind === 'leaf') {
    out.push(node);
    return;
  }
  const value = values.get(node.predicate);
  if (value !== false) reachableLeaves(node.whenTrue, values, out);
  if (value !== true) reachableLeaves(node.whenFalse, values, out);
}

const sameUpdates = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && a.every((u, i) => u === b[i]);

export interface ExplainedPredicate {
  readonly index: number;
  readonly proposition: string;
  readonly text: string;
  readonly value: boolean;
}

export interface Explanation {
  readonly step: number;
  readonly state: number;
  /** `[signal <- term]` of every chosen update that is not a self-update. */
  readonly chosen: readonly string[];
  /**
   * The asked predicates that decided the choice: flipping any one of them alone (keeping the
   * other answers) could lead to different updates. Predicates that were asked but only steer the
   * next state, or lead to the same updates either way, are left out.
   */
  readonly decisive: readonly ExplainedPredicate[];
  /** Asked predicates that did not influence the chosen updates. */
  readonly incidental: readonly ExplainedPredicate[];
  /** Spec lines the chosen transition serves. */
  readonly specLines: readonly number[];
  /** The same lines as `file:line` (`specs/adventure.tsl:21`) when the table records its files, else `line 21`. */
  readonly specSites: readonly string[];
}

export function explainStep(table: ControllerTable, record: StepRecord): Explanation {
  const state = table.states[record.stateBefore];
  if (!state) throw new RangeError(`explain: state ${record.stateBefore} is not in table ${table.name}`);
  const answers = new Map<number, boolean>(record.asked.map((a) => [a.index, a.value]));
  const chosen = record.updates.map((u) => u.index);
  const decisive: ExplainedPredicate[] = [];
  const incidental: ExplainedPredicate[] = [];
  for (const answer of record.asked) {
    const flipped = new Map(answers);
    flipped.set(answer.index, !answer.value);
    // Predicates never asked stay unknown: the flipped walk may need them, and then any of their
    // values is possible, so a predicate is decisive when *some* completion changes the updates.
    const unknownElsewhere = new Map<number, boolean>();
    for (const a of record.asked) unknownElsewhere.set(a.index, flipped.get(a.index) as boolean);
    const leaves: Leaf[] = [];
    reachableLeaves(state.decision, unknownElsewhere, leaves);
    const info = describePredicate(table, answer.index, answer.value);
    if (leaves.some((leaf) => !sameUpdates(leaf.updates, chosen))) decisive.push(info);
    else incidental.push(info);
  }
  return {
    step: record.step,
    state: record.stateBefore,
    chosen: record.updates.filter((u) => !u.isSelfUpdate).map((u) => u.text),
    decisive,
    incidental,
    specLines: record.specLines ?? [],
    specSites: sitesOfRecord(table, record, answers),
  };
}

/**
 * The record's spec lines with their files: the files are the table's, found on the leaf the
 * record's answers lead to (a trace stores only line numbers). A record that does not replay
 * against this table keeps its bare line numbers.
 */
function sitesOfRecord(table: ControllerTable, record: StepRecord, answers: ReadonlyMap<number, boolean>): string[] {
  const lines = record.specLines ?? [];
  const state = table.states[record.stateBefore];
  const reached = state ? walk(state.decision, answers) : undefined;
  const leaf = reached?.kind === 'leaf' ? reached.leaf : undefined;
  const sameLines = leaf?.specLines !== undefined && leaf.specLines.length === lines.length && leaf.specLines.every((l, i) => l === lines[i]);
  return sameLines && leaf ? specSitesOf(table, leaf) : lines.map((line) => `line ${line}`);
}

function describePredicate(table: ControllerTable, index: number, value: boolean): ExplainedPredicate {
  const p = table.predicates[index];
  return { index, proposition: p?.proposition ?? `#${index}`, text: p?.text ?? `#${index}`, value };
}

export interface ReplayMismatch {
  readonly step: number;
  readonly message: string;
}

export interface ReplayResult {
  readonly ok: boolean;
  readonly steps: number;
  readonly mismatches: readonly ReplayMismatch[];
}

/**
 * Re-run a recorded trace against the table: from each record's state, the recorded predicate
 * answers must lead to the recorded updates and next state, the asked predicates must be exactly
 * the ones the diagram needs, and each step must start where the previous one ended.
 */
export function replayTrace(table: ControllerTable, records: readonly StepRecord[]): ReplayResult {
  const mismatches: ReplayMismatch[] = [];
  let expectedState: number | undefined;
  let expectedStep: number | undefined;
  for (const record of records) {
    const fail = (message: string): void => {
      mismatches.push({ step: record.step, message });
    };
    if (expectedState !== undefined && record.stateBefore !== expectedState)
      fail(`starts in state ${record.stateBefore} but the previous step ended in state ${expectedState}`);
    if (expectedStep !== undefined && record.step !== expectedStep)
      fail(`is numbered ${record.step} but step ${expectedStep} was expected`);
    expectedState = record.stateAfter;
    expectedStep = record.step + 1;
    const state = table.states[record.stateBefore];
    if (!state) {
      fail(`state ${record.stateBefore} does not exist in table ${table.name}`);
      continue;
    }
    const values = new Map<number, boolean>();
    for (const a of [...record.asked, ...(record.speculative ?? [])]) values.set(a.index, a.value);
    const result = walk(state.decision, values);
    if (result.kind === 'missing') {
      fail(`the table needs predicate ${describePredicate(table, result.predicate, false).text}, which the trace did not record`);
      continue;
    }
    const askedPath = record.asked.map((a) => a.index);
    if (!sameUpdates(askedPath, result.path))
      fail(`asked predicates [${askedPath.join(', ')}] but the table's decision asks [${result.path.join(', ')}]`);
    const recordedUpdates = record.updates.map((u) => u.index);
    if (!sameUpdates(recordedUpdates, result.leaf.updates))
      fail(`chose updates [${recordedUpdates.join(', ')}] but the table chooses [${result.leaf.updates.join(', ')}]`);
    if (record.stateAfter !== result.leaf.next)
      fail(`moved to state ${record.stateAfter} but the table moves to state ${result.leaf.next}`);
  }
  return { ok: mismatches.length === 0, steps: records.length, mismatches };
}
