/**
 * Running realizability checks in a worker thread, so that a hard time limit holds even while the
 * solver is inside a step that does not poll the deadline (e.g. a huge LTL translation).
 *
 * One worker serves a whole batch, one request at a time: starting a worker and loading the solver
 * into it costs more than checking a small spec, so `IsolatedChecker` keeps it. A request that
 * passes its limit plus a grace period gets its worker terminated (that is the hard limit); the
 * next request starts a fresh one. `warm()` starts the worker before the first request, so its
 * module loading overlaps the caller's own start-up on another core. Used by `tslc check` and the
 * benchmark; when running from TypeScript sources (tests), checks run in-process instead.
 */
import { extname } from 'node:path';
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

/** What the worker is told at start: which front ends to load before the first request arrives. */
export interface WorkerSetup {
  readonly frontEnds: readonly FrontEnd[];
}
export type FrontEnd = 'tsl' | 'tlsf' | 'ltl';

/** The worker's answer to one request. */
export interface WorkerAnswer {
  readonly result: IsolatedResult;
  /** Heap in use after the request, so the checker can replace a worker that has grown large. */
  readonly heapMb: number;
}

export interface CheckerOptions {
  /** Time a request may run past its own limit before its worker is terminated (default 2000). */
  readonly graceMs?: number;
  /**
   * A worker whose heap exceeds this after a request is replaced before the next one (default
   * 1024): the solver's caches (hash-consed formulas) only grow, and a long batch should not
   * slow down in garbage collection.
   */
  readonly recycleHeapMb?: number;
}

const workerFile = fileURLToPath(new URL('./worker.js', import.meta.url));

export function canIsolate(): boolean {
  return import.meta.url.endsWith('.js');
}

/** The front end a request will load, so a warming worker can load it early. */
export function frontEndOf(request: Pick<IsolatedRequest, 'file' | 'ltl'>): FrontEnd | undefined {
  if (request.ltl) return 'ltl';
  const ext = request.file === undefined ? '' : extname(request.file).toLowerCase();
  return ext === '.tsl' ? 'tsl' : ext === '.tlsf' ? 'tlsf' : undefined;
}

interface Pending {
  readonly resolve: (r: IsolatedResult) => void;
  readonly started: number;
  readonly timer: NodeJS.Timeout;
}

/**
 * Checks requests one after another in a reused worker thread, each under a hard time limit.
 * Concurrent `check` calls queue; for parallelism use several checkers. Call `close()` at the end
 * (an idle worker does not keep the process alive, but closing frees it at once).
 */
export class IsolatedChecker {
  #worker: Worker | undefined;
  #pending: Pending | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #frontEnds: readonly FrontEnd[] = [];
  #started = 0;
  readonly #graceMs: number;
  readonly #recycleHeapMb: number;

  constructor(options: CheckerOptions = {}) {
    this.#graceMs = options.graceMs ?? 2000;
    this.#recycleHeapMb = options.recycleHeapMb ?? 1024;
  }

  /** How many worker threads this checker has started (one, unless requests hit their limit). */
  get workersStarted(): number {
    return this.#started;
  }

  /** Starts the worker now, loading the solver and the front ends `upcoming` requests need. */
  warm(upcoming: ReadonlyArray<Pick<IsolatedRequest, 'file' | 'ltl'>> = []): this {
    this.#frontEnds = [...new Set(upcoming.map(frontEndOf).filter((f): f is FrontEnd => f !== undefined))];
    this.#ensureWorker();
    return this;
  }

  check(request: IsolatedRequest): Promise<IsolatedResult> {
    const answer = this.#queue.then(() => this.#send(request));
    this.#queue = answer.catch(() => undefined);
    return answer;
  }

  /** Terminates the worker once the queued requests are answered. */
  async close(): Promise<void> {
    await this.#queue;
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  #send(request: IsolatedRequest): Promise<IsolatedResult> {
    const worker = this.#ensureWorker();
    return new Promise<IsolatedResult>((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        // The hard limit: whatever the solver is doing, the worker goes and a fresh one serves
        // the next request.
        this.#discard();
        this.#settle({ verdict: 'unknown', reason: 'timeout', seconds: (performance.now() - started) / 1000 });
      }, request.timeoutMs + this.#graceMs);
      this.#pending = { resolve, started, timer };
      // Only a worker with a request in flight keeps the process alive.
      worker.ref();
      worker.postMessage(request);
    });
  }

  #settle(result: IsolatedResult): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    this.#worker?.unref();
    pending.resolve(result);
  }

  #elapsed(): number {
    return this.#pending ? (performance.now() - this.#pending.started) / 1000 : 0;
  }

  #discard(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) void worker.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const setup: WorkerSetup = { frontEnds: this.#frontEnds };
    const worker = new Worker(workerFile, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
    this.#started++;
    worker.unref();
    // Events of a worker that was already replaced (terminated on timeout) are stale: ignore them.
    worker.on('message', (answer: WorkerAnswer) => {
      if (this.#worker !== worker) return;
      if (answer.heapMb > this.#recycleHeapMb) this.#discard();
      this.#settle(answer.result);
    });
    worker.on('error', (err) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#settle({ verdict: 'error', message: err.stack ?? String(err), seconds: this.#elapsed() });
    });
    worker.on('exit', () => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#settle({ verdict: 'error', message: 'worker exited without an answer', seconds: this.#elapsed() });
    });
    this.#worker = worker;
    return worker;
  }
}

/** One request in a worker of its own (terminated afterwards). */
export async function runIsolated(request: IsolatedRequest): Promise<IsolatedResult> {
  const checker = new IsolatedChecker();
  try {
    return await checker.check(request);
  } finally {
    await checker.close();
  }
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
    const { checkRealizability, synthesizeController, CONTROLLER_TOO_LARGE } = await import('./index.js');
    const remaining = Math.max(1, request.timeoutMs - (performance.now() - started));
    if (request.synthesize) {
      // States are reported for realizable specs only: no counterstrategy is built.
      const r = synthesizeController(spec, { timeoutMs: remaining });
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
