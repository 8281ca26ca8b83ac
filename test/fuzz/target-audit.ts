/**
 * In-process target for `tslc audit`: the rule file parsed as the command parses it, the log
 * streamed through `readLog` in the generated chunks, audited with the generated options. The
 * errors the command turns into exit 2 (bad rules, a malformed line under --strict, missing or
 * duplicate columns, monitor limits, bad label rules) are clean; anything else is a bug. The
 * report's counts must add up: every line is an event, malformed, blank or a header.
 */
import { LabelRuleError } from '../../runtime/monitor/label.js';
import { MonitorLimitError } from '../../runtime/monitor/progression.js';
import { auditLog, FieldCheckError, MalformedLineError } from '../../src/audit/audit.js';
import { buildMonitorAutomaton } from '../../src/audit/automaton.js';
import { readLog } from '../../src/audit/logs.js';
import { parseRules } from '../../src/audit/rules.js';
import type { AuditCase } from './gen-log.js';
import { describeThrown, interruptible, OK, type Result, userErrorResult, withinTime } from './oracle.js';

async function* chunks(c: AuditCase): AsyncGenerator<Buffer> {
  let from = 0;
  for (const cut of [...c.cuts, c.log.length]) {
    if (cut > from) yield c.log.subarray(from, cut);
    from = Math.max(from, cut);
  }
}

export async function runAudit(c: AuditCase, hardMs: number): Promise<Result> {
  let rules;
  const parsed = interruptible(() => {
    try {
      rules = parseRules(c.rules, c.rulesName);
      return OK;
    } catch (err) {
      // JSON rule files report some problems without a location (`rules.json: …`), as the CLI does.
      return userErrorResult(err, c.rulesName.endsWith('.ltl') ? { file: c.rulesName, text: c.rules } : undefined) ?? { outcome: 'internal', detail: `rules: ${describeThrown(err)}` } as Result;
    }
  }, hardMs);
  if (!parsed) return { outcome: 'hang', detail: `parsing the rules still running after ${hardMs} ms` };
  if (parsed.value.outcome !== 'ok' || !rules) return parsed.value;
  const ruleSet = rules as ReturnType<typeof parseRules>;
  const o = c.options;
  let automata: ReturnType<typeof buildMonitorAutomaton>[] | undefined;
  if (o.complete) {
    const built = interruptible(() => {
      try {
        return { automata: ruleSet.properties.map((p) => buildMonitorAutomaton(p.formula)) };
      } catch (err) {
        return { result: { outcome: 'internal', detail: `--complete: ${describeThrown(err)}` } as Result };
      }
    }, hardMs);
    if (!built) return { outcome: 'hang', detail: `building --complete automata still running after ${hardMs} ms` };
    if (built.value.result) return built.value.result;
    automata = built.value.automata;
  }
  const run = async (): Promise<Result> => {
    try {
      const report = await auditLog(readLog(chunks(c), { format: c.format, ...(o.columns ? { columns: o.columns } : {}), ...(o.maxLineBytes ? { maxLineBytes: o.maxLineBytes } : {}) }), {
        properties: ruleSet.properties,
        labels: ruleSet.labels,
        missing: o.missing,
        groupBy: o.groupBy ?? ruleSet.groupBy,
        contiguous: o.contiguous,
        semantics: o.semantics,
        recovery: o.recovery,
        strict: o.strict,
        ...(o.maxOpenRuns ? { maxOpenRuns: o.maxOpenRuns } : {}),
        ...(automata ? { automata } : {}),
        keepRuns: true,
      });
      const lines = c.log.length === 0 ? 0 : countLines(c.log);
      if (report.events + report.malformed.count > lines)
        return { outcome: 'internal', detail: `report counts ${report.events} events and ${report.malformed.count} malformed lines in a log of ${lines} lines` };
      if (report.runs.length > 0 && report.runs.reduce((s, run) => s + run.events, 0) !== report.events)
        return { outcome: 'internal', detail: `runs hold ${report.runs.reduce((s, run) => s + run.events, 0)} events, the report says ${report.events}` };
      return OK;
    } catch (err) {
      if (err instanceof MalformedLineError || err instanceof FieldCheckError || err instanceof MonitorLimitError || err instanceof LabelRuleError)
        return { outcome: 'error', detail: err.name };
      return { outcome: 'internal', detail: describeThrown(err) };
    }
  };
  const audited = await withinTime(run, hardMs);
  return audited ? audited.value : { outcome: 'hang', detail: `audit still running after ${hardMs} ms` };
}

/** Lines as any reader counts them at most: LF, CRLF or a lone CR each end one. */
function countLines(log: Buffer): number {
  let n = 1;
  for (let i = 0; i < log.length; i++) {
    if (log[i] === 0x0a) n++;
    else if (log[i] === 0x0d && log[i + 1] !== 0x0a) n++;
  }
  return n;
}
