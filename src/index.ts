/**
 * tslc as a library: what `import … from 'tslc'` gives. Each function is what one CLI command
 * does, with the same options (named after the flags, `timeout` in seconds) and the same
 * diagnostics objects (location, severity, code, message, hint): `parse`, `check`, `synthesize`,
 * `compile`, `explain`, `audit`, `judge`. Every result carries its input `errors`, the front ends'
 * `warnings` and the `exitCode` the CLI would give; bad input is reported there, never thrown.
 * Importing this module loads no solver: each function loads what it needs when called.
 *
 * The generated controllers' runtime is `tslc/runtime`; the bundler plugins are `tslc/vite`,
 * `tslc/rollup`, `tslc/esbuild`, `tslc/webpack` and `tslc/rspack`.
 */
export { parse, type ParseResult } from './api/parse.js';
export { check, checkEach, type CheckInput, type CheckOptions, type CheckResult, type SpecVerdict, type Verdict } from './api/check.js';
export { synthesize, printController, type ControllerFormat, type SynthesizeOptions, type SynthesizeResult } from './api/synthesize.js';
export { compile, type CompiledModule, type CompileOptions, type CompileResult, type FileText } from './api/compile.js';
export { explain, type ExplainOptions, type ExplainResult } from './api/explain.js';
export { audit, type AuditOptions, type AuditResult } from './api/audit.js';
export { judge, type JudgeOptions, type JudgeResult } from './api/judge.js';
export type { JudgeReport } from './audit/judge.js';
export type { Explanation, SpecLine } from './api/explanation.js';
export type { FormulaSpec, Outcome, ReadOptions, SolveOptions, SpecSource, SynthesizerName } from './api/inputs.js';
export { formatDiagnostics } from './api/format.js';
export { diagnosticsToJson } from './diagnostics/sources.js';
export { type Diagnostic, type Severity, type SourceSpan, UserError } from './diagnostics/diagnostic.js';
export { ExitCode, type ExitCodeValue } from './diagnostics/exit-codes.js';
export { CodegenVerificationError } from './codegen/errors.js';
export type { TslAst } from './tsl/ast.js';
export type { GameSpec } from './game/spec.js';
export type { MealyMachine } from './game/mealy.js';
export type { Counterstrategy } from './game/counterstrategy.js';
export type { AuditReport, RunOutcome } from './audit/audit.js';
export type { ControllerMetadata } from '../runtime/table.js';
