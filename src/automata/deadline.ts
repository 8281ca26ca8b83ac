/**
 * Cooperative deadlines for the automata layer. Long translations poll a `Deadline` at cheap
 * points (one state explored, one product formed) so an in-process caller can stop them; a
 * worker thread is no longer the only way to bound their time.
 */

/** Thrown when a translation ran past its deadline or its size cap; callers report `unknown`. */
export class TimeoutError extends Error {
  constructor(readonly reason: 'deadline' | 'size' = 'deadline') {
    super(reason === 'deadline' ? 'LTL translation ran out of time' : 'LTL translation exceeded its size cap');
    this.name = 'TimeoutError';
  }
}

/** Polls the clock every 64 calls: cheap enough for inner loops. */
export function deadlineChecker(deadline: number | undefined, tick?: () => void): () => void {
  if (deadline === undefined && tick === undefined) return () => {};
  let calls = 0;
  return () => {
    tick?.();
    if (deadline !== undefined && (++calls & 63) === 0 && performance.now() > deadline) throw new TimeoutError('deadline');
  };
}
