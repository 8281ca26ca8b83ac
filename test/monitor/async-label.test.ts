/**
 * Async labelling end to end: `auditLog` and `InterveningMonitor` take labelers that answer with
 * promises (`llmLabeler`), and the simulated label model answers `llmLabeler`'s requests.
 */
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/audit/audit.js';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { InterveningMonitor } from '../../runtime/monitor/intervene.js';
import { type EventRecord, symbolicLabeler } from '../../runtime/monitor/label.js';
import { llmLabeler } from '../../runtime/monitor/llm-label.js';
import { simulatedLabelModel } from '../../runtime/monitor/sim-label.js';
import type { LogItem } from '../../src/audit/logs.js';

const items = (events: EventRecord[]): LogItem[] => events.map((event, i) => ({ kind: 'event', line: i + 1, event }));
const truth = symbolicLabeler({ drop: { field: 'action', eq: 'drop' }, take: { field: 'action', eq: 'take' } });
const dropModel = (errorRate = 0) => simulatedLabelModel({ truth, errorRate, seed: 3 });
const log = items([{ action: 'take' }, { action: 'drop' }, { action: 'take' }, { action: 'drop' }, { action: 'wait' }]);

describe('auditLog with an async labeler', () => {
  it('counts the two violations an LLM labeler finds (the plain-JS call used to report none)', async () => {
    const labeler = llmLabeler({ model: dropModel(), propositions: { drop: 'the agent drops something', take: 'the agent takes something' } });
    // Plain JS callers pass whatever they have; the type now admits it too.
    const report = await auditLog(log, { properties: [{ name: 'no-drop', formula: parseLtl('G !drop') }], labeler, semantics: 'ltlf' });
    expect(report.runs[0].properties[0]).toMatchObject({ verdict: 'violated', violations: 2, firstViolationStep: 1, firstViolationLine: 2 });
    expect(report.violatedRuns).toBe(1);
  });

  it('gives the same report with an async labeler as with the synchronous one it wraps', async () => {
    const properties = [
      { name: 'no-drop', formula: parseLtl('G !drop') },
      { name: 'take-then-drop', formula: parseLtl('G (take -> X drop)') },
    ];
    const sync = await auditLog(log, { properties, labeler: truth, semantics: 'ltlf' });
    const async = await auditLog(log, { properties, labeler: async (e) => truth(e), semantics: 'ltlf' });
    expect(async.runs).toEqual(sync.runs);
    expect(async.summary).toEqual(sync.summary);
  });

  it('delegates prompted propositions to the model and reads the rest from fields', async () => {
    const events = items([
      { run: 'a', action: 'take', alarm: false },
      { run: 'a', action: 'drop', alarm: true },
      { run: 'b', action: 'take', alarm: false },
    ]);
    const model = dropModel();
    const report = await auditLog(events, {
      properties: [{ name: 'no-drop-without-alarm', formula: parseLtl('G (drop -> alarm)') }, { name: 'no-alarm', formula: parseLtl('G !alarm') }],
      groupBy: 'run',
      delegate: { propositions: ['drop'], labeler: llmLabeler({ model, propositions: { drop: 'the agent drops something' } }) },
    });
    expect(report.runs.map((r) => [r.run, r.properties.map((p) => p.violations)])).toEqual([
      ['a', [0, 1]],
      ['b', [0, 0]],
    ]);
    expect(model.calls).toBe(3);
  });

  it('the field check leaves delegated propositions out: a log without a "drop" field is fine', async () => {
    const properties = [{ name: 'no-drop', formula: parseLtl('G !drop') }];
    await expect(auditLog(log, { properties })).rejects.toThrow(/no record of the log has field 'drop'/);
    const report = await auditLog(log, {
      properties,
      delegate: { propositions: ['drop'], labeler: llmLabeler({ model: dropModel(), propositions: { drop: 'drops something' } }) },
    });
    expect(report.runs[0].properties[0].violations).toBe(2);
  });

  it('a reply missing a proposition makes that event a malformed line, not a false label', async () => {
    const model = simulatedLabelModel({ truth, omitRate: 1 });
    const report = await auditLog(log, {
      properties: [{ name: 'no-drop', formula: parseLtl('G !drop') }],
      labeler: llmLabeler({ model, propositions: { drop: 'drops' }, missing: 'error' }),
    });
    expect(report.events).toBe(0);
    expect(report.malformed.count).toBe(5);
    expect(report.malformed.first[0].reason).toMatch(/no answer for proposition 'drop'/);
  });

  it('the simulated label model flips answers at its error rate', async () => {
    const many = items(Array.from({ length: 400 }, (_, i) => ({ action: i % 2 === 0 ? 'drop' : 'take', i })));
    let wrong = 0;
    const label = llmLabeler({ model: dropModel(0.2), propositions: { drop: 'drops' } });
    for (const item of many) if (item.kind === 'event' && (await label(item.event)).drop !== truth(item.event).drop) wrong++;
    expect(wrong / 400).toBeGreaterThan(0.14);
    expect(wrong / 400).toBeLessThan(0.26);
  });
});

describe('InterveningMonitor with an async labeler', () => {
  it('counts violations from labels that arrive as promises', async () => {
    const outputs = ['ok', 'bad', 'ok', 'bad', 'bad'];
    let i = 0;
    const m = new InterveningMonitor<string, string>({
      properties: [{ name: 'no-bad', formula: parseLtl('G !bad') }],
      generate: () => outputs[i++],
      // An LLM labeler's shape: a promise per turn.
      label: async (turn) => ({ bad: turn.output === 'bad' }),
      strategy: 'none',
      emptyInput: '',
    });
    for (let k = 0; k < outputs.length; k++) await m.step('go');
    expect(m.violations()).toEqual({ 'no-bad': 3 });
  });

  it('predicts with async labels too (resampling avoids a predicted violation)', async () => {
    let calls = 0;
    const m = new InterveningMonitor<string, string>({
      properties: [{ name: 'no-bad', formula: parseLtl('G !bad') }],
      // Every other candidate is bad.
      generate: () => (calls++ % 2 === 0 ? 'bad' : 'ok'),
      label: (turn) => Promise.resolve(new Set(turn.output === 'bad' ? ['bad'] : [])),
      strategy: 'resample',
      threshold: 0.3,
      samples: 2,
      emptyInput: '',
    });
    const entry = await m.step('go');
    expect(entry.intervention?.kind).toBe('resample');
    expect(entry.output).toBe('ok');
    expect(m.violations()).toEqual({ 'no-bad': 0 });
  });
});
