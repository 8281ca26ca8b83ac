/**
 * `audit`: a finished log (JSONL or CSV: a file, standard input, or lines in memory) against
 * temporal rules, per run and per property — what `tslc audit` prints. The log is streamed: with
 * `onRun` and `keepRuns: false` memory stays bounded however long the log. A log the rules cannot
 * read (a missing field, a malformed line under `strict`, nothing readable at all) is an input
 * error in `errors`, as the CLI's exit 2.
 */
import { statSync } from 'node:fs';
import type { AuditMissingPolicy, AuditReport, RunOutcome } from '../audit/audit.js';
import type { LogFormat, LogSource } from '../audit/logs.js';
import { type Diagnostic, error, UserError } from '../diagnostics/diagnostic.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { errorAtLine, readUserFile, registerSource } from '../diagnostics/sources.js';
import type { LabelRules } from '../../runtime/monitor/label.js';
import type { propositionsOf } from '../audit/fields.js';
import type { ModelLabels } from '../audit/llm-labels.js';
import { catchingUserErrors, type Outcome, pathOf, type SpecSource, textOf } from './inputs.js';

export interface AuditOptions {
  /** Rules: `rules.ltl` (name: formula or an English pattern per line) or `rules.json`; several combine. */
  readonly rules: SpecSource | readonly SpecSource[];
  /** labels.json: proposition → condition, `columns`, `missing`, `groupBy`. */
  readonly labels?: SpecSource;
  /** The field naming the run an event belongs to. */
  readonly groupBy?: string;
  /** A run is a contiguous block of equal `groupBy` values (ids may repeat); flat memory. */
  readonly contiguous?: boolean;
  /** End of log: LTL3 (pending stays pending; default) or LTLf. */
  readonly semantics?: 'ltl3' | 'ltlf';
  /** CSV: column names replacing the header row. */
  readonly columns?: readonly string[];
  /** Log format (default: from the log's extension). */
  readonly format?: LogFormat;
  /** Fields the rules read but the log lacks: `check` (default), `false` or `error`. */
  readonly missing?: AuditMissingPolicy;
  /** At most this many runs open at once (default: sized to stay under about 1 GB). */
  readonly maxOpenRuns?: number;
  /** Restart a property after a violation and count violations (default true). */
  readonly recovery?: boolean;
  /** Stop at the first malformed line (an input error). */
  readonly strict?: boolean;
  /** LTL3: settle what progression leaves pending with automaton monitors. */
  readonly complete?: boolean;
  /** Receives each run's outcome as soon as the run is closed. */
  readonly onRun?: (run: RunOutcome) => void | Promise<void>;
  /** Keep every run's outcome in `report.runs` (default true). */
  readonly keepRuns?: boolean;
  /** The log's name in diagnostics (default: its path, `<stdin>` for `-`, `<log>` for lines in memory). */
  readonly logName?: string;
  /**
   * Label the propositions that have a prompt (rules or labels file, `"prompts"`) with this model:
   * `sim`, `sim:<seed>?evaluatorError=p` (simulated), `openai:<model>`,
   * `openai-compatible:<url>#<model>`; one request per event.
   */
  readonly labelModel?: string;
  /** At most this many labelling requests (default 1000); past it the audit stops: exit 3. */
  readonly labelBudget?: number;
  /** A directory caching the model's labelling replies between audits (default: memory). */
  readonly labelCache?: string;
}

/** With `labelModel`: what the model labelled and what it took. */
export interface AuditLabelling {
  readonly propositions: readonly string[];
  readonly model: string;
  readonly simulated: boolean;
  readonly calls: number;
  readonly cachedCalls: number;
  readonly budget: number;
}

export interface AuditResult extends Outcome {
  /** Per-run and per-property verdicts (absent when the input could not be audited). */
  readonly report?: AuditReport;
  /** With `labelModel`: the model's requests (also when the labels ran out: exit 3, no report). */
  readonly labelling?: AuditLabelling;
}

/**
 * Audits `log`: a path (`-` is standard input) or the log's lines as an async iterable. Exit code
 * 1 when a run violates a rule, 0 when none does, 2 for input errors.
 */
export async function audit(log: string | AsyncIterable<Buffer | string>, options: AuditOptions): Promise<AuditResult> {
  return catchingUserErrors(
    () => auditOrThrow(log, options),
    (errors) => ({ errors, warnings: [], exitCode: ExitCode.inputError }),
  );
}

async function auditOrThrow(log: string | AsyncIterable<Buffer | string>, options: AuditOptions): Promise<AuditResult> {
  const { FieldCheckError, MalformedLineError, auditLog } = await import('../audit/audit.js');
  const { formatOf, readLog } = await import('../audit/logs.js');
  const { combineRules, parseLabelsFile, parseRules } = await import('../audit/rules.js');
  const { LabelRuleError } = await import('../../runtime/monitor/label.js');
  const { MonitorLimitError } = await import('../../runtime/monitor/progression.js');
  // The LLM layer is loaded only for audits with model labels.
  const isLlmError = options.labelModel !== undefined ? (await import('../../runtime/llm/errors.js')).isLlmError : (_: unknown): _ is Error => false;
  const ruleSources: readonly SpecSource[] = Array.isArray(options.rules) ? options.rules : [options.rules as SpecSource];
  if (ruleSources.length === 0) throw new UserError(error('name at least one rules file', undefined, 'usage'));
  const read = (s: SpecSource): string => textOf(s) ?? readUserFile(pathOf(s));
  const rules = combineRules(ruleSources.map((s) => parseRules(read(s), pathOf(s))));
  const rulesName = ruleSources.map(pathOf).join(', ');
  const labelCfg = options.labels ? parseLabelsFile(read(options.labels), pathOf(options.labels)) : {};
  const semantics = options.semantics ?? 'ltl3';
  if (semantics !== 'ltl3' && semantics !== 'ltlf') throw new UserError(error(`--semantics must be ltl3 or ltlf, not '${String(semantics)}'`, undefined, 'usage'));
  if (options.maxOpenRuns !== undefined && (!Number.isInteger(options.maxOpenRuns) || options.maxOpenRuns < 1))
    throw new UserError(error(`--max-open-runs must be a positive whole number, not '${options.maxOpenRuns}'`, undefined, 'usage'));
  const path = typeof log === 'string' ? log : undefined;
  const logName = options.logName ?? (path === undefined ? '<log>' : path === '-' ? '<stdin>' : path);
  if (path !== undefined && path !== '-') checkReadable(path);
  const format: LogFormat = options.format ?? (path !== undefined && path !== '-' ? formatOf(path) : 'jsonl');
  const columns = options.columns ?? labelCfg.columns ?? rules.columns;
  const labels = rules.labels || labelCfg.labels ? { ...rules.labels, ...labelCfg.labels } : undefined;
  const models = await labelModel(options, rules.properties, labels, { ...rules.prompts, ...labelCfg.prompts }, options.labels ? pathOf(options.labels) : rulesName);
  const labelling = (): AuditLabelling | undefined => {
    if (!models) return undefined;
    const u = models.model.usage.total();
    return { propositions: models.propositions, model: models.model.id, simulated: models.model.simulated, calls: u.calls, cachedCalls: u.cachedCalls, budget: models.budget.limits.maxCalls ?? 0 };
  };
  // Complete LTL3 verdicts need the automata layer; load it only when asked.
  const automata = options.complete
    ? await import('../audit/automaton.js').then((m) => rules.properties.map((p) => m.buildMonitorAutomaton(p.formula)))
    : undefined;
  const source: LogSource = path ?? (log as AsyncIterable<Buffer | string>);
  let report: AuditReport;
  try {
    report = await auditLog(readLog(source, { format, ...(columns ? { columns: [...columns] } : {}) }), {
      properties: rules.properties,
      labels,
      missing: options.missing ?? labelCfg.missing ?? rules.missing ?? 'check',
      groupBy: options.groupBy ?? labelCfg.groupBy ?? rules.groupBy,
      contiguous: options.contiguous ?? labelCfg.contiguous ?? rules.contiguous ?? false,
      semantics,
      recovery: options.recovery !== false,
      strict: Boolean(options.strict),
      ...(options.maxOpenRuns !== undefined ? { maxOpenRuns: options.maxOpenRuns } : {}),
      keepRuns: options.keepRuns ?? true,
      ...(options.onRun ? { onRun: options.onRun } : {}),
      ...(automata ? { automata } : {}),
      ...(models ? { delegate: models } : {}),
    });
  } catch (err) {
    if (isLlmError(err)) {
      // The audit stopped part-way (budget, provider failure): its verdicts are unknown, not clean.
      const d = error(`--label-model: ${err.message}${models ? ` (after ${models.budget.calls} labelling request(s))` : ''}; the audit did not finish`, undefined, 'label-model');
      const l = labelling();
      return { errors: [d], warnings: [], exitCode: ExitCode.unknown, ...(l ? { labelling: l } : {}) };
    }
    if (err instanceof MalformedLineError) {
      throw new UserError(errorAtLine(`malformed line (--strict): ${err.reason}`, { file: logName, line: err.line, text: err.text, col: err.col }, 'malformed'));
    }
    if (err instanceof FieldCheckError) {
      // Show the header line under the message when we have it.
      if (err.text !== undefined) registerSource(logName, '\n'.repeat(err.line - 1) + err.text);
      throw new UserError(error(err.detail, { file: logName, line: err.line, col: err.col, ...(err.length !== undefined ? { length: err.length } : {}) }, 'missing-field'));
    }
    if (err instanceof MonitorLimitError) throw new UserError(error(err.message, undefined, 'limit'));
    if (err instanceof LabelRuleError) {
      throw new UserError(error(`${options.labels ? pathOf(options.labels) : rulesName}: labels.${err.message}`, undefined, 'labels'));
    }
    throw err;
  }
  // Nothing in the log could be read (binary file, wrong format): an input error, not a clean
  // audit, so CI does not pass on a log it never looked at.
  const errors: Diagnostic[] =
    report.malformed.count > 0 && report.events === 0 ? [error(`every line of ${logName} was malformed; check --format and --columns`, undefined, 'malformed')] : [];
  const exitCode = errors.length > 0 ? ExitCode.inputError : report.violatedRuns > 0 ? ExitCode.failure : ExitCode.ok;
  const l = labelling();
  return { report, errors, warnings: [], exitCode, ...(l ? { labelling: l } : {}) };
}

/** `labelModel`: the propositions with a prompt are labelled by the model (see src/audit/llm-labels.ts). */
async function labelModel(
  options: AuditOptions,
  properties: readonly { readonly formula: Parameters<typeof propositionsOf>[0] }[],
  labels: LabelRules | undefined,
  prompts: Readonly<Record<string, string>>,
  labelsFile: string,
): Promise<ModelLabels | undefined> {
  const budget = options.labelBudget;
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 1))
    throw new UserError(error(`--label-budget must be a positive whole number, not '${budget}'`, undefined, 'usage'));
  if (options.labelModel === undefined) {
    if (budget !== undefined || options.labelCache !== undefined) throw new UserError(error('--label-budget and --label-cache need --label-model', undefined, 'usage'));
    return undefined;
  }
  const { propositionsOf } = await import('../audit/fields.js');
  const { isLlmError } = await import('../../runtime/llm/errors.js');
  const used = new Set(properties.flatMap((p) => [...propositionsOf(p.formula)]));
  const asked = Object.keys(prompts).filter((p) => used.has(p));
  if (asked.length === 0) {
    throw new UserError(
      error(
        `--label-model needs prompts: ${labelsFile} has no "prompts" for the propositions the rules use (${[...used].sort().join(', ')}); ` +
          'add "prompts": { "<proposition>": "<when it holds, in plain English>" } to the labels file',
        undefined,
        'usage',
      ),
    );
  }
  const { modelLabels } = await import('../audit/llm-labels.js');
  try {
    return modelLabels({
      model: options.labelModel,
      prompts,
      used,
      ...(labels ? { rules: labels } : {}),
      ...(budget !== undefined ? { maxCalls: budget } : {}),
      ...(options.labelCache ? { cacheDir: options.labelCache } : {}),
    });
  } catch (err) {
    if (isLlmError(err)) throw new UserError(error(`--label-model: ${err.message}`, undefined, 'config'));
    throw err;
  }
}

/** Regular files, FIFOs and terminals can be streamed; say why anything else cannot. */
function checkReadable(path: string): void {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(error(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`, undefined, 'io'));
  }
  if (st.isDirectory()) throw new UserError(error(`cannot read ${path}: it is a directory`, undefined, 'io'));
  if (!st.isFile() && !st.isFIFO() && !st.isCharacterDevice()) {
    throw new UserError(error(`cannot read ${path}: not a file, pipe or terminal`, undefined, 'io'));
  }
}
