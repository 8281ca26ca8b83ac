/**
 * runtime/shield — tool-call shields for LLM agents: LTLf rules over `call:<tool>` and event
 * propositions, answered before a call runs (allowed tools, allow/deny with the rule named),
 * whole-plan checks and plan questions, AI SDK adapters, the English ⇄ LTL pattern library and the
 * offline translator for everyday English constraints (english/).
 */
export { LtlfDfa, allLetters, satisfiableLtlf, type Letter, type LtlfDfaOptions } from './dfa.js';
export {
  Shield,
  ShieldRuleError,
  CALL_PREFIX,
  askAboutPlan,
  callLetter,
  checkPlan,
  resolveRules,
  type Decision,
  type PlanReport,
  type PendingCall,
  type PlanStep,
  type ResolvedRule,
  type RuleBreach,
  type RuleInput,
  type ShieldOptions,
  type ShieldRule,
  type ShieldRunResult,
  type ToolCall,
} from './shield.js';
export { ShieldSnapshotError, restoreShield, shieldFingerprint, snapshotShield, type ShieldSnapshot } from './snapshot.js';
export { shieldPrepareStep, shieldTools, type BlockedToolResult, type ExecutableTool, type ShieldToolsOptions } from './ai-sdk.js';
export {
  PatternError,
  compileEnglish,
  englishToLtl,
  explainLtl,
  instantiate,
  matchPattern,
  patternCatalogue,
  type PatternInstance,
  type PatternSlots,
  type Scope,
} from './patterns.js';
export {
  EnglishError,
  FORM_EXAMPLES,
  closestForm,
  translateConstraint,
  type EnglishOptions,
  type EnglishTranslation,
  type Form,
  type Grounding,
} from './english/translate.js';
