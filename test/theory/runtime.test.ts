/**
 * A controller synthesized under a theory, at run time and in its generated module: the runtime
 * evaluates the built-ins the theory fixes itself (integers only under #LIA, values only for
 * #UF's equality), an implementation of the same name is not used, and the module's types leave
 * them out and type the integer signals as numbers. Plus the CLI's view: `check --show-theory`,
 * `--theory`, JSON, and theory facts in an explanation.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createController, StepError, type ControllerTable } from '../../runtime/index.js';
import { compileSpecs } from '../../src/codegen/pipeline.js';
import { runTslc } from '../support/cli.js';

afterEach(() => {
  process.exitCode = undefined;
});

/** One state: `n < 3` decides between incrementing and resetting. */
const table = (theory?: 'LIA' | 'UF'): ControllerTable => ({
  name: 'counter',
  ...(theory ? { theory } : {}),
  signals: [{ name: 'n', role: 'cell' }],
  predicates: [{ index: 0, proposition: 'lt_n_3', fn: 'lt', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 3 }], text: 'lt n 3' }],
  updates: [
    { index: 0, proposition: 'inc', signal: 'n', term: { kind: 'call', fn: 'add', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 1 }] }, isSelfUpdate: false, text: '[n <- add n 1]' },
    { index: 1, proposition: 'reset', signal: 'n', term: { kind: 'literal', value: 0 }, isSelfUpdate: false, text: '[n <- 0]' },
  ],
  initialState: 0,
  states: [{ index: 0, decision: { kind: 'test', predicate: 0, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [1], next: 0 } } }],
});

describe('the runtime under a theory', () => {
  it('#LIA: the built-ins are the integers\', whatever the implementation says', async () => {
    const liar = { lt: () => true, add: () => 100 };
    const c = createController<{ n: number }, object>({ table: table('LIA'), impl: liar, initialSignals: { n: 2 } });
    await c.step();
    expect(c.signals.n).toBe(3);
    await c.step();
    expect(c.signals.n).toBe(0);
    // Without a theory the implementation's versions are used (the old meaning).
    const free = createController<{ n: number }, object>({ table: table(), impl: liar, initialSignals: { n: 2 } });
    await free.step();
    expect(free.signals.n).toBe(100);
  });

  it('#LIA refuses values that are not integers (the step fails, nothing changes)', async () => {
    const c = createController<{ n: number }, object>({ table: table('LIA'), impl: {}, initialSignals: { n: 2.5 } });
    const error = await c.step().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect(String((error as StepError).cause)).toContain('not an integer');
    expect(c.signals.n).toBe(2.5);
    const big = createController<{ n: number }, object>({ table: table('LIA'), impl: {}, initialSignals: { n: -Number.MAX_SAFE_INTEGER } });
    const eqTable: ControllerTable = { ...table('LIA'), predicates: [{ ...table().predicates[0], fn: 'eq' }] };
    await big.step();
    const strings = createController<{ n: unknown }, object>({ table: eqTable, impl: {}, initialSignals: { n: 'three' } });
    await strings.step(); // eq of a string and 3 is false, not an error
    expect(strings.signals.n).toBe(0);
  });

  it('#UF: equality compares values, never objects', async () => {
    const eqTable: ControllerTable = { ...table('UF'), predicates: [{ ...table().predicates[0], fn: 'eq' }] };
    const c = createController<{ n: unknown }, object>({ table: eqTable, impl: { eq: () => true }, initialSignals: { n: { value: 3 } } });
    const error = await c.step().catch((e: unknown) => e);
    expect(String((error as StepError).cause)).toContain('not an object');
  });
});

describe('the generated module under #LIA', () => {
  it('types the counter as a number and leaves the fixed built-ins out of the implementation', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tslc-theory-'));
    const outcome = await compileSpecs({ files: ['test/fixtures/theories/retry-escalate.tsl'], outDir: out, runtimeImport: 'tslc/runtime' });
    expect(outcome.kind).toBe('ok');
    if (outcome.kind !== 'ok') return;
    const src = outcome.source;
    expect(src).toMatch(/\/\*\* cell signal `n` \(an integer: #LIA\) \*\/\n\s+n: number;/);
    expect(src).toContain('theory: "LIA"');
    expect(src).not.toMatch(/readonly (lt|gte|add|eq)\?:/);
    expect(src).toContain('readonly failed: (reply: S["reply"]) => boolean | Promise<boolean>;');
    expect(src).toContain('Under #LIA the runtime evaluates add, sub, mul, eq, lt, gt, lte, gte itself');
  }, 60_000);
});

describe('tslc and the theory', () => {
  const spec = 'test/fixtures/theories/retry-escalate.tsl';

  it('check counts the facts, --show-theory lists them with where they come from', async () => {
    const counted = await runTslc('check', spec);
    expect(counted.code).toBe(0);
    expect(counted.stdout).toMatch(/: realizable \(.*\)\n  assumed from #LIA: \d+ facts \(--show-theory lists them\)\n/);
    const listed = await runTslc('check', '--show-theory', spec);
    expect(listed.stdout).toMatch(/  assumed from #LIA \(retry-escalate.tsl:1\): \d+ facts\n/);
    expect(listed.stdout).toContain('    consistency  n < 3 and n >= 3 cannot both hold');
    expect(listed.stdout).toContain('    update       [n <- 0] makes n < 3 true next');
  }, 60_000);

  it('--theory none reads the spec without its theory (unrealizable), --theory lia a spec without a header', async () => {
    const none = await runTslc('check', '--no-explain', '--theory', 'none', spec);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('unrealizable');
    expect(none.stdout).not.toContain('assumed from');
    const json = await runTslc('check', '--json', '--show-theory', '--theory', 'lia', spec);
    const obj = JSON.parse(json.stdout) as { verdict: string; theory: { name: string; facts: Array<{ kind: string; fact: string }> } };
    expect(obj.verdict).toBe('realizable');
    expect(obj.theory.name).toBe('#LIA');
    expect(obj.theory.facts).toContainEqual({ kind: 'consistency', fact: 'n < 3 or n >= 3 always holds' });
  }, 60_000);

  it('an explanation names the theory facts it was stated against', async () => {
    const r = await runTslc('explain', 'test/fixtures/theories/increment-past-bound.tsl');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('increment-past-bound.tsl:1  assumed from #LIA: x = 0 implies x < 3');
  }, 60_000);
});

describe('the HTML report of a theory spec', () => {
  it('lists the facts assumed from #LIA', async () => {
    const { buildReport } = await import('../../src/report/build.js');
    const html = await buildReport(['test/fixtures/theories/retry-escalate.tsl'], { timeoutMs: 60_000 });
    expect(html).toContain('<h2>Assumed from #LIA</h2>');
    expect(html).toContain('<span class="kind">consistency</span> n &lt; 3 and n &gt;= 3 cannot both hold');
  }, 60_000);
});
