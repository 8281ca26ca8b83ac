/**
 * runtime/monitor — runtime monitoring for agents whose behaviour is not synthesized: LTL
 * progression monitors (TRAC / TRAC_R), LTL3 automaton monitors, labeling functions, and
 * predictive / intervening monitors (TRAC_P+I). Plain JSON state; no dependency on src/.
 */
export {
  ProgressionMonitor,
  MonitorLimitError,
  type EndSemantics,
  type FinalStatus,
  type Labels,
  type MonitorOptions,
  type MonitorSnapshot,
  type PropertySpec,
  type PropertyStatus,
  type Verdict,
  type WitnessEntry,
} from './progression.js';
export { AutomatonMonitor, type MonitorAutomaton, type MonitorPart } from './automaton.js';
export {
  functionLabeler,
  symbolicLabeler,
  truthy,
  LabelRuleError,
  MissingFieldError,
  type Condition,
  type EventRecord,
  type AnyLabeler,
  type Labeler,
  type LabelRules,
  type MissingPolicy,
} from './label.js';
export { llmLabeler, llmLabelerPrompt, parseLabelAnswer, LlmLabelError, type AsyncLabeler, type LlmLabelerOptions } from './llm-label.js';
export { simulatedLabelModel, type SimLabelOptions, type SimulatedLabelModel } from './sim-label.js';
export { JUDGE_INSTRUCTIONS, judgePrompt, parseJudgeAnswer, renderAction, type JudgeAnswer, type JudgeFinding, type JudgeFindingKind, type JudgeRule } from './llm-judge.js';
export { simulatedJudgeModel, judgeRequestActions, judgeRequestRules, type JudgeTruth, type SimJudgeOptions, type SimulatedJudgeModel } from './sim-judge.js';
export {
  InterveningMonitor,
  anyViolation,
  describeLtl,
  predict,
  type Generate,
  type InterveneOptions,
  type Intervention,
  type Pattern,
  type Prediction,
  type PropertyWithDescription,
  type TraceEntry,
  type Turn,
} from './intervene.js';
