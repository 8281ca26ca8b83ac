import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AgentSpecError,
  CHAT_BOT_SPEC_TEXT,
  REACT_SPEC_TEXT,
  REFLEXION_SPEC_TEXT,
  CHAIN_OF_THOUGHT_SPEC_TEXT,
  acceptsSequence,
  chainOfThoughtAgent,
  chatBotAgent,
  compileBehavior,
  endpoints,
  parseAgentSpec,
  reactAgent,
  reflexionAgent,
  runAgent,
  type AgentSpec,
  type EnvRequest,
} from '../../runtime/agent/index.js';
import { scriptedModel } from './helpers.js';

/** The ReACT shape, checked independently of the automaton: (T A AI O)* FT Answer. */
const REACT_SHAPE = /^(Thought Action Action-Input Observation )*Final-Thought Answer$/;

describe('agent specs', () => {
  it('shipped spec texts are the example files', () => {
    for (const [file, text] of [
      ['react', REACT_SPEC_TEXT],
      ['chain-of-thought', CHAIN_OF_THOUGHT_SPEC_TEXT],
      ['reflexion', REFLEXION_SPEC_TEXT],
      ['chat-bot', CHAT_BOT_SPEC_TEXT],
    ] as const) {
      expect(readFileSync(new URL(`../../examples/agents/${file}.sexp`, import.meta.url), 'utf8')).toBe(text);
    }
  });

  it('parses the paper ReACT spec with flags and the paper defaults', () => {
    const spec = reactAgent();
    expect(spec.states.map((s) => s.name)).toEqual(['Thought', 'Action', 'Action-Input', 'Observation', 'Final-Thought', 'Answer']);
    expect(spec.states.find((s) => s.name === 'Observation')?.envInput).toBe(true);
    expect(spec.states.find((s) => s.name === 'Action-Input')?.text).toBe('Action Input:');
    expect(endpoints(spec)).toEqual({ initial: 'Thought', final: 'Answer' });
    expect(endpoints(chatBotAgent())).toEqual({ initial: 'Chat-Bot', final: undefined });
  });

  it('compiles ReACT to an automaton that accepts exactly the loop-then-answer sequences', () => {
    const a = compileBehavior(reactAgent());
    const T = ['Thought', 'Action', 'Action-Input', 'Observation'];
    expect(acceptsSequence(a, ['Final-Thought', 'Answer'])).toBe(true);
    expect(acceptsSequence(a, [...T, ...T, 'Final-Thought', 'Answer'])).toBe(true);
    expect(acceptsSequence(a, ['Thought', 'Action', 'Observation', 'Final-Thought', 'Answer'])).toBe(false); // skipped input
    expect(acceptsSequence(a, [...T, 'Final-Thought'])).toBe(false); // no answer
    expect(acceptsSequence(a, [...T, 'Answer'])).toBe(false);
    let q = a.step(a.start, 'Thought')!;
    expect(a.valid(q)).toEqual(['Action']);
    for (const s of ['Action', 'Action-Input', 'Observation']) q = a.step(q, s)!;
    expect(a.valid(q)).toEqual(['Thought', 'Final-Thought']);
  });

  it('compiles Reflexion, chain-of-thought and chat-bot', () => {
    const r = compileBehavior(reflexionAgent());
    const loop = ['Final-Thought', 'Answer', 'Evaluator', 'Reflection'];
    expect(acceptsSequence(r, ['Finish'])).toBe(true);
    expect(acceptsSequence(r, [...loop, ...loop, 'Finish'])).toBe(true);
    expect(acceptsSequence(r, ['Final-Thought', 'Answer', 'Finish'])).toBe(false);
    const c = compileBehavior(chainOfThoughtAgent());
    expect(acceptsSequence(c, ['Thought', 'Answer'])).toBe(true);
    expect(acceptsSequence(c, ['Answer'])).toBe(false);
    const b = compileBehavior(chatBotAgent());
    expect(acceptsSequence(b, ['Chat-Bot', 'User', 'Chat-Bot', 'User'])).toBe(true);
    expect(acceptsSequence(b, ['Chat-Bot', 'Chat-Bot'])).toBe(false);
  });

  it('accepts the TypeScript object form with an LTLf behavior', () => {
    const spec: AgentSpec = {
      name: 'plan-act',
      states: [
        { name: 'Plan', text: 'Plan:' },
        { name: 'Act', text: 'Act:' },
        { name: 'Done', text: 'Done:' },
      ],
      behavior: { ltl: 'Plan & G(Plan -> X Act) & G(Act -> X (Act | Done)) & F Done & G(Done -> !X true)' },
    };
    const a = compileBehavior(spec);
    expect(acceptsSequence(a, ['Plan', 'Act', 'Act', 'Done'])).toBe(true);
    expect(acceptsSequence(a, ['Plan', 'Done'])).toBe(false);
    expect(acceptsSequence(a, ['Plan', 'Act'])).toBe(false);
    expect(a.valid(a.step(a.start, 'Plan')!)).toEqual(['Act']);
  });

  it('reads a quoted s-expression behavior as LTL over the states', () => {
    const spec = parseAgentSpec('(define t (:states (A (:text "A:")) (B (:text "B:")))\n (:behavior "A & X B & G(B -> !X true)"))');
    const a = compileBehavior(spec);
    expect(acceptsSequence(a, ['A', 'B'])).toBe(true);
    expect(acceptsSequence(a, ['A', 'B', 'A'])).toBe(false);
    expect(endpoints(spec)).toEqual({ initial: 'A', final: 'B' });
  });

  it('reports s-expression errors with line and column', () => {
    expect(() => parseAgentSpec('(define x\n  (:states (A (:text "A:")))\n  (:behavior (next A B)))')).toThrow(/unknown state B/);
    try {
      parseAgentSpec('(define x\n  (:states (A (:txt "A:")))\n  (:behavior A))');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AgentSpecError);
      expect((e as AgentSpecError).line).toBe(2);
      expect((e as Error).message).toMatch(/unknown state property :txt/);
    }
    expect(() => parseAgentSpec('(define x (:states (A (:text "A:"))) (:behavior (until A)))')).toThrow(/two arguments/);
  });
});

describe('runAgent', () => {
  it('forces valid transitions when the model misbehaves as in Figure 5 of paper 003', async () => {
    const model = scriptedModel([
      // Thought, proper marker.
      'I think Iron Man is the closest one.\nAction: Lookup',
      // Action: an invalid tool name AND it skips Action Input (jumps to Observation).
      'Google\nObservation: Error in parsing action',
      'Bing', // re-ask 1: still invalid
      'Bing again', // re-ask 2: still invalid -> forced
      // Action Input: then the wrong marker (Thought instead of the env's Observation).
      'Iron Henry\nThought: I think Iron Man is the closest one.',
      // After Observation, Thought or Final Thought may follow: the model picks Thought.
      'Thought:',
      'The search found the fairy tale; I should look for films.\nAction: Search\nAction Input: Iron Henry film',
      'Lookup',
      'Iron Henry film',
      'Final Thought:',
      // Final Thought without an Answer marker: the runner forces Answer.
      'The Frog Prince is loosely based on it.',
      'The Frog Prince',
    ]);
    const envCalls: EnvRequest[] = [];
    const run = await runAgent(reactAgent(['Search', 'Lookup']), model, (req) => {
      envCalls.push({ ...req, latest: { ...req.latest } });
      return `result for ${req.latest['Action']}(${req.latest['Action-Input']})`;
    }, { task: 'Question: Which movie is loosely based off the Brothers Grimm\'s "Iron Henry"?' });

    const states = run.steps.map((s) => s.state).join(' ');
    expect(states).toMatch(REACT_SHAPE);
    expect(acceptsSequence(compileBehavior(reactAgent()), run.steps.map((s) => s.state))).toBe(true);
    expect(run.complete).toBe(true);
    expect(run.stopReason).toBe('final-state');
    expect(run.answer).toBe('The Frog Prince');
    // Every tool name that reached the environment is a real tool.
    for (const s of run.steps.filter((x) => x.state === 'Action')) expect(['Search', 'Lookup']).toContain(s.text);
    expect(envCalls.map((c) => c.latest['Action'])).toEqual(['Search', 'Lookup']);
    expect(envCalls[0].latest['Action-Input']).toBe('Iron Henry');
    const kinds = run.corrections.map((c) => c.kind);
    expect(kinds.filter((k) => k === 'invalid-marker')).toHaveLength(2);
    expect(kinds).toContain('content-forced');
    expect(kinds.filter((k) => k === 'content-reasked')).toHaveLength(2);
    // The wrong marker text never reaches the transcript as content.
    expect(run.steps.find((s) => s.state === 'Action-Input')?.text).toBe('Iron Henry');
    // Every marker is a stop sequence of the generation requests.
    expect(model.requests[0].options?.stop).toContain('Action Input:');
    expect(run.transcript).toContain('Answer: The Frog Prince');
  });

  it('a choice the model gets wrong is replaced by a valid one', async () => {
    const model = scriptedModel(['x', 'Search', 'q', 'Action:' /* invalid choice after Observation */, 'done thinking', '42']);
    const spec = reactAgent(['Search']);
    // After the choice fails, the runner picks the first valid state (Thought); cap steps to end.
    const run = await runAgent(spec, model, () => 'obs', { task: 't', maxSteps: 5 });
    expect(run.corrections.some((c) => c.kind === 'choice-forced')).toBe(true);
    expect(run.steps[4]?.state).toBe('Thought');
    expect(run.complete).toBe(false);
    expect(run.stopReason).toBe('max-steps');
  });

  it('enforces JSON-schema content by re-asking', async () => {
    const spec: AgentSpec = {
      name: 'json',
      states: [
        { name: 'Think', text: 'Think:' },
        { name: 'Out', text: 'Output:', schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'number' } } } },
      ],
      behavior: { next: ['Think', 'Out'] },
    };
    const model = scriptedModel(['hmm', '{"answer": "six"}', '{"answer": 6}']);
    const run = await runAgent(spec, model, () => null, { task: 't' });
    expect(run.answer).toBe('{"answer": 6}');
    expect(run.corrections.map((c) => c.kind)).toEqual(['content-reasked']);
    expect(model.requests[2].messages.at(-1)?.content).toMatch(/must be JSON matching/);
  });

  it('chain-of-thought stops at Answer; chat-bot hands User turns to the env until it ends', async () => {
    const cot = await runAgent(chainOfThoughtAgent(), scriptedModel(["Let's think step by step. 3 + 4 = 7. Answer: 7", '7']), () => null, { task: '3+4?' });
    expect(cot.steps.map((s) => [s.state, s.text])).toEqual([
      ['Thought', '3 + 4 = 7.'],
      ['Answer', '7'],
    ]);
    const turns = ['hi'];
    const chat = await runAgent(chatBotAgent(), scriptedModel(['Hello!', 'Goodbye!\nChat Bot: extra']), () => turns.shift() ?? null, { task: 'be nice' });
    expect(chat.steps.map((s) => s.state)).toEqual(['Chat-Bot', 'User', 'Chat-Bot']);
    expect(chat.stopReason).toBe('env-ended');
    expect(chat.complete).toBe(true);
    expect(chat.corrections.map((c) => c.kind)).toEqual(['invalid-marker']);
  });
});

describe('examples/agents/react-demo', () => {
  it('keeps a sloppy model on the ReACT spec', async () => {
    const { reactDemo } = await import('../../examples/agents/react-demo.js');
    const run = await reactDemo(() => {});
    expect(run.steps.map((s) => s.state).join(' ')).toMatch(REACT_SHAPE);
    expect(run.answer).toBe('The Frog Prince');
    expect(run.steps.find((s) => s.state === 'Observation')?.text).toContain('Frog Prince');
    expect(run.corrections.filter((c) => c.kind === 'invalid-marker')).toHaveLength(2);
  });
});
