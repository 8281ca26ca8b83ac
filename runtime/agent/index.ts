/**
 * runtime/agent — agent-behavior specs (paper 003): states with markers and content constraints,
 * a behavior compiled to a deterministic automaton, and `runAgent`, the loop that keeps a chat
 * model on it (forcing valid transitions, enforcing content, handing env-input states to tools).
 */
export {
  AgentSpecError,
  behaviorStates,
  endpoints,
  isLtlBehavior,
  parseAgentSpec,
  validateAgentSpec,
  type AgentSpec,
  type AgentState,
  type Behavior,
  type JsonSchema,
} from './spec.js';
export { acceptsSequence, compileBehavior, shortestToFinal, type BehaviorAutomaton, type CompileOptions } from './behavior.js';
export { checkContent, forceAllowed, schemaErrors, type ContentCheck } from './content.js';
export {
  validateExamples,
  type ExampleProblem,
  type ExampleResult,
  type ExampleStep,
  type ExamplesReport,
  type ValidateExamplesOptions,
} from './validate-examples.js';
export {
  runAgent,
  type AgentEnv,
  type AgentRun,
  type AgentStep,
  type Correction,
  type CorrectionKind,
  type EnvRequest,
  type RunAgentOptions,
} from './run.js';
export * from './specs.js';
