/**
 * src/external — external synthesizers (Spot's ltlsynt, Strix) as drop-in back ends and
 * cross-checkers. Owns tool discovery (TSLC_LTLSYNT / TSLC_STRIX, tslc.config.json, PATH),
 * running them with execa under a per-spec timeout that kills the whole process tree, reading
 * their REALIZABLE/UNREALIZABLE verdict and HOA controller, and sending every controller through
 * the independent checker before anyone may use it. HOA itself lives in src/automata/hoa*.ts.
 */
export { runExternal, toolArguments, type ExternalMode, type ExternalOptions, type ExternalResult } from './run.js';
export {
  findTool,
  findTools,
  locateTool,
  loadConfig,
  missingToolMessage,
  detectVersion,
  ENV_VARS,
  TOOL_NAMES,
  type ToolInfo,
  type ToolLocation,
  type ToolName,
  type ExternalConfig,
} from './tools.js';
export {
  solve,
  addSynthesizerOptions,
  synthesizerFromArgs,
  SYNTHESIZER_CHOICES,
  DEFAULT_EXTERNAL_TIMEOUT_MS,
  type Backend,
  type BackendVerdict,
  type BuiltinBackend,
  type SolveOptions,
  type SolveResult,
  type SynthesizerChoice,
} from './solve.js';
export { crossCheck, formatCrossCheckTable, crossCheckDiagnostics, agreementOf, type CrossCheckRow, type CrossCheckCell } from './cross-check.js';
export { parseToolOutput } from './output.js';
export type { ControllerVerifier, VerifyOutcome } from './verifier.js';
