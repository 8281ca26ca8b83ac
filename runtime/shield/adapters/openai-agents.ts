/**
 * OpenAI Agents SDK adapter (`tslc/runtime/shield/openai-agents`): shield an agent's function
 * tools. `@openai/agents` is an optional peer dependency; only this module imports it (for types),
 * so it is loaded only by programs that import this entry point.
 *
 *   const agent = new Agent({ name: 'support', tools: shieldAgentTools([lookupOrder, refund], shield) });
 *
 * Each function tool's `invoke` is wrapped (see guarded-call.ts): a call the rules forbid does not
 * run and the model gets the denial — the rule named, why, and the tools allowed now — as the
 * tool's output, and re-plans. A wrapper rather than a tool input guardrail: the SDK runs a turn's
 * tool calls concurrently and guardrails apart from the call, so only a wrapper can decide, run and
 * record each call in turn. Hosted tools (web search, …) pass through unchanged.
 */
import type { FunctionTool, Tool } from '@openai/agents';
import type { Shield } from '../shield.js';
import { type GuardedCallOptions, type ShieldDenial, guardedCall } from './guarded-call.js';

export interface ShieldAgentToolsOptions extends GuardedCallOptions {
  /** Called with every denial (logging). */
  readonly onDenied?: (denial: ShieldDenial) => void;
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** Wrap one function tool; the result is a function tool of the same name, schema and options. */
export function shieldAgentTool<C, T extends FunctionTool<C, never, unknown>>(tool: T, shield: Shield, toolNames: readonly string[], options: ShieldAgentToolsOptions = {}): T {
  const original = tool.invoke;
  const invoke: FunctionTool<C, never, unknown>['invoke'] = async (runContext, input, details) => {
    const outcome = await guardedCall(shield, tool.name, parseInput(input), () => original(runContext, input, details), toolNames, options);
    if (outcome.allowed) return outcome.output;
    options.onDenied?.(outcome.denial);
    return outcome.denial.message;
  };
  return { ...tool, invoke };
}

/** Shield every function tool of an agent's tool list (same order, same names). */
export function shieldAgentTools<C, T extends readonly Tool<C>[]>(tools: T, shield: Shield, options: ShieldAgentToolsOptions = {}): T {
  const names = tools.filter((t) => t.type === 'function').map((t) => t.name);
  return tools.map((t) => (t.type === 'function' ? shieldAgentTool<C, FunctionTool<C, never, unknown>>(t as FunctionTool<C, never, unknown>, shield, names, options) : t)) as unknown as T;
}
