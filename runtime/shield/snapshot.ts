/**
 * Shield snapshots: a shield's session as plain JSON, so a restarted process (the MCP shield proxy,
 * a server holding one shield per conversation) resumes where it stopped.
 *
 * The envelope is the runtime's snapshot format (see `ControllerSnapshot` in runtime/controller.ts):
 * `format`, `version`, `table` (here: the rule set's name), a `fingerprint` so a snapshot is never
 * restored under different rules, and `step` (events recorded). What a shield remembers is its
 * trace, so that is what is stored; restoring replays it through the rules' automata. Automaton
 * state numbers are not stored: they are built lazily and differ between processes.
 */
import type { Shield } from './shield.js';

export interface ShieldSnapshot {
  readonly format: 'tslc-shield-snapshot';
  readonly version: 1;
  /** The rule set's name (e.g. the rules file), for messages. */
  readonly table: string;
  /** Fingerprint of the rules (names and formulas). */
  readonly fingerprint: string;
  /** Number of recorded events. */
  readonly step: number;
  /** The session's name where the owner keeps one (e.g. the MCP proxy's log key). */
  readonly session?: string;
  /** The recorded events, oldest first, each a sorted list of propositions. */
  readonly trace: readonly (readonly string[])[];
}

/** A stable fingerprint of a shield's rules: names and formulas, in order. */
export function shieldFingerprint(shield: Shield): string {
  const text = JSON.stringify(shield.rules.map((r) => [r.name, r.ltl]));
  // FNV-1a, as the controller's table fingerprint: no crypto module, so this runs anywhere.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `shield:${text.length}:${hash.toString(16).padStart(8, '0')}`;
}

export function snapshotShield(shield: Shield, table = 'shield', session?: string): ShieldSnapshot {
  const trace = shield.trace.map((letter) => [...letter]);
  return {
    format: 'tslc-shield-snapshot',
    version: 1,
    table,
    fingerprint: shieldFingerprint(shield),
    step: trace.length,
    ...(session !== undefined ? { session } : {}),
    trace,
  };
}

/** Why a snapshot cannot be restored (wrong format, other rules, malformed trace). */
export class ShieldSnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShieldSnapshotError';
  }
}

/**
 * Replay a snapshot into a fresh shield built from the same rules, and return it (e.g. for its
 * `session`). Throws `ShieldSnapshotError` when the snapshot is not one, was taken under other
 * rules, or the shield has already recorded events.
 */
export function restoreShield(shield: Shield, input: ShieldSnapshot | string): ShieldSnapshot {
  let data: unknown;
  try {
    data = typeof input === 'string' ? JSON.parse(input) : input;
  } catch (err) {
    throw new ShieldSnapshotError(`not a tslc shield snapshot: ${(err as Error).message}`);
  }
  const s = data as Partial<ShieldSnapshot> | null;
  if (s === null || typeof s !== 'object' || s.format !== 'tslc-shield-snapshot' || s.version !== 1) {
    throw new ShieldSnapshotError('not a tslc shield snapshot (version 1)');
  }
  const fingerprint = shieldFingerprint(shield);
  if (s.fingerprint !== fingerprint) {
    throw new ShieldSnapshotError(`the snapshot was taken under different rules (${String(s.table)}: ${String(s.fingerprint)}, now ${fingerprint})`);
  }
  const trace = s.trace;
  if (!Array.isArray(trace) || !trace.every((l) => Array.isArray(l) && l.every((p) => typeof p === 'string'))) {
    throw new ShieldSnapshotError('the snapshot\'s trace must be a list of events, each a list of proposition names');
  }
  if (shield.trace.length > 0) throw new ShieldSnapshotError('restore into a fresh shield (this one has already recorded events)');
  for (const letter of trace as string[][]) shield.observe(letter);
  return s as ShieldSnapshot;
}
