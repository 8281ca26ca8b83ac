import { describe, expect, it } from 'vitest';
import {
  createController,
  jsonlTraceWriter,
  replay,
  StepError,
  type ControllerTable,
  type SpanLike,
  type StepRecord,
  type TracerLike,
} from '../../runtime/index.js';
import { buildControllerTable } from '../../src/codegen/table.js';
import { P, tinyMachine, tinySpec, U } from '../codegen/fixtures.js';

const table = buildControllerTable(tinySpec, tinyMachine);

interface Signals {
  mood: string;
  summary: string;
  count: number;
  passage: string;
}

/** An implementation whose predicate answers come from a script, recording every call. */
function scripted(answers: { cave?: boolean[]; town?: boolean[] }) {
  const calls: string[] = [];
  const cave = [...(answers.cave ?? [])];
  const town = [...(answers.town ?? [])];
  const impl = {
    inCave: (s: string) => {
      calls.push(`inCave(${s})`);
      return cave.shift() ?? false;
    },
    inTown: (s: string) => {
      calls.push(`inTown(${s})`);
      return town.shift() ?? false;
    },
    happy: (m: string) => {
      calls.push(`happy(${m})`);
      return m === 'good';
    },
    toCave: (s: string) => {
      calls.push(`toCave(${s})`);
      return `cave after ${s}`;
    },
    toTown: (s: string) => {
      calls.push(`toTown(${s})`);
      return `town after ${s}`;
    },
    summarize: (s: string, p: string) => {
      calls.push(`summarize(${s},${p})`);
      return `${s}+${p}`;
    },
  };
  return { impl, calls };
}

const initial = { summary: 's0', count: 0, passage: 'p0' };

describe('controller.step', () => {
  it('asks only the predicates the decision needs and calls the chosen functions', async () => {
    const { impl, calls } = scripted({ cave: [false] });
    const c = createController<Signals, Pick<Signals, 'mood'>>({ table, impl, initialSignals: initial, options: { telemetry: false } });
    const record = await c.step();
    expect(calls).toEqual(['inCave(s0)', 'toCave(s0)']);
    expect(record.asked.map((a) => [a.index, a.value])).toEqual([[P.cave, false]]);
    expect(record.notNeeded).toEqual([P.town, P.happy]);
    expect(record.updates.map((u) => u.index)).toEqual([U.sumKeep, U.cntInc, U.toCave]);
    expect(c.signals).toEqual({ summary: 's0', count: 1, passage: 'cave after s0' });
    expect(c.state).toBe(0);
    expect(c.stepCount).toBe(1);
  });

  it('lets every update read the old signal values', async () => {
    const { impl, calls } = scripted({ cave: [true] });
    const c = createController<Signals, Pick<Signals, 'mood'>>({ table, impl, initialSignals: initial, options: { telemetry: false } });
    await c.step();
    // summarize sees the passage from before this step, not toTown's new one.
    expect(calls).toContain('summarize(s0,p0)');
    expect(c.signals).toEqual({ summary: 's0+p0', count: 0, passage: 'town after s0' });
    expect(c.state).toBe(1);
  });

  it('supports async predicates and functions and queues overlapping steps', async () => {
    const delay = <T,>(v: T) => new Promise<T>((r) => setTimeout(() => r(v), 2));
    const impl = {
      inCave: () => delay(false),
      inTown: () => delay(false),
      happy: () => delay(true),
      toCave: (s: string) => delay(`${s}!`),
      toTown: (s: string) => delay(s),
      summarize: (s: string) => delay(s),
    };
    const c = createController<Signals, Pick<Signals, 'mood'>>({ table, impl, initialSignals: initial, options: { telemetry: false } });
    const [a, b] = await Promise.all([c.step(), c.step()]);
    expect([a.step, b.step]).toEqual([0, 1]);
    expect(c.signals.passage).toBe('s0!');
    expect(c.signals.count).toBe(2);
  });

  it('uses the built-in add unless the implementation overrides it', async () => {
    const { impl } = scripted({ cave: [false] });
    const c = createController<Signals, object>({ table, impl: { ...impl, add: (a: number, b: number) => a + 10 * b }, initialSignals: initial, options: { telemetry: false } });
    await c.step();
    expect(c.signals.count).toBe(10);
  });

  it('reports a missing implementation when the controller is created', () => {
    const { impl } = scripted({});
    const { toTown: _omitted, ...partial } = impl;
    expect(() => createController({ table, impl: partial, initialSignals: initial })).toThrow(/toTown/);
  });
});

describe('failure atomicity', () => {
  it('a throwing function leaves state, signals, step count and trace unchanged', async () => {
    const { impl } = scripted({ cave: [true, true] });
    let fail = true;
    const failing = {
      ...impl,
      summarize: (s: string, p: string) => {
        if (fail) throw new Error('LLM unavailable');
        return `${s}+${p}`;
      },
    };
    const errors: StepError[] = [];
    const c = createController<Signals, object>({ table, impl: failing, initialSignals: initial, options: { telemetry: false, onError: (e) => errors.push(e) } });
    const before = { state: c.state, signals: c.signals, steps: c.stepCount, snapshot: JSON.stringify(c.snapshot()) };
    const error = await c.step().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    expect((error as StepError).call).toMatchObject({ kind: 'function', name: 'summarize', site: '[summary <- summarize summary passage]', attempts: 1 });
    expect(errors).toHaveLength(1);
    // toTown already ran and returned a value, yet passage must not have changed.
    expect({ state: c.state, signals: c.signals, steps: c.stepCount, snapshot: JSON.stringify(c.snapshot()) }).toEqual(before);
    expect(c.trace).toHaveLength(0);
    fail = false;
    await c.step();
    expect(c.signals).toEqual({ summary: 's0+p0', count: 0, passage: 'town after s0' });
  });

  it('a predicate returning a non-boolean fails the step and names the predicate', async () => {
    const { impl } = scripted({});
    const c = createController<Signals, object>({ table, impl: { ...impl, inCave: () => 'yes' as unknown as boolean }, initialSignals: initial, options: { telemetry: false } });
    const error = (await c.step().catch((e: unknown) => e)) as StepError;
    expect(error.call).toMatchObject({ kind: 'predicate', name: 'inCave' });
    expect(error.message).toMatch(/not a boolean/);
    expect(c.stepCount).toBe(0);
  });

  it('retries failed calls and times out hanging ones', async () => {
    const { impl } = scripted({ cave: [false, false] });
    let attempts = 0;
    const flaky = {
      ...impl,
      toCave: async (s: string) => {
        attempts++;
        if (attempts < 3) throw new Error('transient');
        return `ok ${s}`;
      },
    };
    const c = createController<Signals, object>({ table, impl: flaky, initialSignals: initial, options: { retries: 2, telemetry: false } });
    await c.step();
    expect(attempts).toBe(3);
    expect(c.signals.passage).toBe('ok s0');

    const hanging = { ...impl, inCave: () => new Promise<boolean>(() => undefined) };
    const h = createController<Signals, object>({ table, impl: hanging, initialSignals: initial, options: { timeoutMs: 20, retries: 1, telemetry: false } });
    const error = (await h.step().catch((e: unknown) => e)) as StepError;
    expect(error).toBeInstanceOf(StepError);
    expect(error.call).toMatchObject({ name: 'inCave', attempts: 2 });
    expect(error.message).toMatch(/timed out/);
    expect(h.stepCount).toBe(0);
  });
});

/** Deterministic pseudo-random answers, so two controllers can be driven identically. */
function lcgImpl(seed: number) {
  let x = seed;
  const bit = () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 16) % 2 === 1;
  };
  return {
    inCave: () => bit(),
    inTown: () => bit(),
    happy: () => bit(),
    toCave: (s: string) => `c${s.length}`,
    toTown: (s: string) => `t${s.length}`,
    summarize: (s: string, p: string) => `${s.slice(-5)}|${p}`,
  };
}

describe('snapshot / restore', () => {
  it('a restored controller continues exactly like the original', async () => {
    const a = createController<Signals, object>({ table, impl: lcgImpl(7), initialSignals: initial, options: { telemetry: false } });
    for (let i = 0; i < 25; i++) await a.step();
    const json = JSON.stringify(a.snapshot());
    // Same answer stream position: rebuild the impl and consume the same number of answers.
    const b = createController<Signals, object>({ table, impl: lcgImpl(7), initialSignals: { summary: 'other', count: 99 }, options: { telemetry: false } });
    for (let i = 0; i < 25; i++) await b.step();
    b.restore(json);
    expect(b.state).toBe(a.state);
    expect(b.signals).toEqual(a.signals);
    expect(b.stepCount).toBe(25);
    for (let i = 0; i < 25; i++) {
      const [ra, rb] = [await a.step(), await b.step()];
      expect({ ...rb, startedAt: 0, durationMs: 0, asked: rb.asked.map((x) => x.value) }).toEqual({
        ...ra,
        startedAt: 0,
        durationMs: 0,
        asked: ra.asked.map((x) => x.value),
        updates: ra.updates.map((u, k) => ({ ...u, ms: rb.updates[k].ms })),
      });
      expect(b.signals).toEqual(a.signals);
    }
  });

  it('refuses a snapshot of a different table or a malformed one', () => {
    const c = createController<Signals, object>({ table, impl: lcgImpl(1), initialSignals: initial, options: { telemetry: false } });
    const other: ControllerTable = { ...table, initialState: 1 };
    const d = createController<Signals, object>({ table: other, impl: lcgImpl(1), initialSignals: initial, options: { telemetry: false } });
    expect(() => d.restore(c.snapshot())).toThrow(/different controller table/);
    expect(() => c.restore('{"format":"nope"}')).toThrow(/not a tslc controller snapshot/);
    expect(() => c.restore({ ...c.snapshot(), state: 9 })).toThrow(/out of range/);
  });
});

describe('restore validates every field of a snapshot', () => {
  const fresh = () => createController<Signals, object>({ table, impl: lcgImpl(1), initialSignals: initial, options: { telemetry: false } });
  /** The error `restore` throws for `edit(snapshot)`, after checking the controller did not change. */
  async function refusal(edit: (snapshot: Record<string, unknown>) => unknown): Promise<{ field: unknown; message: string }> {
    const c = fresh();
    for (let i = 0; i < 3; i++) await c.step();
    const before = JSON.stringify({ state: c.state, signals: c.signals, steps: c.stepCount });
    const snapshot = JSON.parse(JSON.stringify(c.snapshot())) as Record<string, unknown>;
    const input = edit(snapshot);
    let caught: unknown;
    try {
      c.restore((typeof input === 'string' ? input : JSON.stringify(input ?? snapshot)) as string);
    } catch (err) {
      caught = err;
    }
    expect(JSON.stringify({ state: c.state, signals: c.signals, steps: c.stepCount })).toBe(before);
    expect(caught).toBeInstanceOf(TypeError);
    return { field: (caught as { field?: unknown }).field, message: (caught as Error).message };
  }
  const without = (key: string) => (s: Record<string, unknown>) => {
    delete s[key];
    return s;
  };
  const set = (key: string, value: unknown) => (s: Record<string, unknown>) => ({ ...s, [key]: value });
  const setSignal = (key: string, value: unknown) => (s: Record<string, unknown>) => ({ ...s, signals: { ...(s.signals as object), [key]: value } });

  const cases: [string, (s: Record<string, unknown>) => unknown, string, RegExp][] = [
    ['a negative step', set('step', -5), 'step', /`step` must be the number of steps taken \(a non-negative integer\), not the number -5/],
    ['a text step', set('step', 'abc'), 'step', /`step` .* not the string "abc"/],
    ['a fractional step', set('step', 1.5), 'step', /`step`/],
    ['no step', without('step'), 'step', /`step` .* not nothing/],
    ['no signals', without('signals'), 'signals', /`signals` must be an object of signal values, not nothing/],
    ['signals as an array', set('signals', []), 'signals', /not an array/],
    ['an unknown signal', setSignal('bogus', 1), 'signals.bogus', /"bogus", which is not a signal of tiny/],
    ['a missing cell', (s) => ({ ...s, signals: { summary: 'x' } }), 'signals.count', /lacks the cell "count"/],
    ['a state given as text', set('state', '1'), 'state', /`state` must be a state index \(an integer from 0 to 1\), not the string "1"/],
    ['a fractional state', set('state', 0.5), 'state', /not the number 0.5/],
    ['a negative state', set('state', -1), 'state', /`state` -1 is out of range: the table has states 0 to 1/],
    ['a state past the table', set('state', 9), 'state', /`state` 9 is out of range/],
    ['a newer version', set('version', 2), 'version', /snapshot version 2 is newer than this runtime reads/],
    ['a version given as text', set('version', '1'), 'version', /`version` must be 1, not the string "1"/],
    ['another format', set('format', 'nope'), 'format', /not a tslc controller snapshot/],
    ['an unknown field', set('extra', true), 'extra', /unknown field `extra`/],
    ['a table name that is not text', set('table', 3), 'table', /`table` must be/],
    ['another fingerprint', set('fingerprint', 'tiny:1:00000000'), 'fingerprint', /different controller table/],
    ['text that is not JSON', () => '{"format":', '', /the snapshot text is not JSON/],
    ['JSON that is not an object', () => '[1]', '', /a snapshot is an object, not an array/],
  ];
  for (const [what, edit, field, message] of cases)
    it(`refuses ${what}, naming the field`, async () => {
      const r = await refusal(edit);
      expect(r.message).toMatch(message);
      expect(r.field).toBe(field);
    });

  it('refuses signal values JSON cannot carry, in a snapshot object and when taking one', async () => {
    const c = fresh();
    const snapshot = c.snapshot();
    expect(() => c.restore({ ...snapshot, signals: { ...snapshot.signals, summary: () => 1 } })).toThrow(/signal "summary" is a function, which JSON cannot carry/);
    const broken = createController<Signals, object>({ table, impl: { ...lcgImpl(1), summarize: () => undefined }, initialSignals: initial, options: { telemetry: false } });
    for (let i = 0; i < 30 && broken.signals.summary !== undefined; i++) await broken.step();
    expect(broken.signals.summary).toBeUndefined();
    expect(() => broken.snapshot()).toThrow(/cannot snapshot tiny: signal "summary" is nothing, which JSON cannot carry/);
  });

  it('still restores a valid snapshot, also one with inputs and outputs left out', async () => {
    const a = fresh();
    for (let i = 0; i < 5; i++) await a.step();
    const b = fresh();
    const snap = a.snapshot();
    b.restore({ ...snap, signals: { summary: snap.signals.summary, count: snap.signals.count } });
    expect([b.state, b.stepCount, b.signals.count, b.signals.summary]).toEqual([a.state, 5, a.signals.count, a.signals.summary]);
  });
});

describe('traces and replay', () => {
  it('a recorded JSONL trace replays against the table; a tampered one does not', async () => {
    const lines: string[] = [];
    const c = createController<Signals, object>({ table, impl: lcgImpl(3), initialSignals: initial, options: { telemetry: false, onStep: jsonlTraceWriter({ write: (s: string) => lines.push(s) }) } });
    for (let i = 0; i < 40; i++) await c.step();
    const text = lines.join('');
    expect(lines).toHaveLength(40);
    const result = replay(table, text);
    expect(result).toEqual({ ok: true, steps: 40, mismatches: [] });

    const records = text.trim().split('\n').map((l) => JSON.parse(l) as StepRecord);
    const k = records.findIndex((r) => r.asked.length > 0);
    const tampered = records.map((r, i) => (i === k ? { ...r, asked: r.asked.map((a, j) => (j === 0 ? { ...a, value: !a.value } : a)) } : r));
    const bad = replay(table, tampered);
    expect(bad.ok).toBe(false);
    expect(bad.mismatches.some((m) => m.step === records[k].step)).toBe(true);

    const skipped = replay(table, records.filter((_, i) => i !== 5));
    expect(skipped.ok).toBe(false);
  });

  it('parallel mode decides the same way and records speculative answers', async () => {
    const { impl, calls } = scripted({ cave: [true, true], town: [false] });
    const par = createController<Signals, object>({ table, impl, initialSignals: initial, options: { parallel: true, telemetry: false } });
    const first = await par.step(); // state 0's diagram only mentions inCave
    expect(first.asked.map((a) => a.index)).toEqual([P.cave]);
    expect(first.speculative ?? []).toEqual([]);
    const second = await par.step(); // state 1: inTown and inCave start together; inTown=false decides
    expect(second.asked.map((a) => [a.index, a.value])).toEqual([[P.town, false]]);
    expect(second.speculative?.map((a) => [a.index, a.value])).toEqual([[P.cave, true]]);
    expect(calls.filter((c) => c.startsWith('in'))).toHaveLength(3);
    expect(second.updates.map((u) => u.index)).toEqual([U.sumKeep, U.cntKeep, U.passKeep]);
    expect(replay(table, [first, second]).ok).toBe(true);
    // Lazy mode asks inTown only in the same situation.
    const lazy = scripted({ cave: [true, true], town: [false] });
    const seq = createController<Signals, object>({ table, impl: lazy.impl, initialSignals: initial, options: { telemetry: false } });
    await seq.step();
    const lazySecond = await seq.step();
    expect(lazySecond.speculative).toBeUndefined();
    expect(lazy.calls.filter((c) => c.startsWith('in'))).toHaveLength(2);
  });
});

describe('explain', () => {
  it('names both predicates as decisive for state 1 (inTown, not inCave)', async () => {
    const { impl } = scripted({ cave: [true, false], town: [true] });
    const c = createController<Signals, object>({ table, impl, initialSignals: initial, options: { telemetry: false } });
    await c.step(); // state 0, inCave → state 1
    const record = await c.step(); // state 1: inTown, then inCave=false → toCave + summarize + count+1
    expect(record.stateBefore).toBe(1);
    const why = c.explain(record);
    expect(why.decisive.map((d) => [d.text, d.value])).toEqual([
      ['inTown summary', true],
      ['inCave summary', false],
    ]);
    expect(why.chosen).toEqual(['[summary <- summarize summary passage]', '[count <- add count 1]', '[passage <- toCave summary]']);
     // The spec lines the choice serves, with their file (the table records it).
    expect(why.specLines).toEqual([6]);
    expect(why.specSites).toEqual(['tiny.tsl:6']);
    // A stored record that no longer matches the table keeps its bare line numbers.
    expect(c.explain({ ...record, specLines: [99] }).specSites).toEqual(['line 99']);
  });

  it('leaves out a predicate that only steers the next state', async () => {
    const hand: ControllerTable = {
      name: 'hand',
      signals: [{ name: 'x', role: 'output' }],
      predicates: [{ index: 0, proposition: 'p', fn: 'p', args: [], text: 'p' }],
      updates: [{ index: 0, proposition: 'u', signal: 'x', term: { kind: 'call', fn: 'f', args: [] }, isSelfUpdate: false, text: '[x <- f]' }],
      initialState: 0,
      states: [
        { index: 0, decision: { kind: 'test', predicate: 0, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [0], next: 1 } } },
        { index: 1, decision: { kind: 'leaf', updates: [0], next: 1 } },
      ],
    };
    const c = createController<{ x: string }, object>({ table: hand, impl: { p: () => true, f: () => 'v' }, initialSignals: {}, options: { telemetry: false } });
    const why = c.explain(await c.step());
    expect(why.decisive).toEqual([]);
    expect(why.incidental.map((d) => d.text)).toEqual(['p']);
  });
});

describe('inputs and observability', () => {
  const withInput: ControllerTable = {
    name: 'input',
    signals: [{ name: 'mood', role: 'input' }, { name: 'reply', role: 'output' }],
    predicates: [{ index: 0, proposition: 'h', fn: 'happy', args: [{ kind: 'signal', name: 'mood' }], text: 'happy mood' }],
    updates: [
      { index: 0, proposition: 'a', signal: 'reply', term: { kind: 'call', fn: 'cheer', args: [{ kind: 'signal', name: 'mood' }] }, isSelfUpdate: false, text: '[reply <- cheer mood]' },
      { index: 1, proposition: 'b', signal: 'reply', term: { kind: 'literal', value: 'sorry' }, isSelfUpdate: false, text: '[reply <- "sorry"]' },
    ],
    initialState: 0,
    states: [{ index: 0, decision: { kind: 'test', predicate: 0, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [1], next: 0 } } }],
  };
  const impl = { happy: (m: string) => m === 'good', cheer: (m: string) => `yay ${m}` };

  it('reads input signals given to step() and fails cleanly without them', async () => {
    const c = createController<{ mood: string; reply: string }, { mood: string }>({ table: withInput, impl, initialSignals: {}, options: { telemetry: false, recordSignals: true } });
    const missing = (await c.step().catch((e: unknown) => e)) as StepError;
    expect(missing.call).toMatchObject({ kind: 'input', name: 'mood' });
    const r = await c.step({ mood: 'good' });
    expect(r.signalsAfter).toEqual({ mood: 'good', reply: 'yay good' });
    await c.step({ mood: 'bad' });
    expect(c.signals.reply).toBe('sorry');
    const unknown = (await c.step({ nope: 1 } as unknown as { mood: string }).catch((e: unknown) => e)) as StepError;
    expect(unknown.call.kind).toBe('input');
  });

  it('calls onStep and opens a span per step and per user call', async () => {
    const spans: { name: string; ended: boolean; attributes: Record<string, unknown> }[] = [];
    const tracer: TracerLike = {
      startSpan(name, options) {
        const span = { name, ended: false, attributes: { ...(options?.attributes ?? {}) } };
        spans.push(span);
        const like: SpanLike = {
          setAttribute: (k, v) => (span.attributes[k] = v),
          setStatus: () => undefined,
          recordException: () => undefined,
          end: () => {
            span.ended = true;
          },
        };
        return like;
      },
    };
    const seen: number[] = [];
    const c = createController<{ mood: string; reply: string }, { mood: string }>({ table: withInput, impl, initialSignals: {}, options: { telemetry: tracer, onStep: (r) => seen.push(r.step) } });
    await c.step({ mood: 'good' });
    expect(seen).toEqual([0]);
    expect(spans.map((s) => s.name)).toEqual(['tslc.controller.step', 'tslc.predicate', 'tslc.function']);
    expect(spans.every((s) => s.ended)).toBe(true);
    expect(spans[0].attributes['tslc.updates']).toBe('[reply <- cheer mood]');
  });
});
