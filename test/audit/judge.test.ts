/** The LLM-as-judge baseline and its F1 harness (paper 002, Table 2 shape): simulated and scripted judges only. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { environments, generateLogs } from '../../examples/audit/generate.js';
import { f1Row, judgeAgainstMonitor, judgeRules, ruleCommentDescriptions } from '../../src/audit/judge.js';
import type { LogItem } from '../../src/audit/logs.js';
import { parseLabelsFile, parseRules } from '../../src/audit/rules.js';
import { run } from '../../src/cli/commands/judge.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import type { ChatMessage, Completion, Model } from '../../runtime/llm/model.js';
import { judgePrompt, parseJudgeAnswer } from '../../runtime/monitor/llm-judge.js';
import { judgeRequestActions, judgeRequestRules } from '../../runtime/monitor/sim-judge.js';

const env = environments.household;
const generated = generateLogs(env, 30, 7);
const items: LogItem[] = generated.events.map((event, i) => ({ kind: 'event', line: i + 1, event }));
const rules = parseRules(readFileSync('examples/audit/household.ltl', 'utf8'), 'household.ltl');
const labels = parseLabelsFile(readFileSync('examples/audit/household.labels.json', 'utf8'), 'household.labels.json');
const base = { properties: rules.properties, labels: labels.labels, prompts: labels.prompts, groupBy: 'run', semantics: 'ltlf' as const };

/** A scripted judge: answers every judge request with `reply(actions, rules)`. */
function scripted(reply: (actions: string[], rules: string[]) => string): Model & { calls: number } {
  const model = {
    id: 'script:judge',
    simulated: true,
    calls: 0,
    async complete(messages: readonly ChatMessage[]): Promise<Completion> {
      model.calls++;
      const text = messages.map((m) => m.content).join('\n');
      return { text: reply(judgeRequestActions(text) ?? [], judgeRequestRules(text)), usage: {}, model: 'script:judge', simulated: true };
    },
  };
  return model;
}

describe('parseJudgeAnswer', () => {
  const rs = [{ name: 'no-drop', text: 'never drop' }, { name: 'stay-in-kitchen', text: 'never go' }];
  it('reads findings by rule number and by name, several per line, and ignores unknown rules and actions', () => {
    const reply = [
      'Action 1: COMPLIANT',
      '- Action 2: drop carrot - VIOLATION: Rule 1 - SATISFACTION: Rule stay-in-kitchen',
      '**Action 3**: VIOLATION: Rule 9',
      'Action 7: VIOLATION: Rule 2',
      'Action 3: violates rule Stay-In-Kitchen.',
    ].join('\n');
    const a = parseJudgeAnswer(reply, rs, 3);
    expect(a.readable).toBe(true);
    expect(a.findings).toEqual([
      { rule: 0, kind: 'violation', step: 1 },
      { rule: 1, kind: 'satisfaction', step: 1 },
      { rule: 1, kind: 'violation', step: 2 },
    ]);
  });
  it('a reply without any action line is unreadable, not "compliant"', () => {
    expect(parseJudgeAnswer('I think the agent mostly followed the rules.', rs, 3)).toEqual({ findings: [], readable: false });
  });
});

describe('f1Row', () => {
  it('computes precision, recall and F1, with undefined ratios as null', () => {
    expect(f1Row('p', 6, 2, 4)).toMatchObject({ monitor: 10, judge: 8, precision: 0.75, recall: 0.6 });
    expect(f1Row('p', 6, 2, 4).f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35, 12);
    expect(f1Row('p', 0, 0, 5)).toMatchObject({ precision: null, recall: 0, f1: 0 });
    expect(f1Row('p', 0, 0, 0)).toMatchObject({ precision: null, recall: null, f1: null });
  });
});

describe('judgeAgainstMonitor', () => {
  it('the judge is told every rule in English with the propositions it uses explained', () => {
    const [first] = judgeRules(rules.properties, labels.prompts);
    expect(first.name).toBe('water-in-bathroom');
    expect(first.text).toMatch(/wash/);
    expect(first.text).toMatch(/wash: the action washes something/);
    const prompt = judgePrompt(judgeRules(rules.properties, labels.prompts), ['action=walk, room=kitchen']);
    expect(prompt[0].content).toContain('<!-- tslc:judge -->');
    expect(prompt[1].content).toContain('Rule 6 (wash-only-in-bathroom):');
    expect(prompt[1].content).toContain('<actions>\n1. action=walk, room=kitchen\n</actions>');
  });

  it("the paper's English statements (`# Rule N:` comments right above a rule) are what the judge is told", async () => {
    const household = ruleCommentDescriptions(readFileSync('examples/audit/household.ltl', 'utf8'));
    expect(household.size).toBe(6);
    expect(household.get('water-in-bathroom')).toBe('use water only in the bathroom (the kitchen sink is out of order).');
    // Recipe's comments are notes, not `Rule N:` statements: its rules keep the formula reading.
    expect(ruleCommentDescriptions(readFileSync('examples/audit/recipe.ltl', 'utf8')).size).toBe(0);
    expect(ruleCommentDescriptions('# Rule 1: never drop\n\nno-drop: G !drop\n# Rule 2: stay\nstay: G !go').get('no-drop')).toBeUndefined();
    let seen = '';
    const judge = scripted((actions) => actions.map((_, i) => `Action ${i + 1}: COMPLIANT`).join('\n'));
    const spy = { ...judge, complete: (m: readonly ChatMessage[]) => ((seen = m[1].content), judge.complete(m)) };
    await judgeAgainstMonitor(items.slice(0, 20), { ...base, model: spy, descriptions: household });
    expect(seen).toContain('Rule 1 (water-in-bathroom): use water only in the bathroom (the kitchen sink is out of order).');
  });

  it('a perfect simulated judge scores F1 = 1, and its violation instances are exactly the seeded violations', async () => {
    const report = await judgeAgainstMonitor(items, { ...base, model: 'sim' });
    expect(report.simulated).toBe(true);
    expect(report.model).toBe('sim:judge#0');
    expect(report.runs).toBe(30);
    expect(report.calls).toBe(30);
    expect(report.total.f1).toBe(1);
    expect(report.byKind.violation.monitor).toBe(generated.truth.size);
    for (const row of report.rows) {
      expect(row.fp + row.fn).toBe(0);
      // LTLf: each run satisfies each rule at its end, after a violation too (TRAC_R restarts it), or violates it.
      expect(row.monitor).toBeGreaterThanOrEqual(30);
      expect(row.tp).toBe(row.monitor);
    }
  });

  it('a noisy simulated judge misses and invents findings; the monitor side does not move', async () => {
    const clean = await judgeAgainstMonitor(items, { ...base, model: 'sim' });
    const noisy = await judgeAgainstMonitor(items, { ...base, model: 'sim:3?evaluatorError=0.3' });
    expect(noisy.total.monitor).toBe(clean.total.monitor);
    expect(noisy.total.fp).toBeGreaterThan(0);
    expect(noisy.total.fn).toBeGreaterThan(0);
    expect(noisy.total.f1).toBeLessThan(0.9);
    expect(noisy.total.tp + noisy.total.fn).toBe(clean.total.tp);
  });

  it('scores a scripted judge that names exactly the seeded violations: violations F1 = 1, satisfactions all missed', async () => {
    // The judge sees no run ids; it knows each run by its action texts (equal texts have equal seeded rules).
    const seededByText = new Map<string, string | undefined>();
    for (const r of new Set(generated.events.map((e) => e.run))) {
      const text = generated.events
        .filter((e) => e.run === r)
        .map((e) => Object.entries(e).filter(([k]) => k !== 'run' && k !== 'step').map(([k, v]) => `${k}=${v}`).join(', '))
        .join('\n');
      seededByText.set(text, generated.truth.get(String(r)));
    }
    const judge = scripted((actions, names) => {
      if (!seededByText.has(actions.join('\n'))) throw new Error('unknown run');
      const seeded = seededByText.get(actions.join('\n'));
      const rule = seeded === undefined ? -1 : names.indexOf(seeded);
      return actions.map((_, i) => `Action ${i + 1}: ${i === 0 && rule >= 0 ? `VIOLATION: Rule ${rule + 1}` : 'COMPLIANT'}`).join('\n');
    });
    const report = await judgeAgainstMonitor(items, { ...base, model: judge });
    expect(judge.calls).toBe(30);
    expect(report.byKind.violation).toMatchObject({ fp: 0, fn: 0, f1: 1 });
    expect(report.byKind.satisfaction).toMatchObject({ tp: 0, recall: 0, precision: null });
  });

  it('with labelModel, also scores TRAC_R on model labels: perfect labels give F1 = 1, noisy labels less', async () => {
    const exact = await judgeAgainstMonitor(items, { ...base, model: 'sim', labelModel: 'sim' });
    expect(exact.monitorWithModelLabels).toMatchObject({ labelModel: 'sim:label#0', simulated: true, requests: items.length, total: { f1: 1 } });
    const noisy = await judgeAgainstMonitor(items, { ...base, model: 'sim', labelModel: 'sim:4?evaluatorError=0.05' });
    expect(noisy.monitorWithModelLabels?.total.f1).toBeLessThan(1);
    expect(noisy.monitorWithModelLabels?.total.monitor).toBe(exact.total.monitor);
    // The judge's scores do not depend on the labeller.
    expect(noisy.total).toEqual(exact.total);
  });

  it('unreadable judge replies count as unreadable and as no findings', async () => {
    const judge = scripted(() => 'The log looks fine to me.');
    const report = await judgeAgainstMonitor(items, { ...base, model: judge });
    expect(report.unreadable).toBe(30);
    expect(report.total.tp).toBe(0);
    expect(report.total.recall).toBe(0);
  });

  it('stops at the call budget instead of scoring a partial run set', async () => {
    await expect(judgeAgainstMonitor(items, { ...base, model: 'sim', maxCalls: 5 })).rejects.toMatchObject({ kind: 'budget-exhausted' });
  });
});

describe('tslc judge', () => {
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
  const dir = mkdtempSync(join(tmpdir(), 'tslc-judge-'));
  const log = join(dir, 'household.jsonl');
  writeFileSync(log, generated.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const args = { spec: ['examples/audit/household.ltl'], labels: 'examples/audit/household.labels.json', semantics: 'ltlf', log };

  it('prints the table, labelled as simulated', async () => {
    expect(await run({ ...args, 'judge-model': 'sim:2?evaluatorError=0.2' })).toBe(0);
    expect(out).toContain('SIMULATED judge');
    expect(out).toMatch(/\| water-in-bathroom \| 3\d \| \d+ \| \d+ \| \d+ \| \d+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
    expect(out).toContain('| (all properties) |');
  });

  it('--json gives the report object', async () => {
    expect(await run({ ...args, 'judge-model': 'sim', json: true })).toBe(0);
    const report = JSON.parse(out) as { runs: number; simulated: boolean; total: { f1: number } };
    expect(report).toMatchObject({ runs: 30, simulated: true, total: { f1: 1 } });
  });

  it('--label-model adds the TRAC_R + model labels table; its failures name --label-model', async () => {
    expect(await run({ ...args, 'label-model': 'sim:1?evaluatorError=0.02' })).toBe(0);
    expect(out).toMatch(/TRAC_R monitor on model labels \(label model sim:label#1, SIMULATED, 600 request\(s\)\)/);
    expect(await run({ ...args, 'label-model': 'sim', 'label-budget': 3 })).toBe(3);
    expect(err).toMatch(/--label-model: LLM call budget of 3 calls is used up; the harness did not finish/);
    await expect(run({ ...args, 'label-model': 'gpt4' })).rejects.toThrow(/--label-model: invalid model "gpt4"/);
    await expect(run({ ...args, 'label-budget': 3 })).rejects.toThrow(/--label-budget needs --label-model/);
  });

  it('an exhausted budget is exit 3 with a message; a bad budget or model is an input error', async () => {
    expect(await run({ ...args, 'judge-budget': 2 })).toBe(3);
    expect(err).toMatch(/judge-model: .*budget of 2 calls/);
    await expect(run({ ...args, 'judge-budget': 0 })).rejects.toThrow(UserError);
    await expect(run({ ...args, 'judge-model': 'nonsense:x' })).rejects.toThrow(/--judge-model: invalid model/);
  });
});

describe('judge (library, from the tslc entry)', () => {
  const text = generated.events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const options = { rules: 'examples/audit/household.ltl', labels: 'examples/audit/household.labels.json', semantics: 'ltlf' as const };

  it('scores a judge on a log given as text, with the CLI’s exit code and report', async () => {
    const { judge } = await import('../../src/index.js');
    const r = await judge({ text, path: 'household.jsonl' }, { ...options, judgeModel: 'sim' });
    expect(r.errors).toEqual([]);
    expect(r.exitCode).toBe(0);
    expect(r.report).toMatchObject({ runs: 30, simulated: true, total: { f1: 1 } });
  });

  it('bad input is an input error in `errors`, never thrown; an exhausted budget is exit 3 without a report', async () => {
    const { judge } = await import('../../src/index.js');
    // A run without the fields the rules read: a misnamed field, located in the log.
    const bad = await judge({ text: '{"run":"r1"}\n', path: 'bad.jsonl' }, options);
    expect(bad.exitCode).toBe(2);
    expect(bad.errors[0]).toMatchObject({ code: 'missing-field', message: expect.stringMatching(/has field 'room'/), span: { file: 'bad.jsonl', line: 1 } });
    const missing = await judge('/nonexistent/log.jsonl', options);
    expect(missing.exitCode).toBe(2);
    const budget = await judge({ text }, { ...options, judgeBudget: 2 });
    expect(budget.exitCode).toBe(3);
    expect(budget.report).toBeUndefined();
    expect(budget.errors[0].message).toMatch(/--judge-model: .*budget of 2 calls.*did not finish/);
  });
});
