/**
 * The agent specs of “Formally Specifying the High-Level Behavior of LLM-Based Agents” (Figures 9–12), shipped as s-expression text (identical to
 * examples/agents/*.sexp; a test keeps them in sync) and parsed on demand.
 */
import { type AgentSpec, parseAgentSpec } from './spec.js';

export const REACT_SPEC_TEXT = "; ReACT agent (Figure 9 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”). Add (:allowed \"Search\" \"Lookup\") to Action to restrict tool names.\n(define react-agent\n  (:states\n    (Thought (:text \"Thought:\"))\n    (Action (:text \"Action:\"))\n    (Action-Input (:text \"Action Input:\"))\n    (Observation (:text \"Observation:\") (:flags :env-input))\n    (Final-Thought (:text \"Final Thought:\"))\n    (Answer (:text \"Answer:\"))\n  )\n  (:behavior\n    (next\n      (until\n        (next Thought Action Action-Input Observation)\n        Final-Thought)\n      Answer)\n  )\n)\n";

export const CHAIN_OF_THOUGHT_SPEC_TEXT = "; Chain-of-thought agent (Figure 10 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”).\n(define chain-of-thought-agent\n  (:states\n    (Thought (:text \"Let's think step by step. \"))\n    (Answer (:text \"Answer:\"))\n  )\n  (:behavior\n    (next Thought Answer)\n  )\n)\n";

export const REFLEXION_SPEC_TEXT = "; Reflexion agent (Figure 11 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”; the figure's extra closing parenthesis is dropped).\n(define reflexion-agent\n  (:states\n    (Thought (:text \"Thought:\"))\n    (Action (:text \"Action:\"))\n    (Action-Input (:text \"Action Input:\"))\n    (Observation (:text \"Observation:\") (:flags :env-input))\n    (Final-Thought (:text \"Final Thought:\"))\n    (Answer (:text \"Answer:\"))\n    (Evaluator (:text \"Evaluation:\") (:flags :env-input))\n    (Reflection (:text \"Reflection:\"))\n    (Finish (:text \"Generation complete!\"))\n  )\n  (:behavior\n    (until\n      (next\n        (until\n          (next Thought Action Action-Input Observation)\n          Final-Thought)\n        Answer\n        Evaluator\n        Reflection)\n      Finish)\n  )\n)\n";

export const CHAT_BOT_SPEC_TEXT = "; Chat-bot agent (Figure 12 of “Formally Specifying the High-Level Behavior of LLM-Based Agents”). No final state: the user (env) ends the session.\n(define chat-bot-agent\n  (:states\n    (Chat-Bot (:text \"Chat Bot:\"))\n    (User (:text \"User:\") (:flags :env-input))\n  )\n  (:behavior\n    (always\n      (next Chat-Bot User)\n    )\n  )\n)\n";


/**
 * The ReACT spec; `tools` restricts the Action state to those names, `maxLoops` caps the
 * Thought/Action/Action Input/Observation loop (the paper's experiments use 3).
 */
export function reactAgent(tools?: readonly string[], options: { readonly maxLoops?: number } = {}): AgentSpec {
  const parsed = parseAgentSpec(REACT_SPEC_TEXT);
  const spec = options.maxLoops === undefined ? parsed : { ...parsed, maxLoops: options.maxLoops };
  if (!tools) return spec;
  // The paper's content constraint on the tool-selection state: only real tool names.
  return { ...spec, states: spec.states.map((s) => (s.name === 'Action' ? { ...s, allowed: [...tools] } : s)) };
}
export const chainOfThoughtAgent = (): AgentSpec => parseAgentSpec(CHAIN_OF_THOUGHT_SPEC_TEXT);
export const reflexionAgent = (): AgentSpec => parseAgentSpec(REFLEXION_SPEC_TEXT);
export const chatBotAgent = (): AgentSpec => parseAgentSpec(CHAT_BOT_SPEC_TEXT);
