/**
 * Vercel AI SDK adapters for shields, written against the SDK's shapes structurally so `ai` stays
 * an optional peer dependency (nothing here imports it).
 *
 * - `shieldPrepareStep(shield)`: a `prepareStep` hook that narrows `activeTools` to the tools the
 *   rules still allow, so the model is not even offered a forbidden tool.
 * - `shieldTools(tools, shield)`: wraps every tool's `execute`; a disallowed call does not run and
 *   its tool result is the plain-English denial, which the model reads and re-plans from. A call
 *   counts once its `execute` returned; one that threw is not recorded.
 */
import type { Shield, ToolCall } from './shield.js';

/** The part of an AI SDK tool the wrapper touches. */
export interface ExecutableTool {
  execute?: (input: never, options: never) => unknown;
}

/** What a blocked tool call returns to the model instead of running. */
export interface BlockedToolResult {
  readonly blocked: true;
  readonly tool: string;
  readonly reason: string;
  readonly allowedTools: readonly string[];
}

export interface ShieldToolsOptions {
  /** Propositions to record after a tool ran, from its output (e.g. `result:verified`). */
  readonly labelResult?: (tool: string, output: unknown, input: unknown) => Iterable<string>;
  /** Extra labels for the call itself, from its input. */
  readonly labelInput?: (tool: string, input: unknown) => readonly string[];
  /** Called for every decision (logging, telemetry). */
  readonly onDecision?: (tool: string, allowed: boolean, reason: string) => void;
}

/** Wrap a tool set: same keys and tool objects, with shielded `execute` functions. */
export function shieldTools<T extends Record<string, ExecutableTool>>(tools: T, shield: Shield, options: ShieldToolsOptions = {}): T {
  // Built from entries (own data properties, as the SDK's own objects are): assigning
  // `out[name]` would lose a tool named `__proto__` (it would set the prototype instead).
  const out: [string, ExecutableTool][] = [];
  for (const [name, tool] of Object.entries(tools)) {
    const original = tool.execute as ((input: unknown, opts: unknown) => unknown) | undefined;
    if (!original) {
      out.push([name, tool]);
      continue;
    }
    const execute = async (input: unknown, opts: unknown): Promise<unknown> => {
      const call: ToolCall = { tool: name, args: input, labels: options.labelInput?.(name, input) ?? [] };
      // Counted only once `execute` returns: a tool that threw did not happen, so a rule such as
      // "at most once" still allows the retry. The SDK reports the error to the model as usual.
      const pending = shield.start(call);
      const decision = pending.decision;
      options.onDecision?.(name, decision.allowed, decision.reason);
      if (!decision.allowed) {
        const blocked: BlockedToolResult = { blocked: true, tool: name, reason: decision.reason, allowedTools: shield.allowedTools() };
        return blocked;
      }
      let output: unknown;
      try {
        output = await original(input, opts);
      } catch (err) {
        pending.fail();
        throw err;
      }
      pending.complete();
      const labels = options.labelResult ? [...options.labelResult(name, output, input)] : [];
      if (labels.length > 0) shield.observe(labels);
      return output;
    };
    out.push([name, { ...tool, execute: execute as ExecutableTool['execute'] }]);
  }
  return Object.fromEntries(out) as T;
}

/** A `prepareStep` hook: only tools the shield allows are active in the next step. */
export function shieldPrepareStep<TOOL extends string>(
  shield: Shield,
  tools: readonly TOOL[],
): (step: unknown) => { activeTools: TOOL[] } {
  return () => ({ activeTools: shield.allowedTools(tools) as TOOL[] });
}
