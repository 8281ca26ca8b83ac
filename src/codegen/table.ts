/**
 * src/codegen — turning a verified Mealy machine for a TSL game into a TypeScript module.
 *
 * This file builds the controller table (runtime/table.ts): predicates and updates in the user's
 * terms, and per state a decision diagram over predicates that reproduces the machine's choice.
 *
 * Choice rule (documented for users in docs/codegen.md): when several transitions of a state match
 * the predicate answers, the FIRST in the machine's list order is taken. Output cubes that leave a
 * signal's update open are completed with the self-update when allowed (it costs no call).
 * Diagrams test a predicate only when the answer can change the outcome (updates + next state),
 * and among those pick the order that minimises the expected number of predicate calls.
 */
import type { ControllerTable, DecisionNode, PredicateData, SignalData, StateData, UpdateData } from '../../runtime/table.js';
import type { GameSpec, SpecPart } from '../game/spec.js';
import type { Cube, MealyMachine } from '../game/mealy.js';
import { own } from '../../runtime/dict.js';
import { atoms } from '../ltl/formula.js';

/** A machine that cannot be compiled: a bug upstream (synthesis/reader), not a user mistake. */
export class TableBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TableBuildError';
  }
}

interface Outcome {
  readonly key: string;
  readonly updates: readonly number[];
  readonly next: number;
  readonly specLines: readonly number[];
  /** Per spec line, the index of its file in the table's `specFiles`. */
  readonly specFiles: readonly number[];
}

export interface TableOptions {
  /** How a spec file is shown in the table (e.g. relative to the working directory); default: as given. */
  readonly displayFile?: (file: string) => string;
}

interface Row {
  /** [predicate index, required value] pairs. */
  readonly literals: readonly (readonly [number, boolean])[];
  readonly outcome: Outcome;
}

/** Above this many open predicates, pick split predicates greedily instead of searching. */
const EXHAUSTIVE_LIMIT = 8;

export function buildControllerTable(spec: GameSpec, machine: MealyMachine, name: string = spec.name, options: TableOptions = {}): ControllerTable {
  if (!spec.tslSignals) throw new TableBuildError(`${spec.name}: only TSL specifications can be compiled to controllers`);
  const signals: SignalData[] = spec.tslSignals.map((s) => ({ name: s.name, role: s.role }));

  const predicates: PredicateData[] = spec.inputs.map((input, index) => {
    const text = input.term ?? input.name;
    if (input.booleanSignal !== undefined)
      return { index, proposition: input.name, fn: '', args: [], text, signal: input.booleanSignal };
    if (!input.predicate) throw new TableBuildError(`${spec.name}: input ${input.name} is not a TSL predicate`);
    return { index, proposition: input.name, fn: input.predicate.fn, args: input.predicate.args, text };
  });
  const updates: UpdateData[] = spec.outputs.map((output, index) => {
    if (!output.update) throw new TableBuildError(`${spec.name}: output ${output.name} is not a TSL update`);
    return {
      index,
      proposition: output.name,
      signal: output.update.signal,
      term: output.update.term,
      isSelfUpdate: output.update.isSelfUpdate,
      text: output.term ?? output.name,
    };
  });

  const predicateIndex = new Map(predicates.map((p) => [p.proposition, p.index]));
  const updateIndex = new Map(updates.map((u) => [u.proposition, u.index]));
  for (const input of machine.inputs)
    if (!predicateIndex.has(input)) throw new TableBuildError(`${spec.name}: machine input ${input} is not a predicate of the spec`);

  // Updated signals, in `signals` order: those with an exactly-one group of updates.
  const groupOf = new Map(spec.signals.map((g) => [g.signal, g]));
  const updatedSignals = signals.filter((s) => s.role !== 'input' && groupOf.has(s.name)).map((s) => groupOf.get(s.name)!);
  for (const group of spec.signals)
    if (!signals.some((s) => s.name === group.signal))
      throw new TableBuildError(`${spec.name}: signal group ${group.signal} has no signal declaration`);

  // Theory facts are not lines the user wrote: transitions cite the user's own lines only.
  const specParts = [...spec.initially, ...spec.preset, ...spec.assumptions, ...spec.guarantees].filter((p) => p.theory === undefined);
  const partAtoms = specParts.map((part) => ({ part, atoms: atoms(part.formula) }));
  // The files spec lines come from, in first-mention order, so a composed controller's
  // explanations can say which file a line is in.
  const fileIndex = new Map<string, number>();
  for (const { span } of specParts) if (span && !fileIndex.has(span.file)) fileIndex.set(span.file, fileIndex.size);
  const display = options.displayFile ?? ((file: string) => file);
  const specFiles = [...fileIndex.keys()].map(display);

  const outcomes = new Map<string, Outcome>();
  const outcomeOf = (output: Cube, next: number): Outcome => {
    const chosen = updatedSignals.map((group) => {
      const proposition = chooseUpdate(group.signal, group.updates, group.selfUpdate, output);
      const index = updateIndex.get(proposition);
      if (index === undefined) throw new TableBuildError(`${spec.name}: update ${proposition} is not an output of the spec`);
      return index;
    });
    const key = `${chosen.join(',')}>${next}`;
    let found = outcomes.get(key);
    if (!found) {
      const sites = sitesMentioning(chosen.map((i) => updates[i].proposition), partAtoms, fileIndex);
      found = { key, updates: chosen, next, specLines: sites.map((s) => s.line), specFiles: sites.map((s) => s.file) };
      outcomes.set(key, found);
    }
    return found;
  };

  const rowsByState: Row[][] = Array.from({ length: machine.stateCount }, () => []);
  for (const t of machine.transitions) {
    if (t.from < 0 || t.from >= machine.stateCount || t.to < 0 || t.to >= machine.stateCount)
      throw new TableBuildError(`${spec.name}: transition ${t.from} → ${t.to} leaves the machine's ${machine.stateCount} states`);
    const literals = Object.keys(t.input).map((p) => {
      const index = predicateIndex.get(p);
      if (index === undefined) throw new TableBuildError(`${spec.name}: transition tests unknown input ${p}`);
      return [index, t.input[p]] as const;
    });
    rowsByState[t.from].push({ literals, outcome: outcomeOf(t.output, t.to) });
  }

  const states: StateData[] = rowsByState.map((rows, index) => {
    if (rows.length === 0) throw new TableBuildError(`${spec.name}: state ${index} has no transitions`);
    return { index, decision: buildDiagram(rows, index, spec.name) };
  });

  return {
    name,
    ...(spec.theory ? { theory: spec.theory } : {}),
    signals,
    predicates,
    updates,
    initialState: machine.initial,
    states,
    ...(specFiles.length > 0 ? { specFiles } : {}),
  };
}

/** Pick the update proposition of one signal that the output cube allows, preferring the self-update. */
function chooseUpdate(signal: string, group: readonly string[], selfUpdate: string | undefined, output: Cube): string {
  const setTrue = group.filter((p) => own(output, p) === true);
  if (setTrue.length > 1) throw new TableBuildError(`signal ${signal}: a transition performs ${setTrue.join(' and ')} at once`);
  if (setTrue.length === 1) return setTrue[0];
  const allowed = group.filter((p) => own(output, p) !== false);
  if (selfUpdate !== undefined && allowed.includes(selfUpdate)) return selfUpdate;
  if (allowed.length === 0) throw new TableBuildError(`signal ${signal}: a transition forbids every update`);
  return allowed[0];
}

/** The (file, line) of every spec part that mentions one of `propositions`, by file then line. */
function sitesMentioning(
  propositions: readonly string[],
  parts: readonly { part: SpecPart; atoms: Set<string> }[],
  fileIndex: ReadonlyMap<string, number>,
): { file: number; line: number }[] {
  const sites = new Map<string, { file: number; line: number }>();
  for (const { part, atoms: names } of parts) {
    if (!part.span || !propositions.some((p) => names.has(p))) continue;
    const site = { file: fileIndex.get(part.span.file) ?? 0, line: part.span.line };
    sites.set(`${site.file}:${site.line}`, site);
  }
  return [...sites.values()].sort((a, b) => a.file - b.file || a.line - b.line);
}

interface Solved {
  readonly node: DecisionNode;
  /** Expected number of predicate calls when every answer is a fair coin. */
  readonly cost: number;
}

function buildDiagram(rows: readonly Row[], state: number, specName: string): DecisionNode {
  const memo = new Map<string, Solved>();
  const leafOf = (o: Outcome): DecisionNode =>
    o.specLines.length > 0
      ? { kind: 'leaf', updates: o.updates, next: o.next, specLines: o.specLines, specFiles: o.specFiles }
      : { kind: 'leaf', updates: o.updates, next: o.next };

  const solve = (assignment: ReadonlyMap<number, boolean>): Solved => {
    const key = [...assignment].sort((a, b) => a[0] - b[0]).map(([p, v]) => `${p}${v ? '+' : '-'}`).join('');
    const cached = memo.get(key);
    if (cached) return cached;
    const candidates = rows.filter((r) => r.literals.every(([p, v]) => assignment.get(p) !== !v));
    if (candidates.length === 0)
      throw new TableBuildError(`${specName}: state ${state} has no transition for predicate answers {${key}} (machine not input-complete)`);
    let result: Solved;
    const first = candidates[0];
    if (first.literals.every(([p, v]) => assignment.get(p) === v) || candidates.every((r) => r.outcome === first.outcome)) {
      // Either the first candidate surely matches, or every candidate agrees: no more questions.
      result = { node: leafOf(first.outcome), cost: 0 };
    } else {
      result = split(assignment, candidates);
    }
    memo.set(key, result);
    return result;
  };

  const split = (assignment: ReadonlyMap<number, boolean>, candidates: readonly Row[]): Solved => {
    const open = new Map<number, number>();
    for (const r of candidates) for (const [p] of r.literals) if (!assignment.has(p)) open.set(p, (open.get(p) ?? 0) + 1);
    let choices = [...open.keys()].sort((a, b) => a - b);
    if (choices.length > EXHAUSTIVE_LIMIT) {
      // Greedy: a predicate of the first candidate must be asked to decide whether it applies;
      // among those, the one most transitions mention splits the rest best.
      const firstOpen = candidates[0].literals.map(([p]) => p).filter((p) => !assignment.has(p));
      firstOpen.sort((a, b) => (open.get(b) ?? 0) - (open.get(a) ?? 0) || a - b);
      choices = firstOpen.slice(0, 1);
    }
    let best: Solved | undefined;
    for (const p of choices) {
      const whenTrue = solve(new Map(assignment).set(p, true));
      const whenFalse = solve(new Map(assignment).set(p, false));
      // The answer does not matter here (both branches decide alike): don't ask it.
      if (sameNode(whenTrue.node, whenFalse.node)) return whenTrue;
      const cost = 1 + (whenTrue.cost + whenFalse.cost) / 2;
      if (!best || cost < best.cost)
        best = { node: { kind: 'test', predicate: p, whenTrue: whenTrue.node, whenFalse: whenFalse.node }, cost };
    }
    return best!;
  };

  return solve(new Map()).node;
}

function sameNode(a: DecisionNode, b: DecisionNode): boolean {
  if (a === b) return true;
  if (a.kind === 'leaf' || b.kind === 'leaf')
    return a.kind === 'leaf' && b.kind === 'leaf' && a.next === b.next && a.updates.length === b.updates.length && a.updates.every((u, i) => u === b.updates[i]);
  return a.predicate === b.predicate && sameNode(a.whenTrue, b.whenTrue) && sameNode(a.whenFalse, b.whenFalse);
}

/** Expected predicate calls per step for a diagram under fair-coin answers (for benchmarks). */
export function expectedCalls(node: DecisionNode): number {
  return node.kind === 'leaf' ? 0 : 1 + (expectedCalls(node.whenTrue) + expectedCalls(node.whenFalse)) / 2;
}
