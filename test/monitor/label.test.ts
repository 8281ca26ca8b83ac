import { describe, expect, it } from 'vitest';
import { LabelRuleError, MissingFieldError, functionLabeler, symbolicLabeler } from '../../runtime/monitor/label.js';
import { llmLabeler, parseLabelAnswer } from '../../runtime/monitor/llm-label.js';
import type { ChatMessage, Completion, Model } from '../../runtime/llm/model.js';

describe('symbolic labeler', () => {
  const label = symbolicLabeler({
    take: { field: 'action', eq: 'take' },
    room: { field: 'args.room', in: ['kitchen', 'bathroom'] },
    go: { field: 'text', matches: '^go\\b', flags: 'i' },
    hot: { field: 'temp', gt: 60 },
    cold: { field: 'temp', lte: 5 },
    flag: 'InCave',
    inc: { field: 'count', delta: 1 },
    both: { all: [{ field: 'action', eq: 'take' }, { not: { field: 'temp', gt: 60 } }] },
  });

  it('evaluates each operator', () => {
    const e = { action: 'take', args: { room: 'kitchen' }, text: 'Go north', temp: '70', InCave: '1', count: 3 };
    expect(label(e, { count: 2 })).toEqual({ take: true, room: true, go: true, hot: true, cold: false, flag: true, inc: true, both: false });
    const f = { action: 'drop', args: { room: 'garden' }, text: 'ago', temp: 4, InCave: '0', count: 3 };
    expect(label(f, { count: 3 })).toEqual({ take: false, room: false, go: false, hot: false, cold: true, flag: false, inc: false, both: false });
  });

  it('missing fields are false by default and an error on request', () => {
    expect(label({})).toMatchObject({ take: false, flag: false, hot: false });
    const strict = symbolicLabeler({ flag: 'InCave' }, { missing: 'error' });
    expect(() => strict({ other: 1 })).toThrow(MissingFieldError);
    expect(strict({ InCave: 'true' })).toEqual({ flag: true });
  });

  it('rejects malformed rules with a path', () => {
    expect(() => symbolicLabeler({ a: { field: 'x', equals: 1 } as never })).toThrow(/a: unknown operator 'equals'/);
    expect(() => symbolicLabeler({ a: { any: [{ field: 'x', matches: '(' }] } })).toThrow(LabelRuleError);
    expect(() => symbolicLabeler({ a: { field: 'x', gt: 'big' } as never })).toThrow(/needs a number/);
  });

  it('function labelers may return a set of true propositions', () => {
    const l = functionLabeler((e) => new Set(e.kind === 'x' ? ['isX'] : []));
    expect(l({ kind: 'x' })).toEqual({ isX: true });
    expect(l({ kind: 'y' })).toEqual({});
  });
});

describe('LLM labeler', () => {
  function fakeModel(answer: (prompt: string) => string): Model & { calls: number } {
    const m = {
      id: 'fake:judge',
      simulated: true,
      calls: 0,
      async complete(messages: readonly ChatMessage[]): Promise<Completion> {
        m.calls++;
        return { text: answer(messages[messages.length - 1].content), usage: {}, model: 'fake:judge', simulated: true };
      },
    };
    return m;
  }

  it('asks once per distinct event, parses the answers and caches', async () => {
    const model = fakeModel((p) => `inCave: ${p.split('Event:')[1].includes('cave') ? 'true' : 'false'}\ninTown: [False]`);
    const label = llmLabeler({ model, propositions: { inCave: 'the player is in a cave', inTown: 'the player is in a town' } });
    expect(await label({ text: 'a dark cave' })).toEqual({ inCave: true, inTown: false });
    expect(await label({ text: 'a market' })).toEqual({ inCave: false, inTown: false });
    expect(await label({ text: 'a dark cave' })).toEqual({ inCave: true, inTown: false });
    expect(model.calls).toBe(2);
  });

  it('a missing answer is false or an error, as chosen', async () => {
    const model = fakeModel(() => 'inCave: yes');
    const lenient = llmLabeler({ model, propositions: { inCave: 'cave', inTown: 'town' } });
    expect(await lenient({ t: 1 })).toEqual({ inCave: true, inTown: false });
    const strict = llmLabeler({ model, propositions: { inCave: 'cave', inTown: 'town' }, missing: 'error' });
    await expect(strict({ t: 2 })).rejects.toThrow(/inTown/);
  });

  it('parses common answer shapes', () => {
    expect([...parseLabelAnswer('- a: True\n* `b`: no\nc = 1\nd: maybe', ['a', 'b', 'c', 'd'])]).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
  });
});
