import { walk } from '../../runtime/decision.js';
import type { ControllerTable } from '../../runtime/table.js';
import type { StepRecord } from '../../runtime/trace.js';

/**
 * Run a controller table against a scripted environment and record a trace the way the runtime
 * does: the asked predicates in diagram order, the chosen updates, the states.
 * `env(step, previousUpdates)` answers predicates by proposition name.
 */
export function simulateTrace(
  table: ControllerTable,
  steps: number,
  env: (step: number, previous: readonly string[]) => Record<string, boolean>,
  /** Record every predicate (as the runtime's parallel mode does), not only the asked ones. */
  recordAll = false,
): StepRecord[] {
  const records: StepRecord[] = [];
  let state = table.initialState;
  let previous: string[] = [];
  for (let step = 0; step < steps; step++) {
    const answers = env(step, previous);
    const values = new Map(table.predicates.map((p) => [p.index, answers[p.proposition] === true]));
    const result = walk(table.states[state].decision, values);
    if (result.kind !== 'leaf') throw new Error('walk needs an unknown predicate');
    const updates = result.leaf.updates.map((i) => table.updates[i]);
    records.push({
      step,
      stateBefore: state,
      stateAfter: result.leaf.next,
      asked: result.path.map((i) => ({ index: i, proposition: table.predicates[i].proposition, text: table.predicates[i].text, value: values.get(i)!, ms: 0 })),
      speculative: recordAll
        ? table.predicates.filter((p) => !result.path.includes(p.index)).map((p) => ({ index: p.index, proposition: p.proposition, text: p.text, value: values.get(p.index)!, ms: 0 }))
        : undefined,
      notNeeded: recordAll ? [] : table.predicates.map((p) => p.index).filter((i) => !result.path.includes(i)),
      updates: updates.map((u) => ({ index: u.index, proposition: u.proposition, signal: u.signal, text: u.text, isSelfUpdate: u.isSelfUpdate, ms: 0 })),
      startedAt: 0,
      durationMs: 0,
    });
    previous = updates.map((u) => u.proposition);
    state = result.leaf.next;
  }
  return records;
}
