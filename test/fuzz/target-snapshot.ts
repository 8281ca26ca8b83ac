/**
 * Snapshots for `restore()`: a real snapshot of a small controller, then broken field by field
 * (deleted, retyped, out of range, odd keys, deep or huge values) or as JSON text (character
 * edits, truncation). Oracle: `restore` either refuses with a `SnapshotError` naming a field and
 * leaves the controller as it was, or restores a state the controller can snapshot again.
 */
import { createController, type ControllerTable } from '../../runtime/index.js';
import { SnapshotError } from '../../runtime/snapshot.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { tinyMachine, tinySpec } from '../codegen/fixtures.js';
import { mutate } from './mutate.js';
import { describeThrown, interruptible, OK, type Result } from './oracle.js';
import type { Rand } from './rand.js';

const table: ControllerTable = buildControllerTable(tinySpec, tinyMachine);
const impl = {
  inCave: () => true,
  inTown: () => false,
  happy: () => true,
  toCave: (s: string) => `c${String(s).length}`,
  toTown: (s: string) => `t${String(s).length}`,
  summarize: (s: string, p: string) => `${String(s).slice(-4)}|${String(p)}`,
};
const fresh = () => createController<Record<string, unknown>, object>({ table, impl, initialSignals: { summary: 's0', count: 0, passage: 'p0' }, options: { telemetry: false } });

const base = (() => {
  const c = fresh();
  return JSON.parse(JSON.stringify(c.snapshot())) as Record<string, unknown>;
})();

const ODD: readonly unknown[] = [
  -1, 0.5, 1e308, -0, 2 ** 53, 2 ** 31, '0', '1', '', 'abc', null, true, [], [0], {}, { a: 1 }, 'x'.repeat(100_000), Number.MAX_SAFE_INTEGER + 1,
];
const FIELDS = ['format', 'version', 'table', 'fingerprint', 'state', 'step', 'signals'];

export interface SnapshotInput {
  readonly generator: string;
  /** What is passed to restore(): a snapshot object or JSON text. */
  readonly value: unknown;
  readonly text: string;
}

export function snapshotInput(r: Rand): SnapshotInput {
  const snap: Record<string, unknown> = structuredClone(base);
  const generator = r.weighted<string>([
    [5, 'fields'],
    [3, 'text'],
    [1, 'deep'],
    [1, 'random'],
  ]);
  if (generator === 'text') {
    const text = mutate(JSON.stringify(snap), r, { chars: '{}[]:,"0123456789-.eE tfn\\u', tokens: ['"state"', '"step"', '"signals"', '"__proto__"', '1e999', '-1', 'null', '{}', '[]', '"constructor"'] }, [], 3);
    return { generator, value: text, text };
  }
  if (generator === 'random') {
    const value = r.pick<unknown>(['', '{}', '[]', 'null', '"x"', 42, null, undefined, [], 'x'.repeat(1000), { format: 'tslc-controller-snapshot' }]);
    return { generator, value, text: String(JSON.stringify(value)) };
  }
  if (generator === 'deep') {
    const depth = r.pick([100, 10_000, 200_000]);
    const text = JSON.stringify(snap).replace('"summary":"s0"', `"summary":${'['.repeat(depth)}${']'.repeat(depth)}`);
    return { generator, value: text, text: `${text.slice(0, 200)}…` };
  }
  const edits = 1 + r.int(3);
  for (let k = 0; k < edits; k++) {
    const op = r.int(5);
    const field = r.pick(FIELDS);
    if (op === 0) delete snap[field];
    else if (op === 1) snap[field] = r.pick(ODD);
    else if (op === 2) snap[r.pick(['extra', '__proto__', 'constructor', 'toString'])] = r.pick(ODD);
    else {
      const signals = typeof snap.signals === 'object' && snap.signals !== null ? (snap.signals as Record<string, unknown>) : (snap.signals = {});
      const name = r.pick(['summary', 'count', 'passage', 'mood', '__proto__', 'constructor', 'hasOwnProperty', 'bogus']);
      if (op === 3) delete signals[name];
      else Object.defineProperty(signals, name, { value: r.pick(ODD), enumerable: true, writable: true, configurable: true });
    }
  }
  const asText = r.chance(0.5);
  const text = JSON.stringify(snap);
  return { generator: 'fields', value: asText ? text : snap, text };
}

function printable(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Restores `input` into a controller that has taken a step; the oracle above. */
export function runSnapshot(input: SnapshotInput, hardMs: number): Result {
  const c = fresh();
  const before = printable(c.snapshot());
  let result: Result = OK;
  const done = interruptible(() => {
    try {
      c.restore(input.value as string);
    } catch (err) {
      if (!(err instanceof SnapshotError)) {
        result = { outcome: 'internal', detail: describeThrown(err) };
        return;
      }
      if (typeof err.field !== 'string' || !err.message.startsWith('restore: ')) result = { outcome: 'internal', detail: `SnapshotError without a field: ${err.message}` };
      else if (printable(c.snapshot()) !== before) result = { outcome: 'internal', detail: `a refused snapshot changed the controller (${err.message})` };
      else result = { outcome: 'error', detail: err.field.split('.')[0] || '(whole)' };
      return;
    }
    // Accepted: the state must be usable, and snapshotting it again must give it back.
    const again = c.snapshot();
    if (!Number.isInteger(c.state) || c.state < 0 || c.state >= table.states.length || !Number.isSafeInteger(c.stepCount) || c.stepCount < 0) {
      result = { outcome: 'internal', detail: `restored an impossible state ${String(c.state)} / step ${String(c.stepCount)}` };
      return;
    }
    // Signal values are the user's data, checked only at the top level: one nested too deeply
    // for JSON.stringify is theirs to keep, so the round trip is checked only when it prints.
    const text = printable(again);
    if (text === undefined) return;
    const other = fresh();
    other.restore(text);
    if (printable(other.snapshot()) !== text) result = { outcome: 'internal', detail: 'a restored snapshot does not round-trip' };
  }, hardMs);
  return done ? result : { outcome: 'hang', detail: `restore still running after ${hardMs} ms` };
}
