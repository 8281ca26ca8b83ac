/**
 * Trace-level "why": for a recorded trace and an effect over the chosen updates ("`toCave` was
 * never chosen"), the closest cause — the fewest changes to the recorded predicate answers under
 * which the controller would not have produced the effect (paper 001, Sec. 6.2, CORP's notion of
 * a closest cause, restricted to the recorded trace's length).
 *
 * Search: Dijkstra over (step, controller state) — the product of the controller table with the
 * trace. Taking a root-to-leaf path of a state's decision diagram at step i costs one per
 * predicate whose recorded answer at step i it contradicts, and one per predicate the trace did not
 * record at that step (an unknown answer is no evidence, so assuming one is a change too); ties
 * prefer contradicting over assuming, since contradictions are what the user can check.
 */
import type { Leaf } from '../../runtime/decision.js';
import type { ControllerTable, DecisionNode, UpdateData } from '../../runtime/table.js';
import type { StepRecord } from '../../runtime/trace.js';

export type Effect =
  /** The update was never chosen in the trace; the cause makes it chosen at some step. */
  | { readonly kind: 'never'; readonly update: number }
  /** The update was chosen at `step`; the cause avoids it there. */
  | { readonly kind: 'chosen-at'; readonly update: number; readonly step: number }
  /** The update was not chosen at `step`; the cause makes it chosen there. */
  | { readonly kind: 'not-chosen-at'; readonly update: number; readonly step: number };

export class EffectError extends Error {}

/** Parse `never toCave`, `toCave at 3`, `not toCave at 3` against the table's updates. */
export function parseEffect(table: ControllerTable, text: string): Effect {
  const t = text.trim();
  let m = /^never\s+(.+)$/i.exec(t);
  if (m) return { kind: 'never', update: findUpdate(table, m[1]).index };
  m = /^(?:not|no)\s+(.+?)\s+at\s+(?:step\s+)?(\d+)$/i.exec(t);
  if (m) return { kind: 'not-chosen-at', update: findUpdate(table, m[1]).index, step: Number(m[2]) };
  m = /^(.+?)\s+at\s+(?:step\s+)?(\d+)$/i.exec(t);
  if (m) return { kind: 'chosen-at', update: findUpdate(table, m[1]).index, step: Number(m[2]) };
  throw new EffectError(`cannot read effect '${text}': expected 'never <update>', '<update> at <step>' or 'not <update> at <step>'`);
}

/** An update by proposition, text as written, or the function it calls (`toCave`). */
export function findUpdate(table: ControllerTable, name: string): UpdateData {
  const n = name.trim();
  const norm = (s: string) => s.replace(/\s+/g, '');
  const exact = table.updates.filter((u) => u.proposition === n || norm(u.text) === norm(n));
  if (exact.length === 1) return exact[0];
  const byFn = table.updates.filter((u) => u.term.kind === 'call' && u.term.fn === n);
  if (byFn.length === 1) return byFn[0];
  const matches = exact.length > 1 ? exact : byFn.length > 1 ? byFn : [];
  if (matches.length > 1)
    throw new EffectError(`'${n}' matches several updates: ${matches.map((u) => u.text).join(', ')}`);
  throw new EffectError(`no update '${n}' in controller ${table.name} (updates: ${table.updates.map((u) => u.text).join(', ')})`);
}

export interface PredicateChange {
  readonly step: number;
  readonly predicate: number;
  readonly text: string;
  /** The recorded answer (undefined: the trace did not record this predicate at this step). */
  readonly from: boolean | undefined;
  readonly to: boolean;
}

export interface CounterfactualStep {
  readonly step: number;
  readonly state: number;
  readonly values: ReadonlyMap<number, boolean>;
  readonly updates: readonly number[];
  readonly next: number;
}

export interface Cause {
  /** Changes that contradict recorded answers (the cause proper). */
  readonly changes: readonly PredicateChange[];
  /** Values chosen for predicates the trace did not record. */
  readonly assumed: readonly PredicateChange[];
  /** The step at which the counterfactual run avoids the effect. */
  readonly effectStep: number;
  readonly counterfactual: readonly CounterfactualStep[];
  /**
   * For single-change causes: every step at which the same predicate, changed alone, would also
   * have avoided the effect — the temporal shape of the cause ("inMarket s was false at steps 2–9").
   */
  readonly sameCauseSteps: readonly number[];
}

interface PathChoice {
  readonly literals: readonly (readonly [number, boolean])[];
  readonly leaf: Leaf;
}

function paths(node: DecisionNode, prefix: (readonly [number, boolean])[] = [], out: PathChoice[] = []): PathChoice[] {
  if (node.kind === 'leaf') out.push({ literals: [...prefix], leaf: node });
  else {
    paths(node.whenTrue, [...prefix, [node.predicate, true]], out);
    paths(node.whenFalse, [...prefix, [node.predicate, false]], out);
  }
  return out;
}

function recordedValues(r: StepRecord): Map<number, boolean> {
  const m = new Map<number, boolean>();
  for (const a of [...r.asked, ...(r.speculative ?? [])]) m.set(a.index, a.value);
  return m;
}

function effectAvoidedAt(effect: Effect, step: number, updates: readonly number[]): boolean {
  if (effect.kind === 'never') return updates.includes(effect.update);
  if (step !== effect.step) return false;
  return effect.kind === 'chosen-at' ? !updates.includes(effect.update) : updates.includes(effect.update);
}

/** Does the recorded trace exhibit the effect at all? (Otherwise there is nothing to explain.) */
export function effectHolds(effect: Effect, records: readonly StepRecord[]): boolean {
  if (effect.kind === 'never') return records.every((r) => !r.updates.some((u) => u.index === effect.update));
  const r = records.find((x) => x.step === effect.step);
  if (!r) return false;
  const chosen = r.updates.some((u) => u.index === effect.update);
  return effect.kind === 'chosen-at' ? chosen : !chosen;
}

/** The closest cause, or undefined when no change of predicate answers within the trace helps. */
export function closestCause(table: ControllerTable, records: readonly StepRecord[], effect: Effect): Cause | undefined {
  if (records.length === 0) return undefined;
  const values = records.map(recordedValues);
  const pathsOf = new Map<number, PathChoice[]>();
  const statePaths = (s: number) => {
    let p = pathsOf.get(s);
    if (!p) {
      const st = table.states[s];
      if (!st) throw new EffectError(`state ${s} is not in table ${table.name}`);
      p = paths(st.decision);
      pathsOf.set(s, p);
    }
    return p;
  };
  const lastStep = effect.kind === 'never' ? records.length - 1 : Math.min(records.length - 1, effect.step - records[0].step);

  interface Node {
    readonly i: number;
    readonly state: number;
    readonly cost: number;
    readonly assumed: number;
    readonly prev?: Node;
    readonly choice?: PathChoice;
  }
  const better = (a: Node, b: Node) => a.cost + a.assumed - (b.cost + b.assumed) || a.assumed - b.assumed || a.i - b.i;
  const best = new Map<string, Node>();
  const queue: Node[] = [{ i: 0, state: records[0].stateBefore, cost: 0, assumed: 0 }];
  let found: { node: Node; choice: PathChoice } | undefined;
  while (queue.length > 0) {
    queue.sort(better);
    const cur = queue.shift()!;
    const key = `${cur.i}|${cur.state}`;
    const seen = best.get(key);
    if (seen && better(seen, cur) <= 0 && seen !== cur) continue;
    if (found && better(found.node, cur) < 0) break;
    for (const choice of statePaths(cur.state)) {
      let cost = cur.cost;
      let assumed = cur.assumed;
      for (const [p, v] of choice.literals) {
        const rec = values[cur.i].get(p);
        if (rec === undefined) assumed++;
        else if (rec !== v) cost++;
      }
      const node: Node = { i: cur.i, state: cur.state, cost, assumed, prev: cur, choice };
      if (effectAvoidedAt(effect, records[cur.i].step, choice.leaf.updates)) {
        if (!found || better(node, found.node) < 0) found = { node, choice };
        continue;
      }
      if (cur.i + 1 > lastStep) continue;
      const next: Node = { i: cur.i + 1, state: choice.leaf.next, cost, assumed, prev: node };
      const nkey = `${next.i}|${next.state}`;
      const old = best.get(nkey);
      if (!old || better(next, old) < 0) {
        best.set(nkey, next);
        queue.push(next);
      }
    }
  }
  if (!found) return undefined;

  // Reconstruct the counterfactual run from the chosen path at each step.
  const chosen: { i: number; state: number; choice: PathChoice }[] = [];
  for (let n: Node | undefined = found.node; n; n = n.prev) if (n.choice) chosen.push({ i: n.i, state: n.state, choice: n.choice });
  chosen.reverse();
  const changes: PredicateChange[] = [];
  const assumed: PredicateChange[] = [];
  const counterfactual: CounterfactualStep[] = [];
  const textOf = (p: number) => table.predicates[p]?.text ?? `#${p}`;
  for (const c of chosen) {
    const step = records[c.i].step;
    const vals = new Map(values[c.i]);
    for (const [p, v] of c.choice.literals) {
      const rec = values[c.i].get(p);
      if (rec === undefined) assumed.push({ step, predicate: p, text: textOf(p), from: undefined, to: v });
      else if (rec !== v) changes.push({ step, predicate: p, text: textOf(p), from: rec, to: v });
      vals.set(p, v);
    }
    counterfactual.push({ step, state: c.state, values: vals, updates: c.choice.leaf.updates, next: c.choice.leaf.next });
  }
  const effectStep = records[found.node.i].step;
  const sameCauseSteps = changes.length === 1 ? singleFlipSteps(table, records, effect, changes[0].predicate) : [];
  return { changes, assumed, effectStep, counterfactual, sameCauseSteps };
}

/** Steps where flipping only `predicate` (keeping the recorded run before it) avoids the effect. */
function singleFlipSteps(table: ControllerTable, records: readonly StepRecord[], effect: Effect, predicate: number): number[] {
  const out: number[] = [];
  records.forEach((r, i) => {
    const vals = recordedValues(r);
    const rec = vals.get(predicate);
    if (rec === undefined) return;
    vals.set(predicate, !rec);
    const state = table.states[r.stateBefore];
    if (!state) return;
    // The diagram may need predicates the original walk never asked: any value of those counts.
    for (const choice of paths(state.decision)) {
      const consistent = choice.literals.every(([p, v]) => vals.get(p) === undefined || vals.get(p) === v);
      if (!consistent || !choice.literals.some(([p]) => p === predicate)) continue;
      if (effectAvoidedAt(effect, r.step, choice.leaf.updates)) {
        out.push(r.step);
        return;
      }
    }
    void i;
  });
  return out;
}

export function describeEffect(table: ControllerTable, effect: Effect): string {
  const u = table.updates[effect.update]?.text ?? `#${effect.update}`;
  if (effect.kind === 'never') return `${u} was never chosen`;
  if (effect.kind === 'chosen-at') return `${u} was chosen at step ${effect.step}`;
  return `${u} was not chosen at step ${effect.step}`;
}

const tf = (v: boolean | undefined) => (v === undefined ? '?' : v ? 'T' : 'F');

/** The cause as a trace diff (paper 001, Figure 3): recorded vs. counterfactual, changes marked. */
export function renderCause(table: ControllerTable, records: readonly StepRecord[], effect: Effect, cause: Cause | undefined): string {
  const lines: string[] = [];
  lines.push(`effect: ${describeEffect(table, effect)}`);
  if (!cause) {
    lines.push('no change of predicate answers within the recorded steps avoids this effect');
    return lines.join('\n');
  }
  const n = cause.changes.length;
  lines.push(`closest cause: ${n} change${n === 1 ? '' : 's'} of predicate answers`);
  for (const c of cause.changes) lines.push(`  step ${c.step}: ${c.text} was ${c.from}; had it been ${c.to}, …`);
  const cf = cause.counterfactual[cause.counterfactual.length - 1];
  const chosenText = cf.updates.map((u) => table.updates[u]?.text ?? `#${u}`).filter((_, k) => !table.updates[cf.updates[k]]?.isSelfUpdate);
  lines.push(`  … step ${cause.effectStep} would have chosen ${chosenText.length > 0 ? chosenText.join(', ') : 'to keep every signal'}`);
  if (cause.assumed.length > 0)
    lines.push(`  (assuming unrecorded answers: ${cause.assumed.map((a) => `${a.text} = ${a.to} at step ${a.step}`).join(', ')})`);
  if (n === 1 && cause.sameCauseSteps.length > 1) {
    const c = cause.changes[0];
    lines.push(`  the same change at any of steps ${ranges(cause.sameCauseSteps)} would have done it: ${c.text} stayed ${c.from} — that is the cause`);
  }
  // The diff table: predicates the counterfactual touched, recorded → counterfactual.
  const preds = [...new Set(cause.counterfactual.flatMap((s) => [...s.values.keys()]))].sort((a, b) => a - b);
  lines.push('');
  lines.push('trace diff (recorded → counterfactual; T/F, ? = not recorded):');
  const header = ['step', ...preds.map((p) => table.predicates[p]?.text ?? `#${p}`), 'updates'];
  const rows: string[][] = [header];
  cause.counterfactual.forEach((s, k) => {
    const rec = records.find((r) => r.step === s.step) ?? records[k];
    const recVals = recordedValues(rec);
    const cells = preds.map((p) => {
      const a = recVals.get(p);
      const b = s.values.get(p);
      return a === b || b === undefined ? tf(a) : `${tf(a)}→${tf(b)}`;
    });
    const recUpd = rec.updates.filter((u) => !u.isSelfUpdate).map((u) => u.text).join(', ') || 'keep';
    const cfUpd = s.updates.filter((u) => !table.updates[u]?.isSelfUpdate).map((u) => table.updates[u]?.text ?? `#${u}`).join(', ') || 'keep';
    rows.push([String(s.step), ...cells, recUpd === cfUpd ? recUpd : `${recUpd} → ${cfUpd}`]);
  });
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) lines.push('  ' + r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
  return lines.join('\n');
}

function ranges(steps: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < steps.length) {
    let j = i;
    while (j + 1 < steps.length && steps[j + 1] === steps[j] + 1) j++;
    out.push(j > i ? `${steps[i]}–${steps[j]}` : String(steps[i]));
    i = j + 1;
  }
  return out.join(', ');
}
