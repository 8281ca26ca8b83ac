import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/audit.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { splitCsvLine } from '../../src/audit/logs.js';
import { renderDiagnostics, showableLine } from '../../src/diagnostics/sources.js';
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

const dir = mkdtempSync(join(tmpdir(), 'tslc-audit-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const base = { recovery: true, strict: false, json: false, semantics: 'ltl3' };

describe('tslc audit', () => {
  const rules = file('rules.ltl', '# demo\nresp: G (req -> X ack)\nsafe: G !(a & b)\n');

  it('reports per-run verdicts, first violation lines and counts; exit 1 on a violation', async () => {
    const log = file(
      'log.jsonl',
      [
        { run: 'r1', req: true },
        { run: 'r2', a: true },
        { run: 'r1', ack: true },
        { run: 'r2', a: true, b: true },
        { run: 'r1', req: true },
        { run: 'r1' },
        { run: 'r1', req: true },
        { run: 'r1' },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    // Sparse flags (a key only when true): runs never mention some propositions.
    const code = await run({ ...base, spec: [rules], log, 'group-by': 'run', json: true, missing: 'false' });
    expect(code).toBe(1);
    const report = JSON.parse(out);
    const r1 = report.runs.find((r: { run: string }) => r.run === 'r1');
    const resp = r1.properties[0];
    expect(resp).toMatchObject({ name: 'resp', verdict: 'violated', violations: 2, firstViolationStep: 3, firstViolationLine: 6 });
    // The witness holds every step that changed the progressed formula, up to the violation.
    expect(resp.witness.map((w: { step: number }) => w.step)).toEqual([0, 1, 2, 3]);
    expect(resp.witness[3]).toMatchObject({ at: 6, labels: [], formula: 'false' });
    const r2 = report.runs.find((r: { run: string }) => r.run === 'r2');
    expect(r2.properties[1]).toMatchObject({ verdict: 'violated', firstViolationLine: 4 });
    expect(report.summary).toEqual([
      expect.objectContaining({ property: 'resp', runs: 2, violatedRuns: 1, violations: 2 }),
      expect.objectContaining({ property: 'safe', runs: 2, violatedRuns: 1, violations: 1 }),
    ]);
  });

  it('exit 0 and a summary table when nothing is violated', async () => {
    const log = file('ok.jsonl', '{"req":true}\n{"ack":true}\n');
    expect(await run({ ...base, spec: [rules], log, missing: 'false' })).toBe(0);
    expect(out).toMatch(/resp\s+safety\s+1\s+0\s+0\.00%/);
    expect(out).toContain('LTL3');
  });

  it('skips malformed lines with their numbers, or stops on them with --strict', async () => {
    const log = file('bad.jsonl', '{"req":true}\nnot json\n[1,2]\n{"ack":true}\n');
    expect(await run({ ...base, spec: [rules], log, json: true, missing: 'false' })).toBe(0);
    const report = JSON.parse(out);
    expect(report.malformed.count).toBe(2);
    expect(report.malformed.first.map((m: { line: number }) => m.line)).toEqual([2, 3]);
    await expect(run({ ...base, spec: [rules], log, strict: true, missing: 'false' })).rejects.toSatisfy(
      (e: unknown) => e instanceof UserError && e.diagnostics[0].span?.line === 2,
    );
  });

  it('--strict shows the malformed line with a caret where JSON parsing stopped', async () => {
    const log = file('bad-strict.jsonl', '{"req":true}\n{"ack":1,}\n');
    const err = await run({ ...base, spec: [rules], log, strict: true, missing: 'false' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UserError);
    const d = (err as UserError).diagnostics[0];
    // "Expected double-quoted property name in JSON at position 9": the caret is under the '}'.
    expect(d.span).toMatchObject({ line: 2, col: 10 });
    const shown = renderDiagnostics((err as UserError).diagnostics);
    expect(shown).toContain(`${log}:2:10: error: malformed line (--strict)`);
    const lines = shown.split('\n');
    const at = lines.findIndex((l) => l.includes('{"ack":1,}'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1].indexOf('^') - lines[at].indexOf('{')).toBe(9);
  });

  it('--strict cuts a very long malformed line to a window around the caret', () => {
    const long = `{"a":"${'x'.repeat(5000)}",}`;
    const shown = showableLine(long, long.length);
    expect(shown!.text.length).toBeLessThanOrEqual(201);
    expect(shown!.text[shown!.col - 1]).toBe('}');
    expect(showableLine('short', 3)).toEqual({ text: 'short', col: 3 });
  });

  it('--missing error turns an event without a needed field into a malformed line', async () => {
    const labels = file('labels.json', JSON.stringify({ labels: { req: 'request' }, missing: 'error' }));
    const log = file('miss.jsonl', '{"request":1,"ack":0}\n{"ack":1}\n');
    const respOnly = file('resp.ltl', 'resp: G (req -> X ack)\n');
    await run({ ...base, spec: [respOnly], log, labels, json: true });
    const report = JSON.parse(out);
    expect(report.malformed.first[0]).toMatchObject({ line: 2 });
    expect(report.malformed.first[0].reason).toMatch(/request/);
  });

  it('rule syntax errors are diagnostics with file:line:col', async () => {
    const bad = file('bad.ltl', 'ok: G a\nbroken: G (a -> \n');
    await expect(run({ ...base, spec: [bad], log: file('x.jsonl', '{}\n') })).rejects.toSatisfy(
      (e: unknown) => e instanceof UserError && e.diagnostics[0].span?.file === bad && e.diagnostics[0].span?.line === 2,
    );
  });

  it('LTLf semantics judges the end of the log; CSV columns can be renamed', async () => {
    const r = file('ev.ltl', 'eventually: F done\n');
    const csv = file('log.csv', 'Run,Wrong\n1,0\n1,0\n2,0\n2,1\n');
    expect(await run({ ...base, spec: [r], log: csv, 'group-by': 'Run', semantics: 'ltl3', json: true, missing: 'false' })).toBe(0);
    expect(JSON.parse(out).summary[0]).toMatchObject({ pendingRuns: 2, violatedRuns: 0 });
    out = '';
    expect(await run({ ...base, spec: [r], log: csv, 'group-by': 'Run', semantics: 'ltlf', columns: 'Run,done', json: true })).toBe(1);
    expect(JSON.parse(out).summary[0]).toMatchObject({ violatedRuns: 1, satisfiedRuns: 1 });
  });

  it('contiguous runs: a reused run id starts a new run', async () => {
    const r = file('g.ltl', 'g: G ok\n');
    const csv = file('runs.csv', 'Run,ok\n1,1\n2,1\n1,0\n');
    await run({ ...base, spec: [r], log: csv, 'group-by': 'Run', contiguous: true, json: true });
    const report = JSON.parse(out);
    expect(report.runs.map((x: { run: string }) => x.run)).toEqual(['1', '2', '1@line4']);
  });

  it('--complete settles what progression leaves pending, with the automaton monitor', async () => {
    const r = file('incomplete.ltl', 'doomed: G (a -> X (F b & G !b))\n');
    const log = file('inc.jsonl', '{}\n{"a":true}\n{}\n{}\n');
    expect(await run({ ...base, spec: [r], log, json: true, missing: 'false' })).toBe(0);
    expect(JSON.parse(out).runs[0].properties[0].verdict).toBe('pending');
    out = '';
    expect(await run({ ...base, spec: [r], log, json: true, complete: true, missing: 'false' })).toBe(1);
    expect(JSON.parse(out).runs[0].properties[0]).toMatchObject({ verdict: 'violated', firstViolationLine: 2, decidedBy: 'automaton' });
  });

  it('splits quoted CSV fields', () => {
    expect(splitCsvLine('a,"b,c","d ""e""",')).toEqual(['a', 'b,c', 'd "e"', '']);
    expect(splitCsvLine('"open')).toBeUndefined();
  });
});

const corpus = corpusPath('cyoa-eval-logs');
describe.skipIf(!existsSync(join(corpus, 'adventure_tsl.csv')))('real CYOA logs (paper 000)', () => {
  it('adventure.tsl safety guarantees: the TSL agent violates them in 3 of 75 runs (4.00%, as the paper reports)', async () => {
    const code = await run({
      ...base,
      spec: ['examples/audit/cyoa/adventure.ltl'],
      labels: 'examples/audit/cyoa/labels.json',
      log: join(corpus, 'adventure_tsl.csv'),
      semantics: 'ltlf',
      json: true,
    });
    expect(code).toBe(1);
    const report = JSON.parse(out);
    expect(report.runs).toHaveLength(75);
    const unsafe = report.runs.filter((r: { properties: { name: string; violations: number }[] }) =>
      r.properties.some((p) => p.name.startsWith('cave-after') && p.violations > 0),
    );
    expect(unsafe).toHaveLength(3);
  });

  it('prompt-only agents hallucinate the cave in 13% (task 1) and 21% (task 3) of games, as paper 000 reports', async () => {
    const caveFirst = async (log: string, specs: string[]) => {
      out = '';
      await run({ ...base, spec: specs, labels: 'examples/audit/cyoa/labels.json', log: join(corpus, log), semantics: 'ltlf', json: true });
      const report = JSON.parse(out);
      return report.runs.filter((r: { properties: { name: string; violations: number }[] }) =>
        r.properties.some((p) => p.name.startsWith('cave-after') && p.violations > 0),
      ).length;
    };
    expect(await caveFirst('adventure_llm.csv', ['examples/audit/cyoa/adventure.ltl'])).toBe(10);
    expect(await caveFirst('choices_llm.csv', ['examples/audit/cyoa/adventure.ltl', 'examples/audit/cyoa/choices.ltl'])).toBe(16);
  });

  it('the wrong allspecs_llm header is fixed with --columns', async () => {
    const args = {
      ...base,
      spec: ['examples/audit/cyoa/adventure.ltl', 'examples/audit/cyoa/forest.ltl'],
      labels: 'examples/audit/cyoa/labels.json',
      log: join(corpus, 'allspecs_llm.csv'),
      json: true,
    };
    // The header names InCave twice and lacks InMarket: an error naming both, not an audit.
    await expect(run(args)).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof UserError &&
        e.diagnostics[0].span?.file === args.log &&
        /no column 'InMarket' \(read by proposition 'inMarket' of rules? 'cave-after-market'/.test(e.message) &&
        /column 'InCave' .*appears 2 times \(columns 3, 5\)/.test(e.message),
    );
    expect(await run({ ...args, missing: 'false' })).toBe(2);
    expect(JSON.parse(out).events).toBe(0);
    out = '';
    await run({ ...args, columns: 'Run,Step,InCave,InMarket,InTown,InForest,CurrentState,SafeChoice,SafeCount' });
    const report = JSON.parse(out);
    expect(report.malformed.count).toBe(0);
    expect(report.runs).toHaveLength(75);
  });
});
