/**
 * Running realizability checks under a hard time limit, fast for small specs.
 *
 * A request is first tried in this thread: most specs are decided in tens of milliseconds, less
 * than a worker thread takes to start and load the solver. The attempt goes on for the request's
 * whole time (`inProcessMs` can shorten it) while its heap stays below `inProcessHeapMb`; a `vm`
 * timeout interrupts it even in a step that does not poll the clock. A spec whose heap grows past
 * that moves, with the rest of its time, to a worker thread, where the hard limit is terminating
 * the worker and the heap is the worker's own (running out of it is `unknown`, not a crash).
 * Specs of a second or two used to move after 500 ms and start over in the worker: the half
 * second, and the worker's own start, were lost (Coffee_d6376bf9: 1.7 s of CPU instead of 1.0).
 *
 * One worker serves the rest of a batch, one request at a time (once started it is warm, so later
 * requests skip the in-process attempt). A request that passes its limit plus a grace period gets
 * its worker terminated; the next request starts a fresh one. Used by `tslc check` and the
 * benchmark; when running from TypeScript sources (tests), checks run in-process only.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { TheoryName } from '../game/spec.js';
import { setV8Flags } from './v8-flags.js';
import { nowMs } from '../diagnostics/clock.js';

export interface IsolatedRequest {
  readonly file?: string;
  /** The file's text when the caller has it (an in-memory source, or standard input or a pipe, which can be read only once); else the file is read. */
  readonly text?: string;
  readonly ltl?: { readonly formula: string; readonly ins: readonly string[]; readonly outs: readonly string[] };
  readonly params?: Readonly<Record<string, number>>;
  /** TSL imports only from inside this directory (`--import-root`). */
  readonly importRoot?: string;
  /** Read a TSL spec in this theory, overriding its header (`--theory`). */
  readonly theory?: TheoryName | 'none';
  readonly timeoutMs: number;
  /** Synthesize (and count controller states) instead of only checking. */
  readonly synthesize: boolean;
}

/**
 * A verdict, or an error. `warnings` are the front end's (e.g. TSL's precedence warning): plain
 * diagnostic objects, as they cross from a worker by structured clone.
 */
export type IsolatedResult =
  | {
      readonly verdict: 'realizable' | 'unrealizable' | 'unknown';
      readonly seconds: number;
      readonly states?: number;
      readonly reason?: string;
      readonly warnings?: readonly Diagnostic[];
    }
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
  /**
   * How long a request is at most tried in this thread (default: its whole time; 0 = always in a
   * worker). Only while no worker has been started and this thread's heap is below `recycleHeapMb`.
   */
  readonly inProcessMs?: number;
  /**
   * An in-process attempt whose heap grows past this (MB in use) moves to a worker (default
   * 2048, half of this thread's usual limit: running out of it would end the process).
   */
  readonly inProcessHeapMb?: number;
  /**
   * Keep V8's optimizing compiler off until this checker has spent OPTIMIZE_AFTER_MS solving in
   * this thread, all requests together (default false); it is turned on from inside a run that
   * gets there. A short run is over before optimized code pays for its compilation, which also
   * competes for a core; a long run, a long batch or a worker gets it back. The flag is
   * process-wide, so this is for short-lived CLI processes only (`tslc check`).
   */
  readonly deferOptimization?: boolean;
  /**
   * The heap a worker may grow to (default 4096 MB). A spec whose game outgrows it is `unknown
   * (out of memory)`: the limit protects this process, it is not a bug in tslc.
   */
  readonly workerHeapMb?: number;
}

// Loaded with the first worker (2–3 ms that a check answered in-process does not pay).
let workerThreads: typeof import('node:worker_threads') | undefined;
async function loadWorkerThreads(): Promise<void> {
  workerThreads ??= await import('node:worker_threads');
}

// Spelled from the parent folder so that it also resolves from the check bundle, which lives in
// dist/src/cli (src/cli/bundle-runner.ts); from TypeScript sources there is no worker.js.
const workerFile = fileURLToPath(new URL('../synthesis/worker.js', import.meta.url));

/** Whether requests can go to a worker (compiled code; tests running TypeScript sources cannot). */
export function canIsolate(): boolean {
  return existsSync(workerFile);
}

/** The front end a request will load, so a warming worker can load it early. */
export function frontEndOf(request: Pick<IsolatedRequest, 'file' | 'ltl'>): FrontEnd | undefined {
  if (request.ltl) return 'ltl';
  const ext = request.file === undefined ? '' : extname(request.file).toLowerCase();
  return ext === '.tsl' ? 'tsl' : ext === '.tlsf' ? 'tlsf' : undefined;
}

/** With `deferOptimization`, in-process solving time after which TurboFan is turned on. */
export const OPTIMIZE_AFTER_MS = 500;

/** Default of `CheckerOptions.inProcessHeapMb`. */
const IN_PROCESS_HEAP_MB = 2048;

interface Pending {
  readonly resolve: (r: IsolatedResult) => void;
  readonly started: number;
  readonly timer: NodeJS.Timeout;
}

/**
 * Checks requests one after another, each under a hard time limit: first briefly in this thread,
 * then in a reused worker thread. Concurrent `check` calls queue; for parallelism use several
 * checkers. Call `close()` at the end (an idle worker does not keep the process alive, but closing
 * frees it at once).
 */
export class IsolatedChecker {
  #worker: Worker | undefined;
  #pending: Pending | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #frontEnds: readonly FrontEnd[] = [];
  #started = 0;
  /** Set once an in-process attempt was interrupted mid-step: later requests go to a worker. */
  #inProcessSpoiled = false;
  readonly #graceMs: number;
  readonly #recycleHeapMb: number;
  readonly #inProcessMs: number;
  readonly #inProcessHeapMb: number;
  readonly #deferOptimization: boolean;
  readonly #workerHeapMb: number;
  #inProcessSpentMs = 0;
  /** Requests attempted in this thread so far. */
  #attemptsHere = 0;

  constructor(options: CheckerOptions = {}) {
    this.#graceMs = options.graceMs ?? 2000;
    this.#recycleHeapMb = options.recycleHeapMb ?? 1024;
    this.#inProcessMs = options.inProcessMs ?? Infinity;
    this.#inProcessHeapMb = options.inProcessHeapMb ?? IN_PROCESS_HEAP_MB;
    this.#deferOptimization = options.deferOptimization ?? false;
    this.#workerHeapMb = options.workerHeapMb ?? 4096;
  }

  /** How many worker threads this checker has started (none while in-process attempts suffice). */
  get workersStarted(): number {
    return this.#started;
  }

  /**
   * Prepares for `upcoming` requests: the front ends they need are loaded into a worker as soon as
   * one starts, and with in-process attempts off the worker starts now, so its module loading
   * overlaps the caller's own start-up on another core.
   */
  warm(upcoming: ReadonlyArray<Pick<IsolatedRequest, 'file' | 'ltl'>> = []): this {
    this.#frontEnds = [...new Set(upcoming.map(frontEndOf).filter((f): f is FrontEnd => f !== undefined))];
    if (this.#inProcessMs <= 0) void loadWorkerThreads().then(() => this.#ensureWorker());
    return this;
  }

  check(request: IsolatedRequest): Promise<IsolatedResult> {
    const answer = this.#queue.then(() => this.#checkOne(request));
    this.#queue = answer.catch(() => undefined);
    return answer;
  }

  /** Terminates the worker once the queued requests are answered. */
  async close(): Promise<void> {
    await this.#queue;
    if (this.#deferOptimization) setOptimizingCompiler(true);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }

  async #checkOne(request: IsolatedRequest): Promise<IsolatedResult> {
    // The heap is read only once this thread has solved something: a process's first request
    // starts from a heap of a few MB, and reading it costs 0.1–3 ms on its first call.
    const tryHere =
      this.#inProcessMs > 0 &&
      this.#worker === undefined &&
      !this.#inProcessSpoiled &&
      (this.#attemptsHere === 0 || heapUsedMb() < this.#recycleHeapMb);
    if (!tryHere) return this.#send(request);
    const hardLimitMs = Math.min(request.timeoutMs, this.#inProcessMs) + this.#graceMs;
    const optimizeAfterMs = this.#deferOptimization ? Math.max(0, OPTIMIZE_AFTER_MS - this.#inProcessSpentMs) : undefined;
    if (optimizeAfterMs !== undefined) setOptimizingCompiler(optimizeAfterMs === 0);
    const attempt = await runInProcess(request, {
      stopAfterMs: Number.isFinite(this.#inProcessMs) ? this.#inProcessMs : undefined,
      hardLimitMs,
      maxHeapMb: this.#inProcessHeapMb,
      optimizeAfterMs,
    });
    this.#attemptsHere++;
    this.#inProcessSpentMs += attempt.seconds * 1000;
    if (!('handOver' in attempt)) return attempt;
    if (attempt.interrupted) this.#inProcessSpoiled = true;
    // The worker inherits the process's V8 flags: a spec that needs long needs optimized code.
    if (this.#deferOptimization) setOptimizingCompiler(true);
    const remainingMs = request.timeoutMs - attempt.seconds * 1000;
    if (remainingMs <= 0) return { verdict: 'unknown', reason: 'timeout', seconds: attempt.seconds };
    const result = await this.#send({ ...request, timeoutMs: remainingMs });
    // The caller sees one check: its time includes the attempt in this thread.
    return { ...result, seconds: attempt.seconds + result.seconds };
  }

  async #send(request: IsolatedRequest): Promise<IsolatedResult> {
    await loadWorkerThreads();
    const worker = this.#ensureWorker();
    return new Promise<IsolatedResult>((resolve) => {
      const started = nowMs();
      const timer = setTimeout(() => {
        // The hard limit: whatever the solver is doing, the worker goes and a fresh one serves
        // the next request.
        this.#discard();
        this.#settle({ verdict: 'unknown', reason: 'timeout', seconds: (nowMs() - started) / 1000 });
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
    return this.#pending ? (nowMs() - this.#pending.started) / 1000 : 0;
  }

  #discard(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) void worker.terminate();
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const setup: WorkerSetup = { frontEnds: this.#frontEnds };
    const worker = new workerThreads!.Worker(workerFile, { workerData: setup, resourceLimits: { maxOldGenerationSizeMb: this.#workerHeapMb } });
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
      // Running out of the worker's heap is a resource limit the spec reached, like the time
      // limit: the verdict is unknown, not an internal error.
      if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
        this.#settle({ verdict: 'unknown', reason: 'out of memory', seconds: this.#elapsed() });
      else this.#settle({ verdict: 'error', message: err.stack ?? String(err), seconds: this.#elapsed() });
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
  const checker = new IsolatedChecker({ inProcessMs: 0 });
  try {
    return await checker.check(request);
  } finally {
    await checker.close();
  }
}

/**
 * Turns V8's optimizing compiler (TurboFan) on or off for the whole process.
 *
 * Changing a V8 flag changes the flag hash that code caches are checked against, so every Node
 * built-in module loaded afterwards is compiled from source instead of from Node's own code cache
 * (perf_hooks, behind the `performance` global, took 2–6 ms instead of 0.5 that way): a check
 * must load none after the switch. The solver's clock is `process.uptime()` (diagnostics/clock.ts)
 * and the heap is read with `process.memoryUsage()`, neither of which loads a module.
 */
function setOptimizingCompiler(on: boolean): void {
  setV8Flags(on ? '--turbofan' : '--no-turbofan');
}

/** How an in-process run may be cut short, for the checker's first attempt. */
export interface InProcessLimits {
  /** The solver stops itself after this long (`SynthesisOptions.stopAfterMs`; default: never). */
  readonly stopAfterMs?: number;
  /** The solving step is interrupted after this long even where it does not poll the clock. */
  readonly hardLimitMs: number;
  /** The solver stops itself once this thread's heap in use passes this many MB (default: never). */
  readonly maxHeapMb?: number;
  /** Turn V8's optimizing compiler on once the run has taken this long (default: leave it as it is). */
  readonly optimizeAfterMs?: number;
}

/** How often (ms) an in-process run reads its heap size: often enough that it cannot grow by gigabytes in between. */
const HEAP_POLL_MS = 50;

/** The solver's clock poll for an in-process run under `limits` (see `SynthesisOptions.onPoll`). */
function pollFor(limits: InProcessLimits, started: number): (() => boolean) | undefined {
  const { maxHeapMb, optimizeAfterMs } = limits;
  if (maxHeapMb === undefined && optimizeAfterMs === undefined) return undefined;
  let optimizeAt = optimizeAfterMs === undefined ? Infinity : started + optimizeAfterMs;
  let heapAt = started + HEAP_POLL_MS;
  return () => {
    const now = nowMs();
    if (now >= optimizeAt) {
      optimizeAt = Infinity;
      setOptimizingCompiler(true);
    }
    if (maxHeapMb === undefined || now < heapAt) return false;
    heapAt = now + HEAP_POLL_MS;
    return heapUsedMb() > maxHeapMb;
  };
}

/**
 * This thread's heap in use, in MB: the checker's and the worker's one measure (a worker's answer
 * is compared against `recycleHeapMb` like this thread's own). process.memoryUsage(), not node:v8's
 * getHeapStatistics: loading node:v8 costs every check 1–2 ms (v8-flags.ts), and after the
 * TurboFan switch more (built-ins then compile from source).
 */
export const heapUsedMb = (): number => process.memoryUsage().heapUsed / 2 ** 20;

/** An in-process attempt that did not finish in its limits: the request should go elsewhere. */
export interface HandOver {
  readonly handOver: true;
  readonly seconds: number;
  /** The solver was interrupted mid-step (by the hard limit), not stopped at a poll. */
  readonly interrupted: boolean;
}

const SOLVE_HOOK = Symbol.for('tslc.isolated.solve');
type HookHost = { [SOLVE_HOOK]?: () => void };
let interruptible: import('node:vm').Script | undefined;

/**
 * Runs `solve` synchronously, interrupted after `ms` even inside a step that never polls the
 * clock: a `vm` timeout terminates whatever JavaScript runs under it. Returns false when it was
 * interrupted. The solver's module-level caches stay consistent under interruption: each memo
 * entry is stored only after its value is complete (an id counter may skip a number).
 */
async function runWithHardLimit(solve: () => void, ms: number): Promise<boolean> {
  const vm = await import('node:vm');
  interruptible ??= new vm.Script('globalThis[Symbol.for("tslc.isolated.solve")]()');
  const host = globalThis as HookHost;
  host[SOLVE_HOOK] = solve;
  try {
    interruptible.runInThisContext({ timeout: Math.max(1, Math.round(ms)) });
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return false;
    throw err;
  } finally {
    delete host[SOLVE_HOOK];
  }
}

/**
 * The same request, in-process (the worker's side, tests, or when isolation is impossible). With
 * `limits`, a run that needs longer than they allow comes back as a `HandOver`.
 */
export async function runInProcess(request: IsolatedRequest): Promise<IsolatedResult>;
export async function runInProcess(request: IsolatedRequest, limits: InProcessLimits): Promise<IsolatedResult | HandOver>;
export async function runInProcess(request: IsolatedRequest, limits?: InProcessLimits): Promise<IsolatedResult | HandOver> {
  const started = nowMs();
  const seconds = () => (nowMs() - started) / 1000;
  const { UserError } = await import('../diagnostics/diagnostic.js');
  const { loadGame, loadLtlGame, FrontEndTimeout } = await import('../frontend/load.js');
  try {
    // The front end shares the request's time: a TLSF file can expand for longer than that.
    const deadline = started + request.timeoutMs;
    const warnings: Diagnostic[] = [];
    const spec = request.ltl
      ? await loadLtlGame(request.ltl.formula, request.ltl.ins, request.ltl.outs)
      : await loadGame(request.file!, {
          params: request.params,
          importRoot: request.importRoot,
          text: request.text,
          theory: request.theory,
          onWarning: (d) => warnings.push(d),
          deadline,
        });
    const { checkRealizability, synthesizeController, CONTROLLER_TOO_LARGE, STOPPED_EARLY } = await import('./index.js');
    const remaining = Math.max(1, request.timeoutMs - (nowMs() - started));
    const options = { timeoutMs: remaining, stopAfterMs: limits?.stopAfterMs, onPoll: limits && pollFor(limits, started) };
    let result: IsolatedResult | undefined;
    const solve = (): void => {
      if (request.synthesize) {
        // States are reported for realizable specs only: no counterstrategy is built.
        const r = synthesizeController(spec, options);
        if (r.verdict === 'unknown' && r.reason === CONTROLLER_TOO_LARGE) result = { verdict: 'realizable', seconds: seconds(), reason: r.reason };
        else {
          const states = r.verdict === 'realizable' ? r.controller.stateCount : undefined;
          result = { verdict: r.verdict, seconds: seconds(), states, reason: r.verdict === 'unknown' ? r.reason : undefined };
        }
      } else {
        const r = checkRealizability(spec, options);
        result = { verdict: r.verdict, seconds: seconds(), reason: r.verdict === 'unknown' ? r.reason : undefined };
      }
    };
    const withWarnings = (r: IsolatedResult): IsolatedResult => (warnings.length > 0 && r.verdict !== 'error' ? { ...r, warnings } : r);
    if (!limits) {
      solve();
      return withWarnings(result!);
    }
    if (!(await runWithHardLimit(solve, limits.hardLimitMs - (nowMs() - started))))
      return { handOver: true, seconds: seconds(), interrupted: true };
    if (result!.verdict === 'unknown' && result!.reason === STOPPED_EARLY) return { handOver: true, seconds: seconds(), interrupted: false };
    return withWarnings(result!);
  } catch (err) {
    if (err instanceof FrontEndTimeout) return { verdict: 'unknown', reason: 'timeout', seconds: seconds() };
    if (err instanceof UserError) return { verdict: 'error', seconds: seconds(), userError: err.diagnostics, message: err.message };
    return { verdict: 'error', seconds: seconds(), message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
}
