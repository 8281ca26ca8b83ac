/**
 * runtime/controller — steps a synthesized controller table against the user's implementations.
 *
 * One `step` is one turn of the agent: walk the current state's decision diagram asking only the
 * predicates it needs, call the functions of the chosen updates (all reading the old signal
 * values), then commit the new signals and state together. Everything a step computes lives in
 * locals until the commit, so a failing call leaves the controller exactly as it was.
 *
 * User calls may be synchronous or return promises; synchronous answers are used without awaiting
 * so the runtime's own cost per step stays in the low microseconds.
 */
import { builtinFunctions, isBuiltinName, theoryFunction } from './builtins.js';
import { explainStep, type Explanation, predicatesOf } from './decision.js';
import type { ControllerMetadata, ControllerTable, DecisionNode, TermData } from './table.js';
import { createTelemetry, SPAN_STATUS_ERROR, type SpanLike, type Telemetry, type TracerLike } from './telemetry.js';
import type { ChosenUpdate, PredicateAnswer, StepRecord } from './trace.js';
import { type ControllerSnapshot, jsonValueProblem, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError, validateSnapshot } from './snapshot.js';

export { SnapshotError, type ControllerSnapshot } from './snapshot.js';

export interface ControllerOptions {
  /**
   * Evaluate every predicate the current state may need at once, and the chosen updates'
   * functions at once. Fewer round trips of latency, possibly more predicate calls.
   */
  readonly parallel?: boolean | undefined;
  /** Extra attempts per user call after a throw, rejection or timeout (default 0). */
  readonly retries?: number | undefined;
  /** Per-attempt time limit for calls that return a promise, in milliseconds (default none). */
  readonly timeoutMs?: number | undefined;
  /** Called after every committed step. Errors it throws are reported, never undo the step. */
  readonly onStep?: ((record: StepRecord) => void) | undefined;
  /** Called when a step fails (nothing was changed). */
  readonly onError?: ((error: StepError) => void) | undefined;
  /** How many recent step records `controller.trace` keeps (default 1000; 0 keeps none). */
  readonly traceLimit?: number | undefined;
  /** Put input values and the signals after each step into step records (default false). */
  readonly recordSignals?: boolean | undefined;
  /** OpenTelemetry: 'auto' (default) uses `@opentelemetry/api` if installed; or a tracer; or false. */
  readonly telemetry?: boolean | 'auto' | TracerLike | undefined;
}

/**
 * How the spec's names map onto the implementation object and the signals object, as
 * `[spec name, property name]` pairs. Pairs rather than an object literal because a spec name
 * like `__proto__` as a literal key would set the object's prototype instead of a property.
 */
export interface ImplementationBindings {
  /** Spec predicate/function name → property name on the implementation object. */
  readonly functions: readonly (readonly [string, string])[];
  /** Spec signal name → property name on the signals object. */
  readonly signals: readonly (readonly [string, string])[];
}

export interface ControllerDefinition {
  readonly table: ControllerTable;
  readonly metadata?: ControllerMetadata | undefined;
  readonly bindings?: ImplementationBindings | undefined;
  /** The user's predicates and functions; missing built-ins (`add`, `lt`, …) fall back to defaults. */
  readonly impl: object;
  /** Initial values of the cells and outputs (inputs may be given here or to the first step). */
  readonly initialSignals: object;
  readonly options?: ControllerOptions | undefined;
}

export interface FailedCall {
  readonly kind: 'predicate' | 'function' | 'input';
  /** The spec name of the called predicate/function, or of the missing input signal. */
  readonly name: string;
  /** The predicate term or update being evaluated, as written in the spec. */
  readonly site: string;
  /**
   * Attempts in all, counted through every layer: each call the controller made counts the
   * attempts its error reports (an `LlmError` after the LLM layer's retries says how many), else 1.
   */
  readonly attempts: number;
  /** How many times the controller called the function (1 + its own `retries` used). */
  readonly calls: number;
}

/** A step failed; the controller's state and signals are unchanged. */
export class StepError extends Error {
  readonly call: FailedCall;
  readonly state: number;
  readonly step: number;
  constructor(message: string, call: FailedCall, state: number, step: number, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'StepError';
    this.call = call;
    this.state = state;
    this.step = step;
  }
}

export interface Controller<S extends object, I extends object> {
  readonly table: ControllerTable;
  readonly metadata: ControllerMetadata | undefined;
  /** The current state (index into `table.states`). */
  readonly state: number;
  /** Number of committed steps. */
  readonly stepCount: number;
  /** Current signal values (a copy). */
  readonly signals: Readonly<S>;
  /** Recent step records, oldest first (see `traceLimit`). */
  readonly trace: readonly StepRecord[];
  /** Perform one turn; steps are queued, never interleaved. Rejects with `StepError`. */
  step(inputs?: Partial<I>): Promise<StepRecord>;
  /** The asked predicates that decided a step's updates. */
  explain(record: StepRecord): Explanation;
  snapshot(): ControllerSnapshot;
  /** Resume from a snapshot (object or its JSON text). Not allowed while a step is running. */
  restore(snapshot: ControllerSnapshot | string): void;
}

type UserFunction = (...args: unknown[]) => unknown;

type CompiledTerm =
  | { readonly kind: 'signal'; readonly slot: number; readonly name: string; readonly isInput: boolean }
  | { readonly kind: 'literal'; readonly value: unknown }
  | CompiledCall;

interface CompiledCall {
  readonly kind: 'call';
  readonly fn: string;
  readonly impl: UserFunction;
  readonly args: readonly CompiledTerm[];
}

interface Site {
  readonly kind: 'predicate' | 'function';
  readonly text: string;
}

interface CompiledPredicate {
  readonly index: number;
  readonly proposition: string;
  readonly text: string;
  readonly term: CompiledTerm;
  /** The predicate function's name, or the signal's for a boolean signal test. */
  readonly name: string;
  readonly site: Site;
}

interface CompiledUpdate {
  readonly index: number;
  readonly proposition: string;
  readonly signal: string;
  readonly slot: number;
  readonly text: string;
  readonly isSelfUpdate: boolean;
  readonly term: CompiledTerm;
  readonly site: Site;
}

interface Decided {
  readonly asked: PredicateAnswer[];
  readonly speculative: PredicateAnswer[] | undefined;
  readonly leaf: Extract<DecisionNode, { kind: 'leaf' }>;
}

interface ComputedUpdate {
  readonly update: CompiledUpdate;
  readonly value: unknown;
  readonly ms: number;
}

/** Per-step context: which step is running (for errors) and its telemetry span. */
interface StepContext {
  readonly state: number;
  readonly step: number;
  readonly span: SpanLike | undefined;
}

const now: () => number = () => performance.now();

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** FNV-1a over the table's JSON: cheap, stable, and enough to tell tables apart. */
export function tableFingerprint(table: ControllerTable): string {
  const text = JSON.stringify(table);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${table.name}:${text.length}:${hash.toString(16).padStart(8, '0')}`;
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

class TableController<S extends object, I extends object> implements Controller<S, I> {
  readonly table: ControllerTable;
  readonly metadata: ControllerMetadata | undefined;
  private readonly impl: object;
  private readonly options: ControllerOptions;
  private readonly fingerprint: string;
  private readonly signalKeys: readonly string[];
  private readonly slotByName = new Map<string, number>();
  private readonly inputSlotByKey = new Map<string, number>();
  private readonly predicates: readonly CompiledPredicate[];
  private readonly updates: readonly CompiledUpdate[];
  /** Per state: every predicate its diagram may test, for parallel mode. */
  private readonly statePredicates: readonly (readonly number[])[];
  private readonly telemetry: { current: Telemetry };
  private readonly records: StepRecord[] = [];
  private values: unknown[];
  private currentState: number;
  private steps = 0;
  /** The last queued step while steps are in flight, else undefined. */
  private tail: Promise<void> | undefined;
  private running = false;

  constructor(definition: ControllerDefinition) {
    const { table, impl, initialSignals } = definition;
    this.table = table;
    this.metadata = definition.metadata;
    this.impl = impl;
    this.options = definition.options ?? {};
    this.fingerprint = tableFingerprint(table);
    const signalBinding = new Map(definition.bindings?.signals ?? []);
    const functionBinding = new Map(definition.bindings?.functions ?? []);
    this.signalKeys = table.signals.map((s) => signalBinding.get(s.name) ?? s.name);
    table.signals.forEach((s, slot) => {
      this.slotByName.set(s.name, slot);
      if (s.role === 'input') this.inputSlotByKey.set(this.signalKeys[slot], slot);
    });

    const resolved = new Map<string, UserFunction>();
    const resolve = (fn: string): UserFunction => {
      const cached = resolved.get(fn);
      if (cached) return cached;
      // Under a theory its built-ins mean exactly what the synthesis assumed: never replaced.
      const fixed = theoryFunction(table.theory, fn);
      if (fixed) {
        resolved.set(fn, fixed as UserFunction);
        return fixed as UserFunction;
      }
      const key = functionBinding.get(fn) ?? fn;
      const candidate = (impl as Record<string, unknown>)[key];
      // Never pick up Object.prototype members (`constructor`, `toString`) as implementations.
      const own = typeof candidate === 'function' && candidate !== (Object.prototype as Record<string, unknown>)[key];
      let found: UserFunction | undefined = own ? (candidate as UserFunction) : undefined;
      if (!found && isBuiltinName(fn)) found = builtinFunctions[fn] as UserFunction;
      if (!found) throw new TypeError(`controller ${table.name}: the implementation has no function \`${key}\` (spec name \`${fn}\`)`);
      resolved.set(fn, found);
      return found;
    };
    const compile = (term: TermData): CompiledTerm => {
      switch (term.kind) {
        case 'signal': {
          const slot = this.slotByName.get(term.name);
          if (slot === undefined) throw new TypeError(`controller ${table.name}: unknown signal \`${term.name}\` in the table`);
          return { kind: 'signal', slot, name: term.name, isInput: table.signals[slot].role === 'input' };
        }
        case 'literal':
          return { kind: 'literal', value: term.value };
        case 'call':
          return { kind: 'call', fn: term.fn, impl: resolve(term.fn), args: term.args.map(compile) };
      }
    };
    this.predicates = table.predicates.map((p) => ({
      index: p.index,
      proposition: p.proposition,
      text: p.text,
      // A boolean signal tested directly reads the signal; anything else calls the predicate.
      term: p.signal !== undefined ? compile({ kind: 'signal', name: p.signal }) : compile({ kind: 'call', fn: p.fn, args: p.args }),
      name: p.signal ?? p.fn,
      site: { kind: 'predicate', text: p.text },
    }));
    this.updates = table.updates.map((u) => {
      const slot = this.slotByName.get(u.signal);
      if (slot === undefined) throw new TypeError(`controller ${table.name}: update of unknown signal \`${u.signal}\``);
      return {
        index: u.index,
        proposition: u.proposition,
        signal: u.signal,
        slot,
        text: u.text,
        isSelfUpdate: u.isSelfUpdate,
        // Self-updates are never evaluated, so their term needs no implementation.
        term: u.isSelfUpdate ? { kind: 'literal', value: undefined } : compile(u.term),
        site: { kind: 'function', text: u.text },
      };
    });
    this.statePredicates = table.states.map((s) => predicatesOf(s.decision));

    this.values = table.signals.map((s, slot) => {
      const key = this.signalKeys[slot];
      const given = hasOwn(initialSignals, key);
      if (!given && s.role === 'cell')
        throw new TypeError(`controller ${table.name}: initialSignals lacks the cell \`${key}\``);
      return given ? (initialSignals as Record<string, unknown>)[key] : undefined;
    });
    this.currentState = table.initialState;
    this.telemetry = createTelemetry(this.options.telemetry ?? 'auto');
  }

  get state(): number {
    return this.currentState;
  }
  get stepCount(): number {
    return this.steps;
  }
  get signals(): Readonly<S> {
    return this.signalsObject(this.values) as S;
  }
  get trace(): readonly StepRecord[] {
    return this.records.slice();
  }

  private signalsObject(values: readonly unknown[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.signalKeys.forEach((key, slot) => {
      if (values[slot] !== undefined) Object.defineProperty(out, key, { value: values[slot], enumerable: true, writable: true });
    });
    return Object.freeze(out);
  }

  step(inputs?: Partial<I>): Promise<StepRecord> {
    if (this.tail === undefined) {
      // Nothing in flight: run now; a step whose calls are all synchronous finishes in this call.
      let result: StepRecord | Promise<StepRecord>;
      try {
        result = this.runStep(inputs);
      } catch (err) {
        return Promise.reject(err);
      }
      return isPromiseLike(result) ? this.track(result) : Promise.resolve(result);
    }
    return this.track(this.tail.then(() => this.runStep(inputs)));
  }

  /** Steps are serialized: the next one starts after this one settles. */
  private track(run: Promise<StepRecord>): Promise<StepRecord> {
    const tail: Promise<void> = run.then(
      () => this.untrack(tail),
      () => this.untrack(tail),
    );
    this.tail = tail;
    return run;
  }

  private untrack(tail: Promise<void>): void {
    if (this.tail === tail) this.tail = undefined;
  }

  /** One step; synchronous as long as every user call is, a promise from the first async call on. */
  private runStep(inputs: Partial<I> | undefined): StepRecord | Promise<StepRecord> {
    this.running = true;
    const startedAt = Date.now();
    const t0 = now();
    const context: StepContext = {
      state: this.currentState,
      step: this.steps,
      span: this.telemetry.current.startStep({ 'tslc.controller': this.table.name, 'tslc.state': this.currentState, 'tslc.step': this.steps }),
    };
    const fail = (err: unknown): never => {
      this.running = false;
      const failure = err instanceof StepError ? err : this.internalFailure(err, context);
      this.finishSpan(context.span, failure, undefined);
      this.options.onError?.(failure);
      throw failure;
    };
    try {
      const values = this.values.slice();
      if (inputs) this.applyInputs(inputs, values, context);
      const decision = this.table.states[this.currentState].decision;
      const afterDecision = (decided: Decided): StepRecord | Promise<StepRecord> => {
        const updates = this.computeUpdates(decided.leaf.updates, values, context);
        return isPromiseLike(updates)
          ? updates.then((computed) => this.commit(decided, computed, values, context, startedAt, t0, inputs))
          : this.commit(decided, updates, values, context, startedAt, t0, inputs);
      };
      const decided = this.decide(decision, values, context);
      const result = isPromiseLike(decided) ? decided.then(afterDecision) : afterDecision(decided);
      return isPromiseLike(result) ? Promise.resolve(result).catch(fail) : result;
    } catch (err) {
      return fail(err);
    }
  }

  /** Commit: from here on nothing can fail, so state and signals change together or not at all. */
  private commit(
    decided: Decided,
    updates: readonly ComputedUpdate[],
    values: readonly unknown[],
    context: StepContext,
    startedAt: number,
    t0: number,
    inputs: Partial<I> | undefined,
  ): StepRecord {
    const next = values.slice();
    for (const { update, value } of updates) if (!update.isSelfUpdate) next[update.slot] = value;
    const stateBefore = this.currentState;
    this.values = next;
    this.currentState = decided.leaf.next;
    const record = this.makeRecord(context.step, stateBefore, decided.leaf, decided.asked, decided.speculative, updates, startedAt, t0, inputs, next);
    this.steps++;
    this.running = false;
    this.remember(record);
    this.finishSpan(context.span, undefined, record);
    return record;
  }

  private applyInputs(inputs: Partial<I>, values: unknown[], context: StepContext): void {
    for (const key of Object.keys(inputs)) {
      const slot = this.inputSlotByKey.get(key);
      if (slot === undefined)
        throw new StepError(`step ${context.step}: \`${key}\` is not an input signal of ${this.table.name}`, { kind: 'input', name: key, site: key, attempts: 0, calls: 0 }, context.state, context.step);
      values[slot] = (inputs as Record<string, unknown>)[key];
    }
  }

  /** Walk the diagram, asking one predicate at a time; continues asynchronously only if an answer is a promise. */
  private decide(root: DecisionNode, values: readonly unknown[], context: StepContext): Decided | Promise<Decided> {
    if (this.options.parallel) return this.decideInParallel(root, values, context);
    const asked: PredicateAnswer[] = [];
    let node = root;
    while (node.kind === 'test') {
      const answer = this.ask(node.predicate, values, context);
      if (isPromiseLike(answer)) return this.decideAsync(node, answer, asked, values, context);
      asked.push(answer);
      node = answer.value ? node.whenTrue : node.whenFalse;
    }
    return { asked, speculative: undefined, leaf: node };
  }

  private async decideAsync(
    at: Extract<DecisionNode, { kind: 'test' }>,
    pending: Promise<PredicateAnswer>,
    asked: PredicateAnswer[],
    values: readonly unknown[],
    context: StepContext,
  ): Promise<Decided> {
    let answer = await pending;
    let node: DecisionNode = at;
    for (;;) {
      asked.push(answer);
      node = answer.value ? (node as Extract<DecisionNode, { kind: 'test' }>).whenTrue : (node as Extract<DecisionNode, { kind: 'test' }>).whenFalse;
      if (node.kind === 'leaf') return { asked, speculative: undefined, leaf: node };
      const next = this.ask(node.predicate, values, context);
      answer = isPromiseLike(next) ? await next : next;
    }
  }

  /** Parallel mode: start every predicate the state may need, then walk using the answers needed. */
  private async decideInParallel(root: DecisionNode, values: readonly unknown[], context: StepContext): Promise<Decided> {
    const early = new Map<number, Promise<PredicateAnswer>>();
    for (const index of this.statePredicates[this.currentState]) {
      const pending = Promise.resolve().then(() => this.ask(index, values, context));
      // Failures of predicates the walk never reaches must not become unhandled rejections.
      pending.catch(() => undefined);
      early.set(index, pending);
    }
    const asked: PredicateAnswer[] = [];
    let node = root;
    while (node.kind === 'test') {
      const answer = await (early.get(node.predicate) as Promise<PredicateAnswer>);
      asked.push(answer);
      node = answer.value ? node.whenTrue : node.whenFalse;
    }
    const onPath = new Set(asked.map((a) => a.index));
    const rest = [...early].filter(([index]) => !onPath.has(index)).map(([, p]) => p);
    // Wait for the speculative calls so no user call outlives its step; their failures don't matter.
    const settled = await Promise.allSettled(rest);
    const speculative = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    return { asked, speculative, leaf: node };
  }

  private ask(index: number, values: readonly unknown[], context: StepContext): PredicateAnswer | Promise<PredicateAnswer> {
    const predicate = this.predicates[index];
    const started = now();
    const finish = (value: unknown): PredicateAnswer => {
      if (typeof value !== 'boolean')
        throw new StepError(
          `step ${context.step}: predicate \`${predicate.text}\` returned ${describeValue(value)}, not a boolean`,
          { kind: 'predicate', name: predicate.name, site: predicate.text, attempts: 1, calls: 1 },
          context.state,
          context.step,
        );
      return { index, proposition: predicate.proposition, text: predicate.text, value, ms: now() - started };
    };
    const result = this.evaluate(predicate.term, values, predicate.site, context);
    return isPromiseLike(result) ? Promise.resolve(result).then(finish) : finish(result);
  }

  /** New values of the chosen updates, all computed from the old `values`. */
  private computeUpdates(indices: readonly number[], values: readonly unknown[], context: StepContext): ComputedUpdate[] | Promise<ComputedUpdate[]> {
    const compute = (index: number): ComputedUpdate | Promise<ComputedUpdate> => {
      const update = this.updates[index];
      if (update.isSelfUpdate) return { update, value: undefined, ms: 0 };
      const started = now();
      const result = this.evaluate(update.term, values, update.site, context);
      return isPromiseLike(result)
        ? Promise.resolve(result).then((value) => ({ update, value, ms: now() - started }))
        : { update, value: result, ms: now() - started };
    };
    if (this.options.parallel) {
      const pending = indices.map((index) => Promise.resolve().then(() => compute(index)));
      return Promise.allSettled(pending).then((settled) => {
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
        if (failed) throw failed.reason;
        return settled.map((s) => (s as PromiseFulfilledResult<ComputedUpdate>).value);
      });
    }
    const out: ComputedUpdate[] = [];
    for (let i = 0; i < indices.length; i++) {
      const result = compute(indices[i]);
      if (isPromiseLike(result)) return this.computeRestAsync(result, out, indices, i, compute);
      out.push(result);
    }
    return out;
  }

  private async computeRestAsync(
    pending: Promise<ComputedUpdate>,
    out: ComputedUpdate[],
    indices: readonly number[],
    from: number,
    compute: (index: number) => ComputedUpdate | Promise<ComputedUpdate>,
  ): Promise<ComputedUpdate[]> {
    out.push(await pending);
    for (let i = from + 1; i < indices.length; i++) {
      const result = compute(indices[i]);
      out.push(isPromiseLike(result) ? await result : result);
    }
    return out;
  }

  /** Evaluate a term against the old signal values; synchronous unless some call returns a promise. */
  private evaluate(term: CompiledTerm, values: readonly unknown[], site: Site, context: StepContext): unknown {
    switch (term.kind) {
      case 'literal':
        return term.value;
      case 'signal': {
        const value = values[term.slot];
        if (value === undefined && term.isInput)
          throw new StepError(`step ${context.step}: input signal \`${term.name}\` has no value; pass it to step()`, { kind: 'input', name: term.name, site: site.text, attempts: 0, calls: 0 }, context.state, context.step);
        return value;
      }
      case 'call': {
        const args: unknown[] = new Array(term.args.length);
        let pending = false;
        for (let i = 0; i < term.args.length; i++) {
          args[i] = this.evaluate(term.args[i], values, site, context);
          if (isPromiseLike(args[i])) pending = true;
        }
        if (pending) return Promise.all(args).then((resolved) => this.invoke(term, resolved, site, context));
        return this.invoke(term, args, site, context);
      }
    }
  }

  /** Call user code with retries and a per-attempt timeout; failures become `StepError`s. */
  private invoke(call: CompiledCall, args: unknown[], site: Site, context: StepContext): unknown {
    const retries = Math.max(0, this.options.retries ?? 0);
    const timeoutMs = this.options.timeoutMs;
    const span = this.telemetry.current.startCall(context.span, `tslc.${site.kind}`, { 'tslc.fn': call.fn, 'tslc.term': site.text });
    const fail = (calls: number, attempts: number, cause: unknown): StepError => {
      const reason = cause instanceof Error ? cause.message : String(cause);
      const inCalls = calls > 1 && calls !== attempts ? ` in ${calls} calls` : '';
      const error = new StepError(
        `step ${context.step}: ${site.kind} \`${call.fn}\` failed in \`${site.text}\` after ${attempts} attempt${attempts === 1 ? '' : 's'}${inCalls}: ${reason}`,
        { kind: site.kind, name: call.fn, site: site.text, attempts, calls },
        context.state,
        context.step,
        cause,
      );
      if (span) {
        span.setStatus({ code: SPAN_STATUS_ERROR, message: error.message });
        span.end();
      }
      return error;
    };
    // `spent`: attempts before this call, counted through the layers below (see FailedCall).
    const attempt = (n: number, spent: number): unknown => {
      let result: unknown;
      try {
        result = call.impl.apply(this.impl, args);
      } catch (err) {
        if (n < retries) return attempt(n + 1, spent + attemptsIn(err));
        throw fail(n + 1, spent + attemptsIn(err), err);
      }
      if (!isPromiseLike(result)) {
        span?.end();
        return result;
      }
      return withTimeout(result, timeoutMs, call.fn).then(
        (value) => {
          span?.end();
          return value;
        },
        (err: unknown) => {
          if (n < retries) return attempt(n + 1, spent + attemptsIn(err));
          throw fail(n + 1, spent + attemptsIn(err), err);
        },
      );
    };
    return attempt(0, 0);
  }

  private makeRecord(
    step: number,
    stateBefore: number,
    leaf: Extract<DecisionNode, { kind: 'leaf' }>,
    asked: readonly PredicateAnswer[],
    speculative: readonly PredicateAnswer[] | undefined,
    updates: readonly ComputedUpdate[],
    startedAt: number,
    t0: number,
    inputs: Partial<I> | undefined,
    after: readonly unknown[],
  ): StepRecord {
    const evaluated = new Set<number>();
    for (const a of asked) evaluated.add(a.index);
    if (speculative) for (const a of speculative) evaluated.add(a.index);
    const notNeeded: number[] = [];
    for (let i = 0; i < this.predicates.length; i++) if (!evaluated.has(i)) notNeeded.push(i);
    const chosen: ChosenUpdate[] = updates.map(({ update, ms }) => ({
      index: update.index,
      proposition: update.proposition,
      signal: update.signal,
      text: update.text,
      isSelfUpdate: update.isSelfUpdate,
      ms,
    }));
    const record: {
      -readonly [K in keyof StepRecord]: StepRecord[K];
    } = { step, stateBefore, stateAfter: leaf.next, asked, notNeeded, updates: chosen, startedAt, durationMs: now() - t0 };
    if (speculative) record.speculative = speculative;
    if (leaf.specLines) record.specLines = leaf.specLines;
    if (this.options.recordSignals) {
      record.inputs = { ...(inputs ?? {}) };
      record.signalsAfter = this.signalsObject(after);
    }
    return record;
  }

  private remember(record: StepRecord): void {
    const limit = this.options.traceLimit ?? 1000;
    if (limit > 0) {
      this.records.push(record);
      if (this.records.length > limit) this.records.splice(0, this.records.length - limit);
    }
    if (this.options.onStep) {
      try {
        this.options.onStep(record);
      } catch (err) {
        // The step is committed; a faulty observer must not make it look failed.
        console.error(`tslc runtime: onStep hook of ${this.table.name} threw:`, err);
      }
    }
  }

  private finishSpan(span: SpanLike | undefined, error: StepError | undefined, record: StepRecord | undefined): void {
    if (!span) return;
    if (record) {
      span.setAttribute('tslc.state_after', record.stateAfter);
      span.setAttribute('tslc.predicates_asked', record.asked.length);
      span.setAttribute('tslc.updates', record.updates.filter((u) => !u.isSelfUpdate).map((u) => u.text).join('; '));
    }
    if (error) {
      span.recordException(error);
      span.setStatus({ code: SPAN_STATUS_ERROR, message: error.message });
    }
    span.end();
  }

  private internalFailure(err: unknown, context: StepContext): StepError {
    const reason = err instanceof Error ? err.message : String(err);
    return new StepError(`step ${context.step}: ${reason}`, { kind: 'function', name: '?', site: '?', attempts: 0, calls: 0 }, context.state, context.step, err);
  }

  explain(record: StepRecord): Explanation {
    return explainStep(this.table, record);
  }

  snapshot(): ControllerSnapshot {
    const signals: Record<string, unknown> = {};
    this.table.signals.forEach((s, slot) => {
      const value = this.values[slot];
      // A snapshot that could not be restored must fail now, not when it is read back.
      if (value === undefined && s.role !== 'cell') return;
      const problem = jsonValueProblem(value);
      if (problem) throw new SnapshotError(`signals.${s.name}`, `cannot snapshot ${this.table.name}: signal ${JSON.stringify(s.name)} ${problem}`);
      Object.defineProperty(signals, s.name, { value, enumerable: true, writable: true });
    });
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      table: this.table.name,
      fingerprint: this.fingerprint,
      state: this.currentState,
      step: this.steps,
      signals,
    };
  }

  restore(input: ControllerSnapshot | string): void {
    if (this.running) throw new Error(`controller ${this.table.name}: cannot restore while a step is running`);
    // Everything is checked before anything changes.
    const snapshot = validateSnapshot(input, {
      tableName: this.table.name,
      fingerprint: this.fingerprint,
      stateCount: this.table.states.length,
      signals: this.table.signals,
    });
    const signals = snapshot.signals;
    this.values = this.table.signals.map((s) => (hasOwn(signals, s.name) ? signals[s.name] : undefined));
    this.currentState = snapshot.state;
    this.steps = snapshot.step;
  }
}

/**
 * How many attempts a failed call made: what its error reports (`LlmError.attempts` after the
 * LLM layer's retries and re-asks), else 1.
 */
function attemptsIn(error: unknown): number {
  const reported = typeof error === 'object' && error !== null ? (error as { attempts?: unknown }).attempts : undefined;
  return typeof reported === 'number' && Number.isSafeInteger(reported) && reported >= 1 ? reported : 1;
}

function withTimeout(promise: PromiseLike<unknown>, timeoutMs: number | undefined, fn: string): Promise<unknown> {
  if (timeoutMs === undefined || timeoutMs <= 0 || !Number.isFinite(timeoutMs)) return Promise.resolve(promise);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`\`${fn}\` timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

/** Build a controller from a table; generated modules wrap this in a typed `create<Name>`. */
export function createController<S extends object, I extends object = Partial<S>>(definition: ControllerDefinition): Controller<S, I> {
  return new TableController<S, I>(definition);
}
