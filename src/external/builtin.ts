/**
 * The builtin engine as a `BuiltinBackend` for `solve` and `crossCheck`, so commands need not
 * adapt the synthesis API themselves. The engine is synchronous: in `auto` mode it runs while the
 * external tool's process works in parallel, and its own timeout bounds it.
 */
import type { GameSpec } from '../game/spec.js';
import { checkRealizability, synthesize } from '../synthesis/index.js';
import type { ExternalMode } from './run.js';
import type { BackendVerdict, BuiltinBackend } from './solve.js';

export function builtinBackend(spec: GameSpec, mode: ExternalMode, options: { timeoutMs?: number } = {}): BuiltinBackend {
  return async (signal) => {
    // Let an already-running external tool start before the synchronous engine takes the thread.
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return { status: 'unknown', reason: 'cancelled' };
    if (mode === 'realizability') {
      const r = checkRealizability(spec, { timeoutMs: options.timeoutMs });
      return r.verdict === 'unknown' ? { status: 'unknown', reason: `builtin engine: ${r.reason}` } : { status: r.verdict };
    }
    const r = synthesize(spec, { timeoutMs: options.timeoutMs });
    const v: BackendVerdict =
      r.verdict === 'realizable'
        ? { status: 'realizable', machine: r.controller }
        : r.verdict === 'unrealizable'
          ? { status: 'unrealizable' }
          : { status: 'unknown', reason: `builtin engine: ${r.reason}` };
    return v;
  };
}
