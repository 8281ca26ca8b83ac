/**
 * The part every agent-SDK adapter shares: run one tool call under a shield, with the same events
 * as the MCP shield proxy (`tslc shield mcp`), so one rules file serves all of them.
 *
 * - The call is decided first; a denied call does not run, is not recorded, and its result is
 *   the plain-English denial (the rule named, why, the tools allowed now).
 * - An allowed call runs; when it returns, the shield records `call:<tool>` (plus input labels)
 *   and then `ok:<tool>` (plus output labels). When it throws, nothing is recorded (a call that
 *   did not complete does not count toward "at most N times") and the error propagates.
 * - Calls on one shield run one at a time: agent SDKs run a turn's tool calls concurrently, and
 *   each decision must see the outcome of every earlier call.
 */
import type { Decision, Shield } from '../shield.js';

export interface GuardedCallOptions {
  /** Extra propositions for the call, from its input (e.g. `amount:large`). */
  readonly labelInput?: (tool: string, input: unknown) => Iterable<string>;
  /** Extra propositions for its result, from its output (e.g. `result:verified`). */
  readonly labelResult?: (tool: string, output: unknown, input: unknown) => Iterable<string>;
  /** Called for every decision (logging, telemetry). */
  readonly onDecision?: (tool: string, decision: Decision) => void;
}

export interface GuardedRunOptions<T> extends GuardedCallOptions {
  /** Whether an output means the call completed (default: every output does); false records nothing. */
  readonly completed?: (output: T) => boolean;
}

/** What a denied call returns instead of running. */
export interface ShieldDenial {
  readonly denied: true;
  readonly tool: string;
  readonly rules: readonly string[];
  readonly reason: string;
  readonly allowedTools: readonly string[];
  /** The message the model reads. */
  readonly message: string;
}

export type GuardedOutcome<T> = { readonly allowed: true; readonly output: T } | { readonly allowed: false; readonly denial: ShieldDenial };

const queues = new WeakMap<Shield, Promise<unknown>>();

/** Run `task` after every earlier task on the same shield. */
function exclusive<T>(shield: Shield, task: () => Promise<T>): Promise<T> {
  const before = queues.get(shield) ?? Promise.resolve();
  const run = before.then(task, task);
  queues.set(
    shield,
    run.catch(() => undefined),
  );
  return run;
}

/** The denial text the MCP proxy sends too: what was denied, why, and what is allowed now. */
export function denialMessage(tool: string, decision: Decision, allowedTools: readonly string[]): string {
  const why = decision.reason.replace(/^.*? is blocked: /, '');
  return (
    `Denied by the tslc shield: ${tool} was not run.\n` +
    `Why: ${why}.\n` +
    (allowedTools.length > 0 ? `Tools allowed now: ${allowedTools.join(', ')}.` : 'No tool is allowed now.')
  );
}

/**
 * Decide `tool(input)`, run it when allowed, record what happened. `tools` are the names offered
 * to the model (for "tools allowed now").
 */
export function guardedCall<T>(
  shield: Shield,
  tool: string,
  input: unknown,
  run: () => Promise<T>,
  tools: readonly string[],
  options: GuardedRunOptions<T> = {},
): Promise<GuardedOutcome<T>> {
  return exclusive(shield, async () => {
    const labels = options.labelInput ? [...options.labelInput(tool, input)] : [];
    const decision = shield.check({ tool, args: input, labels });
    options.onDecision?.(tool, decision);
    if (!decision.allowed) {
      const allowedTools = shield.allowedTools(tools);
      return {
        allowed: false,
        denial: { denied: true, tool, rules: decision.breaches.map((b) => b.rule), reason: decision.reason, allowedTools, message: denialMessage(tool, decision, allowedTools) },
      };
    }
    const output = await run();
    if (options.completed && !options.completed(output)) return { allowed: true, output };
    shield.observe(decision.letter);
    shield.observe([`ok:${tool}`, ...(options.labelResult ? options.labelResult(tool, output, input) : [])]);
    return { allowed: true, output };
  });
}
