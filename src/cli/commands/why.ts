/**
 * `tslc why --trace run.jsonl (--spec spec.tsl | --table table.json) (--effect '…' | --step N)`:
 * why the agent did what it did. `--step N` explains one step (the deciding predicate answers);
 * `--effect 'never toCave'` (or `'toCave at 3'`, `'not toCave at 3'`) finds the closest cause —
 * the fewest changed predicate answers under which the effect would not have happened — and
 * prints it as a diff of the trace. Exit 0 when explained, 1 when no cause exists, 2 input error.
 */
import { readFileSync } from 'node:fs';
import { explainStep, replayTrace } from '../../../runtime/decision.js';
import type { ControllerTable } from '../../../runtime/table.js';
import { parseJsonlTrace } from '../../../runtime/trace.js';
import { buildControllerTable } from '../../codegen/table.js';
import { UserError } from '../../diagnostics/diagnostic.js';
import { closestCause, EffectError, effectHolds, parseEffect, renderCause } from '../../explain/trace-cause.js';
import { loadSpecs } from '../../report/build.js';
import { synthesize } from '../../synthesis/index.js';
import { ExitCode } from '../exit-codes.js';
import { importRootArg, readUserFile } from '../io.js';

const usage = (message: string) => new UserError({ severity: 'error', message, code: 'usage' });

export async function run(args: Record<string, unknown>): Promise<number> {
  if (typeof args.trace !== 'string') throw usage('give the recorded trace with --trace run.jsonl');
  let records;
  try {
    records = parseJsonlTrace(readUserFile(args.trace));
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError({ severity: 'error', message: `${args.trace}: ${(err as Error).message}`, code: 'trace' });
  }
  const table = await loadTable(args);
  const replay = replayTrace(table, records);
  if (!replay.ok)
    process.stderr.write(`warning: the trace does not replay against this controller (${replay.mismatches[0].message} at step ${replay.mismatches[0].step}); was it compiled from another spec version?\n`);

  if (args.step !== undefined) {
    const record = records.find((r) => r.step === Number(args.step));
    if (!record) throw usage(`the trace has no step ${String(args.step)} (steps ${records[0]?.step ?? 0}–${records[records.length - 1]?.step ?? 0})`);
    const e = explainStep(table, record);
    const say = (p: { text: string; value: boolean }) => `${p.text} was ${p.value}`;
    process.stdout.write(
      `step ${e.step} (state ${e.state}): chose ${e.chosen.length > 0 ? e.chosen.join(', ') : 'to keep every signal'}\n` +
        (e.decisive.length > 0 ? `  because ${e.decisive.map(say).join(' and ')}\n` : '  no predicate answer could have changed this choice\n') +
        (e.incidental.length > 0 ? `  (also asked, did not matter: ${e.incidental.map(say).join(', ')})\n` : '') +
        (e.specSites.length > 0 ? `  serving ${e.specSites.join(', ')}\n` : ''),
    );
    if (args.effect === undefined) return ExitCode.ok;
  }
  if (typeof args.effect !== 'string') throw usage("give --effect 'never <update>' (or '<update> at <step>') or --step N");
  let effect;
  try {
    effect = parseEffect(table, args.effect);
  } catch (err) {
    if (err instanceof EffectError) throw new UserError({ severity: 'error', message: err.message, code: 'effect' });
    throw err;
  }
  if (!effectHolds(effect, records)) {
    process.stdout.write(`the effect does not hold on this trace: nothing to explain\n`);
    return ExitCode.failure;
  }
  const cause = closestCause(table, records, effect);
  process.stdout.write(renderCause(table, records, effect, cause) + '\n');
  return cause ? ExitCode.ok : ExitCode.failure;
}

async function loadTable(args: Record<string, unknown>): Promise<ControllerTable> {
  if (typeof args.table === 'string') {
    try {
      return JSON.parse(readUserFile(args.table)) as ControllerTable;
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError({ severity: 'error', message: `${args.table}: not a JSON controller table (${(err as Error).message})`, code: 'table' });
    }
  }
  const specs = (Array.isArray(args.spec) ? args.spec : [args.spec]).filter((f): f is string => typeof f === 'string');
  if (specs.length === 0) throw usage('give the controller with --table table.json or the spec with --spec spec.tsl');
  const spec = await loadSpecs(specs, { importRoot: importRootArg(args) });
  const result = synthesize(spec, { timeoutMs: Number(args.timeout ?? 60) * 1000 });
  if (result.verdict !== 'realizable') throw new UserError({ severity: 'error', message: `${spec.name} is ${result.verdict}: no controller to explain`, code: 'unrealizable' });
  return buildControllerTable(spec, result.controller);
}
