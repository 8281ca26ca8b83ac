/**
 * LangGraph adapter (`tslc/runtime/shield/langgraph`): a `ToolNode` whose every tool call is
 * checked against a shield first. `@langchain/langgraph` and `@langchain/core` are optional peer
 * dependencies; only this module imports them, so they load only in programs that import it.
 *
 *   const tools = shieldToolNode([lookupOrder, refund], shield);
 *   graph.addNode('tools', tools)   // in place of new ToolNode([lookupOrder, refund])
 *
 * A denied call does not run; its ToolMessage (status "error") carries the denial — the rule
 * named, why, and the tools allowed now — so the model reads it and re-plans. A call whose tool
 * throws (the node turns that into an error ToolMessage) did not complete and is not recorded.
 * Calls of one shield run one at a time (see guarded-call.ts), although ToolNode starts a
 * message's tool calls together.
 */
import { ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { Command, LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode, type ToolNodeOptions } from '@langchain/langgraph/prebuilt';
import type { Shield } from '../shield.js';
import { type GuardedCallOptions, type ShieldDenial, guardedCall } from './guarded-call.js';

export interface ShieldToolNodeOptions extends ToolNodeOptions, GuardedCallOptions {
  readonly onDenied?: (denial: ShieldDenial) => void;
}

type NodeTools = ConstructorParameters<typeof ToolNode>[0];

/** A ToolNode that asks the shield before running each tool call. */
export class ShieldedToolNode extends ToolNode {
  constructor(
    tools: NodeTools,
    private readonly shield: Shield,
    private readonly shieldOptions: ShieldToolNodeOptions = {},
  ) {
    super(tools, shieldOptions);
  }

  protected override async runTool(call: ToolCall, config: LangGraphRunnableConfig, state: unknown): Promise<ToolMessage | Command> {
    const names = this.tools.map((t) => t.name);
    const outcome = await guardedCall(this.shield, call.name, call.args, () => super.runTool(call, config, state), names, {
      ...this.shieldOptions,
      // The node reports a tool that threw as an error ToolMessage: that call did not complete.
      completed: (output) => !(output instanceof ToolMessage && output.status === 'error'),
    });
    if (outcome.allowed) return outcome.output;
    this.shieldOptions.onDenied?.(outcome.denial);
    return new ToolMessage({ status: 'error', name: call.name, content: outcome.denial.message, tool_call_id: call.id ?? '' });
  }
}

export function shieldToolNode(tools: NodeTools, shield: Shield, options: ShieldToolNodeOptions = {}): ShieldedToolNode {
  return new ShieldedToolNode(tools, shield, options);
}
