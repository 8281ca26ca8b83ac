/** `tslc audit --label-model`: propositions with a prompt are labelled by a (simulated) model. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/commands/audit.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { environments, generateLogs } from '../../examples/audit/generate.js';

let out = '';
let err = '';
beforeEach(() => {
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'tslc-label-model-'));
const log = join(dir, 'household.jsonl');
const generated = generateLogs(environments.household, 12, 5);
writeFileSync(log, generated.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
const base = {
  recovery: true,
  strict: false,
  json: true,
  semantics: 'ltlf',
  spec: ['examples/audit/household.ltl'],
  labels: 'examples/audit/household.labels.json',
  log,
};
type Report = { runs: { run: string; properties: { name: string; violations: number }[] }[] };
const verdicts = (r: Report) => r.runs.map((x) => [x.run, x.properties.map((p) => p.violations)]);

describe('tslc audit --label-model', () => {
  it('the simulated model without errors finds exactly what the symbolic labels find (the seeded violations)', async () => {
    const symbolic = await run(base);
    const bySymbols = JSON.parse(out) as Report;
    out = '';
    const modelled = await run({ ...base, 'label-model': 'sim' });
    const byModel = JSON.parse(out) as Report;
    expect(modelled).toBe(symbolic);
    expect(verdicts(byModel)).toEqual(verdicts(bySymbols));
    // Every seeded violation is found, and nothing else.
    for (const r of byModel.runs) {
      const found = r.properties.filter((p) => p.violations > 0).map((p) => p.name);
      expect(found).toEqual(generated.truth.has(r.run) ? [generated.truth.get(r.run)] : []);
    }
    expect(err).toMatch(/labels of .*switchOn.* by sim:label#0 \(simulated\): \d+ request\(s\)/);
  });

  it('noisy model labels change the verdicts (an auditor is only as good as its labels)', async () => {
    await run(base);
    const clean = verdicts(JSON.parse(out) as Report);
    out = '';
    await run({ ...base, 'label-model': 'sim:2?evaluatorError=0.3' });
    expect(verdicts(JSON.parse(out) as Report)).not.toEqual(clean);
  });

  it('the call budget stops the audit with exit 3 (verdicts unknown), naming the budget', async () => {
    expect(await run({ ...base, 'label-model': 'sim', 'label-budget': 5 })).toBe(3);
    expect(err).toMatch(/--label-model: LLM call budget of 5 calls is used up \(after 5 labelling request\(s\)\); the audit did not finish/);
  });

  it('a cache directory makes a second audit free', async () => {
    const cache = join(dir, 'cache');
    await run({ ...base, 'label-model': 'sim', 'label-cache': cache });
    const first = /(\d+) request\(s\), (\d+) cached/.exec(err)!;
    expect(Number(first[1])).toBe(generated.events.length);
    err = '';
    out = '';
    await run({ ...base, 'label-model': 'sim', 'label-cache': cache, 'label-budget': 1 });
    const second = /(\d+) request\(s\), (\d+) cached/.exec(err)!;
    expect([Number(second[1]), Number(second[2])]).toEqual([0, generated.events.length]);
  });

  it('refuses a labels file without prompts, and label flags without a model', async () => {
    const bare = join(dir, 'bare.labels.json');
    writeFileSync(bare, JSON.stringify({ groupBy: 'run', labels: { wash: { field: 'action', eq: 'wash' } } }));
    await expect(run({ ...base, labels: bare, 'label-model': 'sim' })).rejects.toSatisfy(
      (e: unknown) => e instanceof UserError && /--label-model needs prompts: .*bare.labels.json has no "prompts"/.test(e.message),
    );
    await expect(run({ ...base, 'label-budget': 3 })).rejects.toThrow(/--label-budget and --label-cache need --label-model/);
    await expect(run({ ...base, 'label-model': 'gpt4' })).rejects.toThrow(/--label-model: invalid model "gpt4"/);
  });
});
