/** Loop caps (the paper caps ReACT at 3 loops) and runs that end with an answer within maxSteps. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AgentSpecError,
  acceptsSequence,
  compileBehavior,
  parseAgentSpec,
  reactAgent,
  reflexionAgent,
  runAgent,
  shortestToFinal,
  endpoints,
  type AgentSpec,
} from '../../runtime/agent/index.js';
import type { ChatMessage, Completion, Model } from '../../runtime/llm/model.js';

const LOOP = ['Thought', 'Action', 'Action-Input', 'Observation'];

/** A model that never names a next state: every reply is plain text without a marker. */
function stubbornModel(): Model & { calls: number } {
  const m = {
    id: 'test:stubborn',
    simulated: true,
    calls: 0,
    async complete(_messages: readonly ChatMessage[]): Promise<Completion> {
      m.calls++;
      return { text: 'I should keep searching.', usage: {}, model: 'test:stubborn', simulated: true };
    },
  };
  return m;
}

describe('loop caps in the behavior', () => {
  it('(:max-loops N) and (until … :max N) bound the loops; the paper behavior stays unbounded', () => {
    const capped = compileBehavior(reactAgent(undefined, { maxLoops: 3 }));
    const free = compileBehavior(reactAgent());
    const loops = (n: number) => [...Array.from({ length: n }, () => LOOP).flat(), 'Final-Thought', 'Answer'];
    expect([0, 1, 2, 3, 4].map((n) => acceptsSequence(capped, loops(n)))).toEqual([true, true, true, true, false]);
    expect(acceptsSequence(free, loops(4))).toBe(true);
    const spec = parseAgentSpec(
      '(define a (:states (T (:text "T:")) (O (:text "O:")) (F (:text "F:"))) (:behavior (next (until (next T O) F :max 2) F)) (:max-loops 5))',
    );
    expect(spec.maxLoops).toBe(5);
    const a = compileBehavior(spec);
    expect(acceptsSequence(a, ['T', 'O', 'T', 'O', 'F', 'F'])).toBe(true);
    expect(acceptsSequence(a, ['T', 'O', 'T', 'O', 'T', 'O', 'F', 'F'])).toBe(false); // the loop's own max wins
    expect(acceptsSequence(compileBehavior(spec, { unbounded: true }), ['T', 'O', 'T', 'O', 'T', 'O', 'F', 'F'])).toBe(true);
  });

  it('nested loops are capped each (Reflexion: the inner ReACT loop and the outer reflection loop)', () => {
    const a = compileBehavior(reflexionAgent(), { maxLoops: 1 });
    const round = [...LOOP, 'Final-Thought', 'Answer', 'Evaluator', 'Reflection'];
    expect(acceptsSequence(a, [...round, 'Finish'])).toBe(true);
    expect(acceptsSequence(a, [...round, ...round, 'Finish'])).toBe(false);
    expect(acceptsSequence(a, [...LOOP, ...LOOP, 'Final-Thought', 'Answer', 'Evaluator', 'Reflection', 'Finish'])).toBe(false);
  });

  it('rejects caps that are not whole numbers of loops', () => {
    expect(() => parseAgentSpec('(define a (:states (T (:text "T:"))) (:behavior (until T T :max 0)))')).toThrow(AgentSpecError);
    expect(() => parseAgentSpec('(define a (:states (T (:text "T:"))) (:behavior (next T :max 2)))')).toThrow(/:max is allowed only in \(until/);
    expect(() => compileBehavior(reactAgent(), { maxLoops: 1.5 })).toThrow(/whole number/);
    const objectForm: AgentSpec = { name: 'o', states: [{ name: 'T', text: 'T:' }, { name: 'F', text: 'F:' }], behavior: { until: ['T', 'F'], max: 0 } };
    expect(() => compileBehavior(objectForm)).toThrow(/whole number/);
  });

  it('large caps stay small automata: 200 loops accepted, 201 refused; nested caps too', () => {
    const a = compileBehavior(reactAgent(undefined, { maxLoops: 200 }));
    const loops = (n: number) => [...Array.from({ length: n }, () => LOOP).flat(), 'Final-Thought', 'Answer'];
    expect(acceptsSequence(a, loops(200))).toBe(true);
    expect(acceptsSequence(a, loops(201))).toBe(false);
    const r = compileBehavior(reflexionAgent(), { maxLoops: 50 });
    const round = (k: number) => [...Array.from({ length: k }, () => LOOP).flat(), 'Final-Thought', 'Answer', 'Evaluator', 'Reflection'];
    const rounds = (n: number, k: number) => [...Array.from({ length: n }, () => round(k)).flat(), 'Finish'];
    expect(acceptsSequence(r, rounds(50, 50))).toBe(true);
    expect(acceptsSequence(r, rounds(51, 1))).toBe(false);
    expect(acceptsSequence(r, rounds(1, 51))).toBe(false);
  });

  it('an LTL behavior has no loops to cap: a cap is refused, not ignored', () => {
    const spec: AgentSpec = { name: 'l', states: [{ name: 'P', text: 'P:' }, { name: 'D', text: 'D:' }], behavior: { ltl: 'P & F D' } };
    expect(() => compileBehavior(spec, { maxLoops: 3 })).toThrow(/LTL behavior has none/);
    expect(() => parseAgentSpec('(define a (:states (P (:text "P:")) (D (:text "D:"))) (:behavior "P & F D") (:max-loops 2))')).toThrow(AgentSpecError);
    expect(acceptsSequence(compileBehavior(spec), ['P', 'P', 'D'])).toBe(true);
  });

  it('finds the shortest way to the final state', () => {
    const a = compileBehavior(reactAgent());
    let q = a.step(a.start, 'Thought')!;
    expect(shortestToFinal(a, q, 'Answer')).toEqual({ length: 5, first: 'Action' });
    for (const s of ['Action', 'Action-Input', 'Observation']) q = a.step(q, s)!;
    expect(shortestToFinal(a, q, 'Answer')).toEqual({ length: 2, first: 'Final-Thought' });
  });
});

describe('runAgent leaves a loop on its own', () => {
  it('a model that never names a next state is taken through 3 loops to the answer (maxLoops 3)', async () => {
    const model = stubbornModel();
    const run = await runAgent(reactAgent(['Search'], { maxLoops: 3 }), model, () => 'nothing found', { task: 'Question: ?' });
    expect(run.steps.map((s) => s.state)).toEqual([...LOOP, ...LOOP, ...LOOP, 'Final-Thought', 'Answer']);
    expect(run.complete).toBe(true);
    expect(run.stopReason).toBe('final-state');
    expect(run.answer).toBe('I should keep searching.');
    expect(run.corrections.filter((c) => c.kind === 'loop-capped')).toHaveLength(1);
    // Two choices per loop were asked and not answered before the cap took over.
    expect(run.corrections.filter((c) => c.kind === 'choice-forced')).toHaveLength(2);
  });

  it('a model writing the loop marker at the cap is overruled by the cap, not called invalid', async () => {
    // A loop of model states: the model always asks for another round.
    const spec = parseAgentSpec('(define a (:states (T (:text "T:")) (O (:text "O:")) (F (:text "F:"))) (:behavior (next (until (next T O) F :max 2) F)))');
    const model: Model = {
      id: 'test:loops',
      simulated: true,
      async complete(messages: readonly ChatMessage[]): Promise<Completion> {
        const last = messages.at(-1)!.content;
        const at = last.trimEnd().slice(-2);
        return { text: at === 'T:' ? 'thinking\nO:' : at === 'O:' ? 'observing\nT:' : 'done', usage: {}, model: 'test:loops', simulated: true };
      },
    };
    const run = await runAgent(spec, model, () => null, { task: 't' });
    expect(run.steps.map((s) => s.state)).toEqual(['T', 'O', 'T', 'O', 'F', 'F']);
    expect(run.complete).toBe(true);
    const kinds = run.corrections.map((c) => c.kind);
    expect(kinds).not.toContain('invalid-marker');
    const capped = run.corrections.filter((c) => c.kind === 'loop-capped');
    expect(capped).toHaveLength(1);
    expect(capped[0].detail).toMatch(/the model wrote "T:"/);
  });

  it('without a cap, the run still ends with an answer: the last steps of maxSteps go to the final state', async () => {
    const run = await runAgent(reactAgent(['Search']), stubbornModel(), () => 'obs', { task: 't', maxSteps: 14 });
    expect(run.steps).toHaveLength(14);
    expect(run.steps.map((s) => s.state)).toEqual([...LOOP, ...LOOP, ...LOOP, 'Final-Thought', 'Answer']);
    expect(run.complete).toBe(true);
    expect(run.answer).toBeDefined();
    expect(run.corrections.filter((c) => c.kind === 'finish-forced')).toHaveLength(1);
  });

  it('complete is true only when the behavior accepts: the env ending a run mid-loop is not complete', async () => {
    let calls = 0;
    const run = await runAgent(reactAgent(['Search'], { maxLoops: 3 }), stubbornModel(), () => (calls++ === 0 ? 'obs' : null), { task: 't' });
    expect(run.stopReason).toBe('env-ended');
    expect(run.steps.map((s) => s.state)).toEqual([...LOOP, 'Thought', 'Action', 'Action-Input']);
    expect(run.complete).toBe(false);
    expect(run.answer).toBeUndefined();
  });

  it('a model choosing to loop again is overruled when only enough steps are left to reach the final state', async () => {
    const spec = parseAgentSpec('(define a (:states (T (:text "T:")) (O (:text "O:")) (A (:text "A:"))) (:behavior (until (next T O) A)))');
    const model: Model = {
      id: 'test:again',
      simulated: true,
      async complete(messages: readonly ChatMessage[]): Promise<Completion> {
        const at = messages.at(-1)!.content.trimEnd().slice(-2);
        return { text: at === 'T:' ? 't\nO:' : at === 'O:' ? 'o\nT:' : 'the answer', usage: {}, model: 'test:again', simulated: true };
      },
    };
    const run = await runAgent(spec, model, () => null, { task: 't', maxSteps: 7 });
    expect(run.steps.map((s) => s.state)).toEqual(['T', 'O', 'T', 'O', 'T', 'O', 'A']);
    expect(run.complete).toBe(true);
    expect(run.answer).toBe('the answer');
    const forced = run.corrections.filter((c) => c.kind === 'finish-forced');
    expect(forced).toHaveLength(1);
    expect(forced[0].detail).toMatch(/"T:" would not get there/);
  });
});

describe('runAgent: properties over random models', () => {
  const specs: readonly [string, AgentSpec][] = [
    ['react', reactAgent(['Search', 'Lookup'])],
    ['reflexion', reflexionAgent()],
    ['two-state', parseAgentSpec('(define a (:states (T (:text "T:")) (O (:text "O:")) (A (:text "A:"))) (:behavior (until (next T O) A)))')],
  ];
  const replies = ['', 'plain text', 'Search', 'x\nThought:', 'x\nAction:', 'Lookup\nAction Input:', 'x\nObservation:', 'x\nFinal Thought:', 'x\nAnswer:', 'x\nEvaluation:', 'x\nReflection:', 'x\nGeneration complete!', 'x\nT:', 'x\nO:', 'x\nA:'];

  it('every run follows the capped behavior; complete exactly when it stops accepted; the final state is reached whenever maxSteps allows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...specs),
        fc.array(fc.constantFrom(...replies), { minLength: 1, maxLength: 12 }),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
        fc.integer({ min: 1, max: 40 }),
        async ([, spec], script, maxLoops, maxSteps) => {
          let i = 0;
          const model: Model = {
            id: 'test:random',
            simulated: true,
            async complete(): Promise<Completion> {
              return { text: script[i++ % script.length], usage: {}, model: 'test:random', simulated: true };
            },
          };
          const run = await runAgent(spec, model, () => 'observed', { task: 't', maxSteps, ...(maxLoops !== undefined ? { maxLoops } : {}) });
          const a = compileBehavior(spec, maxLoops !== undefined ? { maxLoops } : {});
          const states = run.steps.map((s) => s.state);
          // Every prefix is allowed by the capped behavior.
          let q: number = a.start;
          for (const s of states) {
            const r = a.step(q, s);
            expect(r, `${states.join(' ')}: ${s} not allowed`).toBeDefined();
            q = r!;
          }
          expect(run.complete).toBe(acceptsSequence(a, states) && run.stopReason === 'final-state');
          // The shortest accepted run fits in maxSteps: then the run must end with an answer.
          const { initial, final } = endpoints(spec);
          const fewest = 1 + shortestToFinal(a, a.step(a.start, initial)!, final!)!.length;
          if (fewest <= maxSteps) {
            expect(run.complete).toBe(true);
            expect(run.answer).toBeDefined();
            expect(states.at(-1)).toBe(final);
          } else expect(run.complete).toBe(false);
        },
      ),
      { numRuns: 300, seed: 21 },
    );
  });
});

describe('examples/agents/loop-cap-demo', () => {
  it('ends in Answer after 3 loops, and after 1 with maxLoops 1', async () => {
    const { loopCapDemo } = await import('../../examples/agents/loop-cap-demo.js');
    const lines: string[] = [];
    const run = await loopCapDemo((l) => lines.push(l));
    expect(run.steps.map((s) => s.state)).toEqual([...LOOP, ...LOOP, ...LOOP, 'Final-Thought', 'Answer']);
    expect(lines.at(-1)).toBe('complete: true (final-state, 14 steps)');
    const once = await loopCapDemo(() => {}, 1);
    expect(once.steps.map((s) => s.state)).toEqual([...LOOP, 'Final-Thought', 'Answer']);
  });
});
