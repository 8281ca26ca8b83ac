/** Safety and liveness rules are told apart and counted apart in the audit summary. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/audit/audit.js';
import { propertyKinds, syntacticSafety } from '../../src/audit/kind.js';
import { renderReport } from '../../src/audit/report.js';
import type { LogItem } from '../../src/audit/logs.js';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { LOG_FILES, countFile, countTable } from '../../examples/audit/cyoa/count.js';
import { corpusPath } from '../support/corpus.js';

describe('property kinds', () => {
  it('recognises the syntactic safety fragment, with polarity', () => {
    for (const f of ['G !drop', '!inCave W inMarket', 'inForest', 'G ((a & b) <-> c)', 'G (a -> X b)', '!(a U b)', '!F a', 'a R b', '!(a M b)', 'G (e -> !X f)'])
      expect([f, syntacticSafety(parseLtl(f))]).toEqual([f, true]);
    for (const f of ['F a', 'G (a -> F b)', 'a U b', '!(a W b)', '!G a', 'a M b', '!(a R b)', 'G (a <-> F b)', '(!c W k) & G (k -> F c)'])
      expect([f, syntacticSafety(parseLtl(f))]).toEqual([f, false]);
  });

  it('classifies safety, liveness and other exactly', async () => {
    const formulas = ['G !drop', 'F a', 'G (a -> F b)', 'G F a', '(!cut W takeKnife) & G (takeKnife -> F cut)', 'G (threshold & inCave -> F inTown)', 'a U b'];
    expect(await propertyKinds(formulas.map((f) => parseLtl(f)))).toEqual(['safety', 'liveness', 'liveness', 'liveness', 'other', 'liveness', 'other']);
  });

  it('recognises safety outside the syntactic fragment, as Spot does (ltlfilt --safety)', async () => {
    // "No q before p" (Dwyer's absence-before pattern), an unsatisfiable property (the empty set
    // has the empty bad prefix) and one whose F is vacuous.
    const formulas = ['F p -> (!q U p)', 'F a & G !a', 'G F a & F G !a', 'G (a | F false)', 'G (a -> (b U c))'];
    for (const f of formulas.slice(0, 4)) expect([f, syntacticSafety(parseLtl(f))]).toEqual([f, false]);
    expect(await propertyKinds(formulas.map((f) => parseLtl(f)))).toEqual(['safety', 'safety', 'safety', 'safety', 'other']);
  });
});

const items = (events: Record<string, unknown>[]): LogItem[] => events.map((event, i) => ({ kind: 'event', line: i + 1, event }));

describe('the audit summary counts safety and liveness violations apart', () => {
  // Run 1 breaks only the safety rule, run 2 only the liveness rule, run 3 both, run 4 neither.
  const log = items([
    { run: 1, bad: true, done: true },
    { run: 2, bad: false, done: false },
    { run: 3, bad: true, done: false },
    { run: 4, bad: false, done: true },
  ]);
  const properties = [
    { name: 'never-bad', formula: parseLtl('G !bad') },
    { name: 'finishes', formula: parseLtl('F done') },
  ];

  it('per kind in the report and its JSON', async () => {
    const report = await auditLog(log, { properties, groupBy: 'run', semantics: 'ltlf' });
    expect(report.summary.map((s) => [s.property, s.kind, s.violatedRuns])).toEqual([
      ['never-bad', 'safety', 2],
      ['finishes', 'liveness', 2],
    ]);
    expect(report.violatedRuns).toBe(3);
    expect(report.violatedRunsByKind).toEqual({ safety: 2, liveness: 2, other: 0 });
    const text = renderReport(report);
    expect(text).toMatch(/^\(any safety rule\) +4 +2 +50\.00%$/m);
    expect(text).toMatch(/^\(any liveness rule\) +4 +2 +50\.00%$/m);
    expect(text).not.toMatch(/any property|any other rule/);
  });

  it('an "other" rule gets its own row', async () => {
    const report = await auditLog(log, { properties: [...properties, { name: 'mixed', formula: parseLtl('!done W bad & F bad') }], groupBy: 'run', semantics: 'ltlf' });
    expect(report.summary[2].kind).toBe('other');
    expect(renderReport(report)).toMatch(/^\(any other rule\) +4 +\d+/m);
  });
});

const corpus = corpusPath('cyoa-eval-logs');
describe.skipIf(!existsSync(join(corpus, 'adventure_tsl.csv')))('the GPT-4 adventure logs, counted as the papers count them', () => {
  it('"any safety rule" is the papers\' figure, and docs/monitoring.md shows exactly what count.ts prints', async () => {
    const counts = [];
    for (const f of LOG_FILES) counts.push(await countFile(f, corpus));
    expect(counts.map((c) => [c.file, c.runs, c.safety])).toEqual([
      ['adventure_tsl.csv', 75, 3],
      ['adventure_llm.csv', 75, 10],
      ['forest_tsl.csv', 75, 4],
      ['forest_llm.csv', 75, 7],
      ['choices_tsl.csv', 71, 4],
      ['choices_llm.csv', 75, 69],
      ['allspecs_llm.csv', 75, 73],
    ]);
    const docs = readFileSync(join(import.meta.dirname, '../../docs/monitoring.md'), 'utf8');
    expect(docs).toContain(countTable(counts));
  }, 60_000);
});
