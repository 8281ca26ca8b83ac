/**
 * Usage accounting and the per-run call budget. Usage is recorded per step (the controller turn),
 * so a report can show what each turn of an agent cost; the budget stops a runaway evaluation
 * before it sends a request, with a typed `budget-exhausted` error.
 */
import { LlmError } from './errors.js';

export interface StepUsage {
  /** Requests actually sent (including retries). */
  readonly calls: number;
  /** Calls answered from the cache (no request sent). */
  readonly cachedCalls: number;
  /** Attempts that were retried after a retryable failure. */
  readonly retries: number;
  /** Calls that finally failed. */
  readonly failures: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Wall-clock milliseconds spent in calls, including backoff waits. */
  readonly ms: number;
}

export const NO_USAGE: StepUsage = Object.freeze({
  calls: 0,
  cachedCalls: 0,
  retries: 0,
  failures: 0,
  inputTokens: 0,
  outputTokens: 0,
  ms: 0,
});

export function addUsage(a: StepUsage, b: Partial<StepUsage>): StepUsage {
  return {
    calls: a.calls + (b.calls ?? 0),
    cachedCalls: a.cachedCalls + (b.cachedCalls ?? 0),
    retries: a.retries + (b.retries ?? 0),
    failures: a.failures + (b.failures ?? 0),
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    ms: a.ms + (b.ms ?? 0),
  };
}

export class UsageMeter {
  private readonly steps = new Map<number, StepUsage>();

  record(step: number, delta: Partial<StepUsage>): void {
    this.steps.set(step, addUsage(this.steps.get(step) ?? NO_USAGE, delta));
  }

  step(step: number): StepUsage {
    return this.steps.get(step) ?? NO_USAGE;
  }

  /** Per-step usage in ascending step order. */
  byStep(): ReadonlyArray<readonly [number, StepUsage]> {
    return [...this.steps.entries()].sort((a, b) => a[0] - b[0]);
  }

  total(): StepUsage {
    let sum = NO_USAGE;
    for (const usage of this.steps.values()) sum = addUsage(sum, usage);
    return sum;
  }
}

export interface BudgetLimits {
  /** Maximum requests sent (retries count; cache hits do not). */
  readonly maxCalls?: number;
  /** Maximum input + output tokens reported by the backend. */
  readonly maxTokens?: number;
}

/** A budget shared by every model wrapper of a run (pass the same instance to each). */
export class CallBudget {
  private callsUsed = 0;
  private tokensUsed = 0;

  constructor(readonly limits: BudgetLimits) {}

  get calls(): number {
    return this.callsUsed;
  }

  get tokens(): number {
    return this.tokensUsed;
  }

  /** Reserves one call or throws `budget-exhausted` without sending anything. */
  take(model: string): void {
    const { maxCalls, maxTokens } = this.limits;
    if (maxCalls !== undefined && this.callsUsed >= maxCalls) {
      throw new LlmError('budget-exhausted', `LLM call budget of ${maxCalls} calls is used up`, { model });
    }
    if (maxTokens !== undefined && this.tokensUsed >= maxTokens) {
      throw new LlmError('budget-exhausted', `LLM token budget of ${maxTokens} tokens is used up`, { model });
    }
    this.callsUsed += 1;
  }

  addTokens(count: number): void {
    this.tokensUsed += count;
  }
}
