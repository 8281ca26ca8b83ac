/**
 * Cooperative deadlines for the automata layer. Long translations poll a `Deadline` at cheap
 * points (one state explored, one product formed) so an in-process caller can stop them; a
 * worker thread is no longer the only way to bound their time.
 */
import { nowMs } from '../diagnostics/clock.js';

/**
 * Thrown when a translation ran past its deadline, its size cap or its work budget (a count of
 * steps, see `Tableau`); callers report `unknown`, or (size, work) try another construction.
 */
export class TimeoutError extends Error {
  constructor(readonly reason: 'deadline' | 'size' | 'work' = 'deadline') {
    super(
      reason === 'deadline'
        ? 'LTL translation ran out of time'
        : reason === 'size'
          ? 'LTL translation exceeded its size cap'
          : 'LTL translation exceeded its work budget',
    );
    this.name = 'TimeoutError';
  }
}

/**
 * Deadlines are `nowMs()` times (diagnostics/clock.ts). Past this (31 years of uptime in milliseconds) a
 * value can only be a `Date.now()` time, which as a `nowMs()` time would lie decades
 * ahead and never stop anything: it is read as the wall-clock time it names.
 */
const EPOCH_MS = 1e12;

/** Polls the clock every 64 calls: cheap enough for inner loops. */
export function deadlineChecker(deadline: number | undefined, tick?: () => void): () => void {
  if (deadline === undefined && tick === undefined) return () => {};
  const limit = deadline !== undefined && deadline > EPOCH_MS ? deadline - Date.now() + nowMs() : deadline;
  let calls = 0;
  return () => {
    tick?.();
    if (limit !== undefined && (++calls & 63) === 0 && nowMs() > limit) throw new TimeoutError('deadline');
  };
}
