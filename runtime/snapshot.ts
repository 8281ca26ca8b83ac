/**
 * runtime/snapshot — the JSON form of a stopped controller, and its validation on `restore()`.
 *
 * A snapshot usually comes back from storage (a database, a session cookie), so it is checked
 * field by field before anything is restored: the format and version, the table fingerprint,
 * the state index, the step count, and every signal (known names, every cell present, values
 * that JSON can carry). Each error says which field is wrong and why; the controller is left
 * untouched on any error.
 */
import type { SignalData } from './table.js';

/** A stopped controller, as plain JSON. Signals are keyed by their spec names. */
export interface ControllerSnapshot {
  readonly format: 'tslc-controller-snapshot';
  readonly version: 1;
  readonly table: string;
  /** Fingerprint of the table, so a snapshot cannot be restored into a different controller. */
  readonly fingerprint: string;
  readonly state: number;
  readonly step: number;
  readonly signals: Readonly<Record<string, unknown>>;
}

export const SNAPSHOT_FORMAT = 'tslc-controller-snapshot';
export const SNAPSHOT_VERSION = 1;

/** A snapshot `restore()` refuses; `field` names the offending field (`state`, `signals.count`, …). */
export class SnapshotError extends TypeError {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`restore: ${message}`);
    this.name = 'SnapshotError';
    this.field = field;
  }
}

/** What a snapshot must match: the restoring controller's table. */
export interface SnapshotTarget {
  readonly tableName: string;
  readonly fingerprint: string;
  readonly stateCount: number;
  readonly signals: readonly SignalData[];
}

const FIELDS = new Set(['format', 'version', 'table', 'fingerprint', 'state', 'step', 'signals']);

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** A value as messages show it: its type, and a short rendering of scalars. */
function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
      return `the number ${String(value)}`;
    case 'object':
      return 'an object';
    case 'undefined':
      return 'nothing';
    case 'boolean':
      return `the boolean ${String(value)}`;
    default:
      return `a ${typeof value}`;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why JSON cannot carry `value` (checked shallowly: nested values are the user's own data). */
export function jsonValueProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      return `is ${shown(value)}, which JSON cannot carry`;
    case 'number':
      return Number.isFinite(value) ? undefined : `is ${String(value)}, which JSON cannot carry`;
    default:
      return undefined;
  }
}

/** Parse (if text) and validate a snapshot against `target`; throws `SnapshotError`. */
export function validateSnapshot(input: unknown, target: SnapshotTarget): ControllerSnapshot {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (err) {
      throw new SnapshotError('', `the snapshot text is not JSON (${(err as Error).message})`);
    }
  }
  if (!isRecord(value)) throw new SnapshotError('', `a snapshot is an object, not ${shown(value)}`);
  if (value.format !== SNAPSHOT_FORMAT)
    throw new SnapshotError('format', `not a tslc controller snapshot: \`format\` is ${shown(value.format)}, not ${JSON.stringify(SNAPSHOT_FORMAT)}`);
  const version = value.version;
  if (version !== SNAPSHOT_VERSION) {
    const newer = typeof version === 'number' && Number.isInteger(version) && version > SNAPSHOT_VERSION;
    throw new SnapshotError(
      'version',
      newer
        ? `snapshot version ${version} is newer than this runtime reads (version ${SNAPSHOT_VERSION}); update tslc`
        : `\`version\` must be ${SNAPSHOT_VERSION}, not ${shown(version)}`,
    );
  }
  for (const key of Object.keys(value)) if (!FIELDS.has(key)) throw new SnapshotError(key, `unknown field \`${key}\` in a version ${SNAPSHOT_VERSION} snapshot`);
  if (typeof value.table !== 'string') throw new SnapshotError('table', `\`table\` must be the table's name (a string), not ${shown(value.table)}`);
  if (typeof value.fingerprint !== 'string')
    throw new SnapshotError('fingerprint', `\`fingerprint\` must be a string, not ${shown(value.fingerprint)}`);
  if (value.fingerprint !== target.fingerprint || value.table !== target.tableName)
    throw new SnapshotError('fingerprint', `the snapshot was taken from a different controller table (${value.table}, not ${target.tableName} as compiled now)`);

  const state = value.state;
  if (typeof state !== 'number' || !Number.isInteger(state))
    throw new SnapshotError('state', `\`state\` must be a state index (an integer from 0 to ${target.stateCount - 1}), not ${shown(state)}`);
  if (state < 0 || state >= target.stateCount)
    throw new SnapshotError('state', `\`state\` ${state} is out of range: the table has states 0 to ${target.stateCount - 1}`);
  const step = value.step;
  if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0)
    throw new SnapshotError('step', `\`step\` must be the number of steps taken (a non-negative integer), not ${shown(step)}`);

  const signals = value.signals;
  if (!isRecord(signals)) throw new SnapshotError('signals', `\`signals\` must be an object of signal values, not ${shown(signals)}`);
  const known = new Map(target.signals.map((s) => [s.name, s]));
  for (const name of Object.keys(signals)) {
    if (!known.has(name)) throw new SnapshotError(`signals.${name}`, `\`signals\` has ${JSON.stringify(name)}, which is not a signal of ${target.tableName}`);
    const problem = jsonValueProblem(signals[name]);
    if (problem) throw new SnapshotError(`signals.${name}`, `signal ${JSON.stringify(name)} ${problem}`);
  }
  for (const s of target.signals)
    if (s.role === 'cell' && !hasOwn(signals, s.name))
      throw new SnapshotError(`signals.${s.name}`, `\`signals\` lacks the cell ${JSON.stringify(s.name)}; every cell has a value`);
  return value as unknown as ControllerSnapshot;
}
