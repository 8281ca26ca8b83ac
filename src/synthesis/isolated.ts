/**
 * Running one realizability check in a worker thread, so that a hard time limit holds even while
 * the solver is inside a step that does not poll the deadline (e.g. a huge LTL translation). The
 * worker is terminated when the limit plus a grace period passes. Used by `tslc check` and the
 * benchmark; when running from TypeScript sources (tests), checks run in-process instead.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface IsolatedRequest {
  readonly file?: string;
  readonly ltl?: { readonly formula: string; readonly ins: readonly string[]; readonly outs: readonly string[] };
  readonly params?: Readonly<Record<string, number>>;
  readonly timeoutMs: number;
  /** Synthesize (and count controller states) instead of only checking. */
  readonly synthesize: boolean;
}

export type IsolatedResult =
  | { readonly verdict: 'realizable' | 'unrealizable' | 'unknown'; readonly seconds: number; readonly states?: number; readonly reason?: string }
  | { readonly verdict: 'error'; readonly seconds: number; readonly userError?: unknown; readonly message: string };

const workerFile = fileURLToPath(new URL('./worker.js', import.meta.url));

export function canIsolate(): boolean {
  return import.meta.url.endsWith('.js');
}

export async function runIsolated(request: IsolatedRequest): Promise<IsolatedResult> {
  const started = performance.now();
  const worker = new Worker(workerFile, { workerData: request, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
  const hardLimit = request.timeoutMs + 2000;
  return await new Promise<IsolatedResult>((resolve) => {
    let done = false;
    const finish = (r: IsolatedResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(r);
    };
    const timer = setTimeout(
      () => finish({ verdict: 'unknown', reason: 'timeout', seconds: (performance.now() - started) / 1000 }),
      hardLimit,
    );
    worker.on('message', (r: IsolatedResult) => finish(r));
    worker.on('error', (err) =>
      finish({ verdict: 'error', message: err.stack ?? String(err), seconds: (performance.now() - started) / 1000 }),
    );
    worker.on('exit', () =>
      finish({ verdict: 'error', message: 'worker exited without an answer', seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/** The same request, in-process (tests, or when isolation is impossible). */
export async function runInProcess(request: IsolatedRequest): Promise<IsolatedResult> {
  const started = performance.now();
  const { UserError } = await import('../diagnostics/diagnostic.js');
  try {
    const { loadGame, loadLtlGame } = await import('../frontend/load.js');
    const spec = request.ltl
      ? await loadLtlGame(request.ltl.formula, request.ltl.ins, request.ltl.outs)
      : await loadGame(request.file!, { params: request.params });
    const { checkRealizability, synthesize, CONTROLLER_TOO_LARGE } = await import('./index.js');
    const remaining = Math.max(1, request.timeoutMs - (performance.now() - started));
    if (request.synthesize) {
      const r = synthesize(spec, { timeoutMs: remaining });
      if (r.verdict === 'unknown' && r.reason === CONTROLLER_TOO_LARGE)
        return { verdict: 'realizable', seconds: (performance.now() - started) / 1000, reason: r.reason };
      const states = r.verdict === 'realizable' ? r.controller.stateCount : undefined;
      return { verdict: r.verdict, seconds: (performance.now() - started) / 1000, states, reason: r.verdict === 'unknown' ? r.reason : undefined };
    }
    const r = checkRealizability(spec, { timeoutMs: remaining });
    return { verdict: r.verdict, seconds: (performance.now() - started) / 1000, reason: r.verdict === 'unknown' ? r.reason : undefined };
  } catch (err) {
    const seconds = (performance.now() - started) / 1000;
    if (err instanceof UserError) return { verdict: 'error', seconds, userError: err.diagnostics, message: err.message };
    return { verdict: 'error', seconds, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}
