/** The library's audit with model labels (the CLI's --label-model): labelling reported, budget → exit 3. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/api/audit.js';
import { environments, generateLogs } from '../../examples/audit/generate.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-api-label-'));
const log = join(dir, 'household.jsonl');
const generated = generateLogs(environments.household, 6, 3);
writeFileSync(log, generated.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
const base = { rules: 'examples/audit/household.ltl', labels: 'examples/audit/household.labels.json', semantics: 'ltlf' as const };

describe('audit({ labelModel })', () => {
  it('labels by the simulated model, agrees with the symbolic labels and reports the requests', async () => {
    const symbolic = await audit(log, base);
    const modelled = await audit(log, { ...base, labelModel: 'sim' });
    expect(modelled.exitCode).toBe(symbolic.exitCode);
    expect(modelled.report!.runs.map((r) => r.properties.map((p) => p.violations))).toEqual(symbolic.report!.runs.map((r) => r.properties.map((p) => p.violations)));
    expect(symbolic.labelling).toBeUndefined();
    expect(modelled.labelling).toMatchObject({ model: 'sim:label#0', simulated: true, calls: generated.events.length, cachedCalls: 0, budget: 1000 });
  });

  it('an exhausted budget: exit code 3, no report, the error says so', async () => {
    const r = await audit(log, { ...base, labelModel: 'sim', labelBudget: 2 });
    expect(r.exitCode).toBe(3);
    expect(r.report).toBeUndefined();
    expect(r.errors[0].message).toMatch(/budget of 2 calls is used up .*the audit did not finish/);
    expect(r.labelling?.calls).toBe(2);
  });

  it('label options without a model, or a bad budget, are input errors', async () => {
    expect((await audit(log, { ...base, labelBudget: 3 })).exitCode).toBe(2);
    expect((await audit(log, { ...base, labelModel: 'sim', labelBudget: 0 })).errors[0].message).toMatch(/--label-budget must be a positive whole number/);
  });
});
