/**
 * Issue 18 item 12: a rule reading a column or field the log does not have is an error (exit 2,
 * naming the rule, the proposition and the file), not an audit that reads it as always false.
 * `--missing false` keeps the old reading. JSONL records may leave a key out; a run in which no
 * record has it is the error.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { auditLog, FieldCheckError } from '../../src/audit/audit.js';
import type { LogItem } from '../../src/audit/logs.js';
import { run } from '../../src/cli/commands/audit.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { corpusPath } from '../support/corpus.js';

let out = '';
beforeEach(() => {
  out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'tslc-audit-fields-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const base = { recovery: true, strict: false, json: true, semantics: 'ltl3' };

/** The single diagnostic of a rejected audit. */
async function rejection(args: Record<string, unknown>): Promise<{ message: string; file?: string; line?: number; col?: number }> {
  try {
    await run({ ...base, ...args });
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const d = err.diagnostics[0];
    return { message: d.message, file: d.span?.file, line: d.span?.line, col: d.span?.col };
  }
  throw new Error('the audit was not rejected');
}

describe('CSV columns', () => {
  const rules = file('cave.ltl', 'no-cave: G !inCave\nreach-town: F inTown\n');

  it('a column a rule reads is missing: exit 2 naming the rule, the proposition and the file', async () => {
    const log = file('no-town.csv', 'Run,InCave\n1,0\n1,0\n');
    const d = await rejection({ spec: [rules], log, 'group-by': 'Run' });
    expect(d).toMatchObject({ file: log, line: 1, col: 1 });
    expect(d.message).toMatch(/no column 'inTown' \(read by proposition 'inTown' of rule 'reach-town'\)/);
    expect(d.message).toMatch(/The columns are Run, InCave/);
    // The old reading, on request: the proposition is always false.
    expect(await run({ ...base, spec: [rules], log, 'group-by': 'Run', missing: 'false' })).toBe(0);
    expect(JSON.parse(out).summary[1]).toMatchObject({ property: 'reach-town', pendingRuns: 1 });
  });

  it('a column a rule reads appears twice: the error points at the second', async () => {
    const log = file('dup.csv', 'Run,InCave,InTown,InCave\n1,0,1,1\n');
    const d = await rejection({ spec: [rules], log, 'group-by': 'Run' });
    expect(d).toMatchObject({ file: log, line: 1, col: 19 });
    expect(d.message).toMatch(/column 'InCave' \(read by proposition 'inCave' of rule 'no-cave'\) appears 2 times \(columns 2, 4\)/);
  });

  it('columns differing only in letter case are ambiguous for a proposition read by name', async () => {
    const log = file('case.csv', 'Run,INCAVE,incave,InTown\n1,0,1,1\n');
    const d = await rejection({ spec: [rules], log, 'group-by': 'Run' });
    expect(d.message).toMatch(/columns 'INCAVE' and 'incave' all match 'inCave'/);
  });

  it('duplicates no rule reads, and label rules for unused propositions, are no error', async () => {
    const labels = file('labels.json', JSON.stringify({ labels: { inCave: 'InCave', unused: { field: 'Nowhere', eq: 1 } } }));
    const log = file('extra.csv', 'Run,InCave,InTown,Note,Note\n1,0,1,a,b\n');
    expect(await run({ ...base, spec: [rules], labels, log, 'group-by': 'Run' })).toBe(0);
    expect(JSON.parse(out).summary[1]).toMatchObject({ property: 'reach-town', satisfiedRuns: 1 });
  });

  it('label rules: the field they read must be a column; --columns is checked the same way', async () => {
    const labels = file('cave.labels.json', JSON.stringify({ labels: { inCave: 'InCave', inTown: { field: 'Where', eq: 'town' } } }));
    const log = file('where.csv', 'Run,InCave,Place\n1,0,town\n');
    const d = await rejection({ spec: [rules], labels, log, 'group-by': 'Run' });
    expect(d.message).toMatch(/no column 'Where' \(read by proposition 'inTown' of rule 'reach-town'\)/);
    expect(await run({ ...base, spec: [rules], labels, log, 'group-by': 'Run', columns: 'Run,InCave,Where' })).toBe(0);
    const e = await rejection({ spec: [rules], labels, log, 'group-by': 'Run', columns: 'Run,InCave,Where,InCave' });
    expect(e.message).toMatch(/^the --columns given: column 'InCave'/);
  });
});

describe('JSONL fields', () => {
  const rules = file('resp.ltl', 'resp: G (req -> X ack)\n');

  it('a key left out of some records reads as false; absent from a whole run it is an error naming the run', async () => {
    const log = file(
      'sparse.jsonl',
      [
        { run: 'r1', req: true },
        { run: 'r2', req: false, ack: false },
        { run: 'r1', ack: true },
        { run: 'r2', req: true },
        { run: 'r2' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    // r2 has req and ack somewhere: fine; its last records lack them (false), so resp is violated.
    expect(await run({ ...base, spec: [rules], log, 'group-by': 'run' })).toBe(1);
    const report = JSON.parse(out);
    expect(report.runs.map((r: { run: string; properties: { verdict: string }[] }) => [r.run, r.properties[0].verdict])).toEqual([
      ['r1', 'pending'],
      ['r2', 'violated'],
    ]);
    const noAck = file('no-ack.jsonl', '{"run":"r1","req":true,"ack":true}\n{"run":"r3","req":true}\n{"run":"r3","req":false}\n');
    const d = await rejection({ spec: [rules], log: noAck, 'group-by': 'run' });
    expect(d).toMatchObject({ file: noAck, line: 2 });
    expect(d.message).toMatch(/^no record of run 'r3' \(lines 2–3\) has field 'ack' \(read by proposition 'ack' of rule 'resp'\)/);
    expect(d.message).toMatch(/--missing false/);
    out = '';
    expect(await run({ ...base, spec: [rules], log: noAck, 'group-by': 'run', missing: 'false' })).toBe(1);
  });

  it('nested fields of label rules are looked for along their path', async () => {
    const labels = file('nested.labels.json', JSON.stringify({ labels: { req: { field: 'call.name', eq: 'pay' }, ack: { field: 'call.ok', truthy: true } } }));
    const good = file('nested.jsonl', '{"call":{"name":"pay"}}\n{"call":{"name":"x","ok":true}}\n');
    expect(await run({ ...base, spec: [rules], labels, log: good })).toBe(0);
    const bad = file('nested-bad.jsonl', '{"call":{"name":"pay"}}\n{"call":{"name":"x","okay":true}}\n');
    const d = await rejection({ spec: [rules], labels, log: bad });
    expect(d.message).toMatch(/^no record of the log has field 'call\.ok' \(read by proposition 'ack' of rule 'resp'\)/);
  });

  it('keys that differ only in letter case are ambiguous for a proposition read by name', async () => {
    const log = file('case.jsonl', '{"REQ":true,"Req":false,"ack":true}\n');
    const d = await rejection({ spec: [rules], log });
    expect(d).toMatchObject({ line: 1 });
    expect(d.message).toMatch(/fields 'REQ' and 'Req' all match 'req'/);
  });

  it('a run closed early is not checked on its own, but a field absent from the whole log still is', async () => {
    const properties = [{ name: 'resp', formula: parseLtl('G (req -> X ack)') }];
    // a's first part (line 1) has no ack; a closes early when b opens, and its rest has ack.
    const split: LogItem[] = [
      { kind: 'event', line: 1, event: { run: 'a', req: true } },
      { kind: 'event', line: 2, event: { run: 'b', req: false, ack: false } },
      { kind: 'event', line: 3, event: { run: 'a', ack: true } },
    ];
    const report = await auditLog(split, { properties, groupBy: 'run', maxOpenRuns: 1 });
    expect(report.runs.map((r) => r.run)).toEqual(['a', 'b', 'a@line3']);
    const never: LogItem[] = [
      { kind: 'event', line: 1, event: { run: 'a', req: true } },
      { kind: 'event', line: 2, event: { run: 'b', req: false } },
      { kind: 'event', line: 3, event: { run: 'a', req: false } },
    ];
    await expect(auditLog(never, { properties, groupBy: 'run', maxOpenRuns: 1 })).rejects.toThrow(/^no record of the log has field 'ack'/);
  });

  it('library use: auditLog checks by default too', async () => {
    const items: LogItem[] = [{ kind: 'event', line: 1, event: { req: true } }];
    await expect(auditLog(items, { properties: [{ name: 'resp', formula: parseLtl('G (req -> X ack)') }] })).rejects.toBeInstanceOf(FieldCheckError);
  });
});

const corpus = corpusPath('cyoa-eval-logs');
describe.skipIf(!existsSync(join(corpus, 'forest_tsl.csv')))('the real forest_tsl.csv (wrong header)', () => {
  it('is refused without --columns instead of reporting ~100% false violations', async () => {
    const args = {
      spec: ['examples/audit/cyoa/adventure.ltl', 'examples/audit/cyoa/forest.ltl'],
      labels: 'examples/audit/cyoa/labels.json',
      log: join(corpus, 'forest_tsl.csv'),
      semantics: 'ltlf',
    };
    const d = await rejection(args);
    expect(d.file).toBe(args.log);
    expect(d.message).toMatch(/column 'InCave' .*appears 2 times/);
    expect(d.message).toMatch(/no column 'InMarket' \(read by proposition 'inMarket' of rules 'cave-after-market', 'visits-market'\)/);
    expect(await run({ ...base, ...args, columns: 'Run,Step,InCave,InMarket,InTown,InForest,Update,CurrentState,SafeChoice,SafeCount' })).toBe(1);
    expect(JSON.parse(out).runs).toHaveLength(75);
  });
});
