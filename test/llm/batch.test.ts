/** Batched predicate evaluation: one structured call per turn, single-call fallback for missing answers only. */
import { describe, expect, it } from 'vitest';
import { createController, type BatchRequest, type ControllerTable, type StepRecord } from '../../runtime/index.js';
import {
  batchPrompt,
  createLlmSession,
  llmPredicateBatcher,
  parseBatchAnswer,
  simulatedModel,
  type ChatMessage,
  type Completion,
  type Model,
  type PredicateTemplate,
} from '../../runtime/llm/index.js';
import { parseMarker, TurnContext } from '../../runtime/llm/template.js';
import { CYOA_PREDICATES } from '../../examples/cyoa/prompts.js';

/**
 * State 0 tests inCave, then inMarket (if in a cave) or inTown (if not); state 1 tests only inCave;
 * both go to state `next` of their leaf. Leaves are told apart by the next state.
 */
const table: ControllerTable = {
  name: 'tiny',
  signals: [
    { name: 's', role: 'input' },
    { name: 'out', role: 'output' },
  ],
  predicates: [
    { index: 0, proposition: 'inCave_s', fn: 'inCave', args: [{ kind: 'signal', name: 's' }], text: 'inCave s' },
    { index: 1, proposition: 'inMarket_s', fn: 'inMarket', args: [{ kind: 'signal', name: 's' }], text: 'inMarket s' },
    { index: 2, proposition: 'inTown_s', fn: 'inTown', args: [{ kind: 'signal', name: 's' }], text: 'inTown s' },
  ],
  updates: [{ index: 0, proposition: 'u_out_out', signal: 'out', term: { kind: 'signal', name: 'out' }, isSelfUpdate: true, text: '[out <- out]' }],
  initialState: 0,
  states: [
    {
      index: 0,
      decision: {
        kind: 'test',
        predicate: 0,
        whenTrue: { kind: 'test', predicate: 1, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [0], next: 1 } },
        whenFalse: { kind: 'test', predicate: 2, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [0], next: 1 } },
      },
    },
    { index: 1, decision: { kind: 'test', predicate: 0, whenTrue: { kind: 'leaf', updates: [0], next: 0 }, whenFalse: { kind: 'leaf', updates: [0], next: 1 } } },
  ],
};

/** Sync implementations that count their calls; truth: in a cave and a market, not in a town. */
function counting(truth: Record<string, boolean> = { inCave: true, inMarket: true, inTown: false }) {
  const calls: string[] = [];
  const impl = Object.fromEntries(Object.entries(truth).map(([name, value]) => [name, () => (calls.push(name), value)]));
  return { impl, calls };
}

describe('parseBatchAnswer', () => {
  const keys = ['inCave', 'inMarket', 'inTown'];
  it('reads a JSON object, inside prose or a code fence, and 0/1/true/false/"yes"', () => {
    expect([...parseBatchAnswer('{"inCave": 1, "inMarket": 0, "inTown": true}', keys)]).toEqual([['inCave', true], ['inMarket', false], ['inTown', true]]);
    expect([...parseBatchAnswer('Sure!\n```json\n{"inCave": "yes", "inTown": false}\n```', keys)]).toEqual([['inCave', true], ['inTown', false]]);
  });
  it('leaves out malformed values and keys not asked', () => {
    expect([...parseBatchAnswer('{"inCave": "unsure", "inMarket": 0.5, "inTown": 0, "other": 1}', keys)]).toEqual([['inTown', false]]);
  });
  it('salvages the complete pairs of malformed JSON (a reply cut off part-way)', () => {
    expect([...parseBatchAnswer('{"inCave": 1, "inMarket": 0, "inTo', keys)]).toEqual([['inCave', true], ['inMarket', false]]);
    expect([...parseBatchAnswer('{"inCave": 1, "inMarket": 0,, }', keys)]).toEqual([['inCave', true], ['inMarket', false]]);
    expect(parseBatchAnswer('I cannot tell.', keys).size).toBe(0);
  });
});

describe('batchPrompt', () => {
  it('quotes each distinct argument once and keys repeated predicates apart', () => {
    const templates = new Map<string, PredicateTemplate>(Object.entries(CYOA_PREDICATES));
    const requests: BatchRequest[] = [
      { index: 0, name: 'inCave', text: 'inCave s', args: ['the story'] },
      { index: 1, name: 'inTown', text: 'inTown s', args: ['the story'] },
      { index: 2, name: 'inCave', text: 'inCave p', args: ['a passage'] },
    ];
    const { messages, questions } = batchPrompt(requests, templates, { context: new TurnContext() });
    expect(parseMarker(messages[0].content)?.kind).toBe('batch');
    expect(questions.map((q) => q.key)).toEqual(['inCave', 'inTown', 'inCave_2']);
    expect(messages[1].content.split('the story').length - 1).toBe(1);
    expect(messages[1].content).toContain('- inCave_2 [inCave] (about text2): In this passage of an adventure story, is the main character actively in a cave?');
  });
});

describe('controller option batch', () => {
  it('answers the walk from one batch call: no single calls when every answer is there', async () => {
    const { impl, calls } = counting();
    const batches: BatchRequest[][] = [];
    const c = createController({ table, impl, initialSignals: { out: '' }, options: { batch: (rs) => (batches.push([...rs]), new Map(rs.map((r) => [r.index, r.name !== 'inTown']))) } });
    const record = await c.step({ s: 'x' });
    expect(batches).toHaveLength(1);
    expect(batches[0].map((r) => [r.index, r.name, r.args])).toEqual([[0, 'inCave', ['x']], [1, 'inMarket', ['x']], [2, 'inTown', ['x']]]);
    expect(calls).toEqual([]);
    expect(record.asked.map((a) => [a.text, a.value, a.batched])).toEqual([['inCave s', true, true], ['inMarket s', true, true]]);
    expect(record.speculative?.map((a) => a.text)).toEqual(['inTown s']);
    expect(record.batch).toEqual({ asked: 3, answered: 3, fallbacks: 0 });
    expect(record.stateAfter).toBe(0);
  });

  it('a missing or non-boolean answer is asked singly, and only when the walk needs it', async () => {
    const { impl, calls } = counting();
    // inMarket left out (the walk needs it: inCave is true), inTown malformed (the walk does not need it).
    const c = createController({
      table,
      impl,
      initialSignals: { out: '' },
      options: { batch: () => new Map<number, boolean>([[0, true], [2, 'maybe' as unknown as boolean]]) },
    });
    const record = await c.step({ s: 'x' });
    expect(calls).toEqual(['inMarket']);
    expect(record.asked.map((a) => [a.text, a.batched ?? false])).toEqual([['inCave s', true], ['inMarket s', false]]);
    expect(record.batch).toEqual({ asked: 3, answered: 1, fallbacks: 1 });
  });

  it('a state testing one predicate asks it the usual way; without the option nothing is batched', async () => {
    const { impl, calls } = counting({ inCave: true, inMarket: false, inTown: false });
    let batchCalls = 0;
    const c = createController({ table, impl, initialSignals: { out: '' }, options: { batch: (rs) => (batchCalls++, new Map(rs.map((r) => [r.index, r.name === 'inCave']))) } });
    const first = await c.step({ s: 'x' }); // state 0: batched; inCave & !inMarket → state 1
    expect(first.stateAfter).toBe(1);
    const second = await c.step({ s: 'x' }); // state 1: one predicate → single call
    expect(batchCalls).toBe(1);
    expect(calls).toEqual(['inCave']);
    expect(second.batch).toBeUndefined();
    const plain = counting();
    const d = createController({ table, impl: plain.impl, initialSignals: { out: '' } });
    expect((await d.step({ s: 'x' })).batch).toBeUndefined();
    expect(plain.calls).toEqual(['inCave', 'inMarket']);
  });

  it('only the names the batcher declares are sent; the others are called as usual and are no fallback', async () => {
    const { impl, calls } = counting({ inCave: false, inMarket: true, inTown: true });
    const sent: string[][] = [];
    const batch = Object.assign((rs: readonly BatchRequest[]) => (sent.push(rs.map((r) => r.name)), new Map(rs.map((r) => [r.index, false]))), {
      names: new Set(['inCave', 'inMarket']),
    });
    const record = await createController({ table, impl, initialSignals: { out: '' }, options: { batch } }).step({ s: 'x' });
    expect(sent).toEqual([['inCave', 'inMarket']]);
    expect(calls).toEqual(['inTown']);
    expect(record.batch).toEqual({ asked: 2, answered: 2, fallbacks: 0 });
  });

  it("the runtime's built-ins (`lt n 3`) are computed locally, never sent", async () => {
    const withBuiltin: ControllerTable = {
      ...table,
      signals: [...table.signals, { name: 'n', role: 'input' }],
      predicates: [
        table.predicates[0],
        table.predicates[1],
        { index: 2, proposition: 'lt_n_3', fn: 'lt', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 3 }], text: 'lt n 3' },
      ],
    };
    const { impl } = counting({ inCave: false, inMarket: true });
    const sent: string[][] = [];
    const record = await createController({
      table: withBuiltin,
      impl,
      initialSignals: { out: '' },
      options: { batch: (rs) => (sent.push(rs.map((r) => r.name)), new Map(rs.map((r) => [r.index, false]))) },
    }).step({ s: 'x', n: 1 });
    expect(sent).toEqual([['inCave', 'inMarket']]);
    expect(record.asked.map((a) => [a.text, a.value])).toEqual([['inCave s', false], ['lt n 3', true]]);
    expect(record.batch?.fallbacks).toBe(0);
  });

  it('a failing batch call fails the step and changes nothing', async () => {
    const { impl } = counting();
    const c = createController({ table, impl, initialSignals: { out: '' }, options: { batch: () => Promise.reject(new Error('provider down')) } });
    await expect(c.step({ s: 'x' })).rejects.toMatchObject({ name: 'StepError', call: { kind: 'predicate', name: '(batch)' } });
    expect(c.state).toBe(0);
    expect(c.stepCount).toBe(0);
  });
});

/** A scripted model: batch requests get `batchReply`, single predicate requests the truth as a digit. */
function scriptedModel(batchReply: string, truth: Record<string, boolean>) {
  const log: string[] = [];
  const model: Model = {
    id: 'script',
    simulated: true,
    async complete(messages: readonly ChatMessage[]): Promise<Completion> {
      const found = messages.map((m) => parseMarker(m.content)).find((m) => m !== undefined);
      const kind = found?.kind === 'batch' ? 'batch' : `predicate:${found?.name}`;
      log.push(kind);
      const text = kind === 'batch' ? batchReply : truth[found?.name ?? ''] ? '1' : '0';
      return { text, usage: { inputTokens: 10, outputTokens: 1 }, model: 'script', simulated: true };
    },
  };
  return { model, log };
}

describe('llmPredicateBatcher', () => {
  const truth = { inCave: true, inMarket: true, inTown: false };
  async function turn(batchReply: string): Promise<{ log: string[]; record: StepRecord }> {
    const { model, log } = scriptedModel(batchReply, truth);
    const session = createLlmSession({ model });
    const predicates = Object.fromEntries(Object.entries(CYOA_PREDICATES).map(([n, t]) => [n, session.predicate(t)]));
    const c = createController({ table, impl: predicates, initialSignals: { out: '' }, options: { batch: llmPredicateBatcher(session, CYOA_PREDICATES) } });
    const record = await c.step({ s: 'A story.' });
    return { log, record };
  }

  it('one call per turn when the JSON is complete', async () => {
    const { log, record } = await turn('{"inCave": 1, "inMarket": 1, "inTown": 0}');
    expect(log).toEqual(['batch']);
    expect(record.stateAfter).toBe(0);
  });

  it('malformed JSON: single calls for exactly the predicates it lost that the walk needs', async () => {
    const { log, record } = await turn('{"inCave": 1, "inMark');
    expect(log).toEqual(['batch', 'predicate:inMarket']);
    expect(record.batch).toEqual({ asked: 3, answered: 1, fallbacks: 1 });
    expect(record.stateAfter).toBe(0);
  });

  it('an unreadable reply falls back to the lazy single calls, with the same decision', async () => {
    const { log, record } = await turn('I would rather not say.');
    expect(log).toEqual(['batch', 'predicate:inCave', 'predicate:inMarket']);
    expect(record.asked.map((a) => a.value)).toEqual([true, true]);
  });
});

describe('the simulated model answers batch requests', () => {
  it('with the hidden facts of the quoted passage, leaving answers out at batchOmitRate', async () => {
    const sim = simulatedModel({ seed: 3, hallucinationRate: 0 });
    const session = createLlmSession({ model: sim });
    const passage = await session.generator({ name: 'toMarket', modifier: 'market', prompt: (v) => String(v.modifier) })();
    const requests: BatchRequest[] = ['inCave', 'inMarket', 'inTown'].map((name, index) => ({ index, name, text: `${name} s`, args: [passage] }));
    const answers = await llmPredicateBatcher(session, CYOA_PREDICATES)(requests);
    expect([...answers]).toEqual([[0, false], [1, true], [2, false]]);
    const lossy = createLlmSession({ model: simulatedModel({ seed: 3, hallucinationRate: 0, batchOmitRate: 1 }) });
    const p2 = await lossy.generator({ name: 'toMarket', modifier: 'market', prompt: (v) => String(v.modifier) })();
    expect((await llmPredicateBatcher(lossy, CYOA_PREDICATES)(requests.map((r) => ({ ...r, args: [p2] })))).size).toBe(0);
  });
});

describe('model strings', () => {
  it('sim:<seed>?batchOmit=…&batchMalformed=… set the simulated batch error rates', async () => {
    const { parseModelSpec, createModel } = await import('../../runtime/llm/config.js');
    expect(parseModelSpec('sim:4?batchOmit=0.05&batchMalformed=0.1')).toEqual({ kind: 'sim', seed: 4, batchOmitRate: 0.05, batchMalformedRate: 0.1 });
    const sim = createModel('sim:4?batchMalformed=1') as ReturnType<typeof simulatedModel>;
    expect(sim.options.batchMalformedRate).toBe(1);
  });
});

describe('batched and single evaluation on the adventure controller (simulated model)', () => {
  it('take the same decisions, with at most one judge call per turn when batched', async () => {
    const { loadTaskController } = await import('../../examples/cyoa/tasks.js');
    const { CYOA_FUNCTIONS, CYOA_SUMMARY } = await import('../../examples/cyoa/prompts.js');
    const { table } = await loadTaskController('adventure');
    const play = async (batched: boolean) => {
      const judgeCalls: number[] = [];
      let turnCalls = 0;
      const sim = simulatedModel({ seed: 11, hallucinationRate: 0 });
      const counted: Model = {
        id: sim.id,
        simulated: true,
        complete: async (messages, options) => {
          const kind = messages.map((m) => parseMarker(m.content)).find((m) => m !== undefined)?.kind;
          if (kind === 'predicate' || kind === 'batch') turnCalls++;
          return sim.complete(messages, options);
        },
      };
      const session = createLlmSession({ model: counted, seed: 11 });
      const empty = (v: unknown) => typeof v === 'string' && v.trim() === '';
      const impl: Record<string, (...args: unknown[]) => unknown> = {};
      for (const [n, t] of Object.entries(CYOA_PREDICATES)) {
        const ask = session.predicate(t);
        impl[n] = (...args) => (empty(args[0]) ? false : ask(...args));
      }
      for (const [n, t] of Object.entries(CYOA_FUNCTIONS)) impl[n] = session.generator(t);
      const batcher = llmPredicateBatcher(session, CYOA_PREDICATES);
      const batch = Object.assign(
        async (rs: readonly BatchRequest[]) => {
          const answers = new Map<number, boolean>(rs.filter((r) => empty(r.args[0])).map((r) => [r.index, false]));
          const asked = rs.filter((r) => !empty(r.args[0]));
          if (asked.length > 0) for (const [i, v] of await batcher(asked)) answers.set(i, v);
          return answers;
        },
        { names: batcher.names },
      );
      const c = createController<Record<string, unknown>, Record<string, unknown>>({
        table,
        impl,
        initialSignals: { storyPassage: '', safeCount: 0 },
        options: batched ? { batch } : {},
      });
      const summarize = session.summarizer(CYOA_SUMMARY);
      let summary = '';
      const states: number[] = [];
      for (let turn = 0; turn < 12; turn++) {
        turnCalls = 0;
        session.context.begin(turn, {});
        const offered: Record<string, unknown> = { s: summary, safe: turn % 2 === 0, safeThreshold: Number(c.signals.safeCount) >= 3 };
        const inputs = Object.fromEntries(table.signals.filter((x) => x.role === 'input' && x.name in offered).map((x) => [x.name, offered[x.name]]));
        const record = await c.step(inputs);
        judgeCalls.push(turnCalls);
        states.push(record.stateAfter);
        if (record.updates.some((u) => u.signal === 'storyPassage' && !u.isSelfUpdate)) summary = await summarize(summary, String(c.signals.storyPassage));
      }
      return { states, judgeCalls, story: summary };
    };
    const single = await play(false);
    const batched = await play(true);
    expect(batched.states).toEqual(single.states);
    expect(batched.story).toBe(single.story);
    expect(Math.max(...batched.judgeCalls)).toBe(1);
    expect(single.judgeCalls.reduce((a, b) => a + b, 0)).toBeGreaterThan(batched.judgeCalls.reduce((a, b) => a + b, 0));
  });
});
