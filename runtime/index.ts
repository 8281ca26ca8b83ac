/**
 * runtime — what generated controller modules import (`tslc/runtime`). Depends on nothing in
 * src/ and nothing outside the standard library; `@opentelemetry/api` is used only if present.
 */
export type {
  ControllerMetadata,
  ControllerTable,
  DecisionNode,
  PredicateData,
  SignalData,
  StateData,
  TermData,
  UpdateData,
} from './table.js';
export {
  createController,
  SnapshotError,
  StepError,
  tableFingerprint,
  type Controller,
  type ControllerDefinition,
  type ControllerOptions,
  type ControllerSnapshot,
  type FailedCall,
  type ImplementationBindings,
} from './controller.js';
export { builtinFunctions, builtinNames, isBuiltinName, theoryFunction, theoryFunctions, type BuiltinName, type TheoryName } from './builtins.js';
export {
  explainStep,
  predicatesOf,
  replayTrace,
  specSitesOf,
  walk,
  type Explanation,
  type ExplainedPredicate,
  type ReplayMismatch,
  type ReplayResult,
} from './decision.js';
export {
  jsonlTraceWriter,
  parseJsonlTrace,
  toJsonl,
  type ChosenUpdate,
  type PredicateAnswer,
  type StepRecord,
  type TextSink,
} from './trace.js';
export type { SpanLike, TracerLike } from './telemetry.js';

import { replayTrace, type ReplayResult } from './decision.js';
import type { ControllerTable } from './table.js';
import { parseJsonlTrace, type StepRecord } from './trace.js';

/** Re-run a recorded trace (records or JSONL text) against a table and confirm every decision. */
export function replay(table: ControllerTable, trace: readonly StepRecord[] | string): ReplayResult {
  return replayTrace(table, typeof trace === 'string' ? parseJsonlTrace(trace) : trace);
}
