/** validateExamples (paper 003: formally validating prompt examples) on the paper's prompt shapes. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsSequence, chatBotAgent, compileBehavior, endpoints, parseAgentSpec, reactAgent, reflexionAgent, validateExamples } from '../../runtime/agent/index.js';

/** Shaped like the paper's Fever example (Figure 6): a Lookup before a Search, and "Final Thought:" printed mid-line. */
const FEVER_SHAPED = `Claim: The Eiffel Tower is in Rome.
Thought: I need to look up the Eiffel Tower.
Action: Lookup
Action Input: Eiffel Tower
Observation: Cannot use Lookup without using Search first!
Thought: I need to search instead.
Action: Search
Action Input: Eiffel Tower
Observation: The Eiffel Tower is a wrought-iron lattice tower in Paris, France. Final Thought: It is in Paris, not Rome.
Answer: REFUTES

Claim:`;

const HOTPOT = `Here are some examples.

Question: What is the elevation range?
Thought: I need to search Colorado orogeny.
Action: Search
Action Input: Colorado orogeny
Observation: The Colorado orogeny was an episode of mountain building.
Final Thought: So the answer is 1,800 to 7,000 ft.
Answer: 1,800 to 7,000 ft

Question:`;

describe('validateExamples', () => {
  it('accepts a well-formed example; text around examples belongs to no state', () => {
    const r = validateExamples(reactAgent(['Search', 'Lookup']), HOTPOT);
    expect(r.accepted).toBe(1);
    expect(r.rejected).toBe(0);
    expect(r.examples[0].steps.map((s) => s.state)).toEqual(['Thought', 'Action', 'Action-Input', 'Observation', 'Final-Thought', 'Answer']);
    expect(r.examples[0].steps.at(-1)!.text).toBe('1,800 to 7,000 ft');
    expect(r.examples[0]).toMatchObject({ index: 1, line: 4, column: 1 });
  });

  it('accepts an example shaped like the paper\'s Fever example (Figure 6), whose Final Thought starts mid-line', () => {
    const r = validateExamples(reactAgent(['Search', 'Lookup']), FEVER_SHAPED);
    expect(r.examples.map((e) => e.accepted)).toEqual([true]);
    expect(r.examples[0].steps.map((s) => s.state)).toEqual([...Array(2).fill(['Thought', 'Action', 'Action-Input', 'Observation']).flat(), 'Final-Thought', 'Answer']);
    expect(r.examples[0].steps.at(-1)!.text).toBe('REFUTES');
    expect(r.examples[0].steps[7].text).toBe('The Eiffel Tower is a wrought-iron lattice tower in Paris, France.');
  });

  it('reports the first invalid step and what was allowed (the ablated agent of Figure 5 skips Action Input)', () => {
    const text = 'Thought: search it\nAction: Search\nObservation: nothing\nThought: again\nAction Input: x\nFinal Thought: done\nAnswer: 1';
    const [e] = validateExamples(reactAgent(), text).examples;
    expect(e.accepted).toBe(false);
    expect(e.problem).toMatchObject({ kind: 'invalid-state', step: 3, line: 3, column: 1, found: 'Observation', allowed: ['Action-Input'] });
    expect(e.problem!.message).toBe('step 3: after "Action:" comes "Observation:"; allowed: "Action Input:"');
    expect(e.steps.map((s) => s.state)).toEqual(['Thought', 'Action', 'Observation']);
  });

  it('lists every allowed state where there is a choice', () => {
    const text = 'Thought: a\nAction: Search\nAction Input: b\nObservation: c\nAnswer: d';
    const [e] = validateExamples(reactAgent(), text).examples;
    expect(e.problem).toMatchObject({ kind: 'invalid-state', step: 5, found: 'Answer', allowed: ['Thought', 'Final-Thought'] });
    expect(e.problem!.message).toMatch(/allowed: "Thought:" or "Final Thought:"$/);
  });

  it('content constraints: a tool name that is not allowed is the invalid step, with the allowed names', () => {
    const text = 'Thought: compute\nAction:   Calculator\nAction Input: 48 / 2\nObservation: 24\nFinal Thought: 24\nAnswer: 24';
    const [e] = validateExamples(reactAgent(['Search', 'Lookup']), text).examples;
    expect(e.problem).toMatchObject({ kind: 'invalid-content', step: 2, line: 2, column: 11, found: 'Action', allowed: ['Search', 'Lookup'] });
    expect(validateExamples(reactAgent(['Search', 'Calculator']), text).examples[0].accepted).toBe(true);
  });

  it('an earlier content problem comes before a later state problem', () => {
    const text = 'Thought: compute\nAction: Calculator\nObservation: 24\nFinal Thought: 24\nAnswer: 24';
    const [e] = validateExamples(reactAgent(['Search']), text).examples;
    expect(e.problem).toMatchObject({ kind: 'invalid-content', step: 2 });
  });

  it('an example that stops where the behavior may not stop is incomplete, and says what is missing', () => {
    const text = 'Question: q\nThought: a\nAction: Search\nAction Input: b\nObservation: c\nFinal Thought: d\n\nQuestion: next one\n';
    const [e] = validateExamples(reactAgent(), text).examples;
    expect(e.problem).toMatchObject({ kind: 'incomplete', step: 5, line: 6, column: 17, allowed: ['Answer'] });
    expect(e.problem!.message).toBe('the example ends after "Final Thought:", where the behavior may not stop; next would be "Answer:", then on to "Answer:"');
  });

  it('splits several examples; a rejected example does not swallow the next one after a blank line', () => {
    const text = readFileSync(new URL('../../examples/agents/prompts/react-examples.txt', import.meta.url), 'utf8');
    const spec = parseAgentSpec(readFileSync(new URL('../../examples/agents/prompts/react-tools.sexp', import.meta.url), 'utf8'));
    const r = validateExamples(spec, text);
    expect(r.examples.map((e) => [e.line, e.accepted, e.problem?.kind, e.problem?.step])).toEqual([
      [4, true, undefined, undefined],
      [16, false, 'invalid-state', 3],
      [23, false, 'invalid-content', 2],
    ]);
    expect(r).toMatchObject({ accepted: 1, rejected: 2 });
  });

  it('an example missing its Answer before the next example ends there (incomplete), and the next is read on its own', () => {
    const text = 'Thought: a\nAction: Search\nAction Input: b\nObservation: c\nFinal Thought: d\n\nQuestion: two\nThought: e\nAction: Search\nAction Input: f\nObservation: g\nFinal Thought: h\nAnswer: i';
    const r = validateExamples(reactAgent(), text);
    expect(r.examples.map((e) => [e.line, e.accepted, e.problem?.kind])).toEqual([
      [1, false, 'incomplete'],
      [8, true, undefined],
    ]);
  });

  it('a blank line inside an Observation does not end the example', () => {
    const text = 'Thought: a\nAction: Search\nAction Input: b\nObservation: para 1\n\npara 2\nThought: e\nAction: Search\nAction Input: f\nObservation: g\nFinal Thought: h\nAnswer: i';
    const r = validateExamples(reactAgent(), text);
    expect(r.examples).toHaveLength(1);
    expect(r.examples[0].accepted).toBe(true);
  });

  it('examples must start in the initial state; "Final Thought:" is never read as "Thought:"', () => {
    const [e] = validateExamples(reactAgent(), 'Final Thought: x\nAnswer: y').examples;
    expect(e.problem).toMatchObject({ kind: 'invalid-state', step: 1, found: 'Final-Thought', allowed: ['Thought'] });
    expect(e.problem!.message).toBe('an example starts with "Thought:", not "Final Thought:"');
  });

  it('loop caps: an example looping more often than the cap is rejected where the loop had to end', () => {
    const loop = 'Thought: a\nAction: Search\nAction Input: b\nObservation: c\n';
    const text = `${loop}${loop}Final Thought: d\nAnswer: e`;
    expect(validateExamples(reactAgent(), text).examples[0].accepted).toBe(true);
    const [e] = validateExamples(reactAgent(undefined, { maxLoops: 1 }), text).examples;
    expect(e.problem).toMatchObject({ kind: 'invalid-state', step: 5, line: 5, found: 'Thought', allowed: ['Final-Thought'] });
    expect(validateExamples(reactAgent(undefined, { maxLoops: 1 }), text, { maxLoops: null }).examples[0].accepted).toBe(true);
  });

  it('a spec without a final state (the chat bot): conversations split at a blank line before the initial marker', () => {
    const text = 'Chat Bot: hi\nUser: hello\n\nChat Bot: hi again\nUser: bye\nUser: bye again';
    const r = validateExamples(chatBotAgent(), text);
    expect(r.examples.map((e) => [e.line, e.accepted, e.problem?.found])).toEqual([
      [1, true, undefined],
      [4, false, 'User'],
    ]);
  });

  it('no markers: no examples', () => {
    expect(validateExamples(reactAgent(), 'Question: nothing here')).toEqual({ examples: [], accepted: 0, rejected: 0 });
  });

  it('agrees with the behavior automaton on random state sequences (ReACT, Reflexion, capped or not)', () => {
    const specs = [reactAgent(), reflexionAgent(), reactAgent(undefined, { maxLoops: 2 })];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: specs.length - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), fc.boolean(), (which, picks, biased) => {
        const spec = specs[which];
        const a = compileBehavior(spec);
        const { initial, final } = endpoints(spec);
        const names = spec.states.map((st) => st.name);
        // A random sequence; "biased" ones mostly follow the behavior, so accepted examples are common.
        const seq: string[] = [];
        let q: number | undefined = a.start;
        for (const p of picks) {
          const valid: string[] = q === undefined ? [] : seq.length === 0 ? [initial] : a.valid(q);
          const s = biased && valid.length > 0 && p % 7 !== 0 ? valid[p % valid.length] : names[p % names.length];
          seq.push(s);
          q = q === undefined ? undefined : a.step(q, s);
        }
        const text = seq.map((s, i) => `${spec.states.find((st) => st.name === s)!.text} text ${i}\n`).join('');
        const r = validateExamples(spec, text);
        // Independently: the first prefix accepted in the final state ends example 1.
        const done = seq.findIndex((s, i) => s === final && seq[0] === initial && acceptsSequence(a, seq.slice(0, i + 1)));
        const first = r.examples[0];
        if (done >= 0) {
          expect(first.accepted).toBe(true);
          expect(first.steps.map((s) => s.state)).toEqual(seq.slice(0, done + 1));
          expect(r.examples.reduce((n, e) => n + e.steps.length, 0)).toBeLessThanOrEqual(seq.length);
        } else {
          expect(first.accepted).toBe(false);
          expect(r.examples).toHaveLength(1); // no blank line: a rejected example runs to the end
          // The first invalid step is the first prefix no run can extend (or the end).
          let bad = seq[0] === initial ? -1 : 0;
          if (bad < 0) {
            let st: number | undefined = a.start;
            for (let i = 0; i < seq.length && bad < 0; i++) {
              st = a.step(st!, seq[i]);
              if (st === undefined) bad = i;
            }
          }
          if (bad >= 0) expect(first.problem).toMatchObject({ kind: 'invalid-state', step: bad + 1, found: seq[bad] });
          else expect(first.problem).toMatchObject({ kind: 'incomplete', step: seq.length });
        }
      }),
      { numRuns: 400, seed: 5 },
    );
  });
});
