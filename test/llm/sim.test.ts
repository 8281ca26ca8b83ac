import { describe, expect, it } from 'vitest';
import {
  createLlmSession,
  honours,
  LlmError,
  SIM_LABEL,
  type SimOptions,
  simulatedModel,
} from '../../runtime/llm/index.js';
import { CYOA_FUNCTIONS, CYOA_PREDICATES, CYOA_SUMMARY } from '../../examples/cyoa/prompts.js';

const FUNCTIONS = [CYOA_FUNCTIONS.toCave, CYOA_FUNCTIONS.toMarket, CYOA_FUNCTIONS.toTown, CYOA_FUNCTIONS.toForest];

/** Generates `count` passages round-robin over the location terms; returns the sim and the texts. */
async function generateMany(options: SimOptions, count: number) {
  const sim = simulatedModel(options);
  const session = createLlmSession({ model: sim, seed: 1 });
  const terms = FUNCTIONS.map((template) => session.generator(template));
  const texts: string[] = [];
  for (let i = 0; i < count; i += 1) {
    session.context.begin(i);
    texts.push(await terms[i % terms.length]!(`summary #${i}`));
  }
  return { sim, session, texts };
}

/** Fraction of passages whose hidden facts disagree with what their modifier asked for. */
function disagreement(sim: ReturnType<typeof simulatedModel>, texts: readonly string[]): number {
  let bad = 0;
  texts.forEach((text, i) => {
    const wanted = ['cave', 'market', 'town', 'forest'][i % 4];
    if (sim.truthOf(text)?.location !== wanted) bad += 1;
  });
  return bad / texts.length;
}

describe('simulated model', () => {
  it('is labelled as a simulation everywhere', async () => {
    const sim = simulatedModel({ seed: 9 });
    const session = createLlmSession({ model: sim });
    const passage = await session.generator(CYOA_FUNCTIONS.toCave)('');
    const summary = await session.summarizer(CYOA_SUMMARY)('', passage);
    expect(sim.id).toBe('sim:cyoa#9');
    expect(sim.simulated).toBe(true);
    expect(session.simulated).toBe(true);
    expect(passage.startsWith(SIM_LABEL)).toBe(true);
    expect(summary.startsWith(SIM_LABEL)).toBe(true);
    const raw = await sim.complete([{ role: 'system', content: '<!-- tslc:generate -->' }]);
    expect(raw.simulated).toBe(true);
  });

  it('is deterministic from its seed', async () => {
    const a = await generateMany({ seed: 5, hallucinationRate: 0.2 }, 40);
    const b = await generateMany({ seed: 5, hallucinationRate: 0.2 }, 40);
    const c = await generateMany({ seed: 6, hallucinationRate: 0.2 }, 40);
    expect(a.texts).toEqual(b.texts);
    expect(c.texts).not.toEqual(a.texts);
  });

  it('honours modifiers, hallucinating at about the configured rate', async () => {
    const rates = [0, 0.1, 0.3];
    const observed: number[] = [];
    for (const hallucinationRate of rates) {
      const { sim, texts } = await generateMany({ seed: 42, hallucinationRate }, 1200);
      observed.push(disagreement(sim, texts));
      // The recorded flag agrees with the ground truth.
      for (const generation of sim.generations) {
        expect(honours(generation.facts, generation.intent ?? {})).toBe(!generation.hallucinated);
      }
    }
    expect(observed[0]).toBe(0);
    expect(Math.abs((observed[1] ?? 0) - 0.1)).toBeLessThan(0.03);
    expect(Math.abs((observed[2] ?? 0) - 0.3)).toBeLessThan(0.04);
    expect(observed[2]).toBeGreaterThan(observed[1] ?? 1);
  });

  it('answers predicates from ground truth, flipped at about the evaluator error rate', async () => {
    for (const evaluatorErrorRate of [0, 0.15]) {
      const { sim, session, texts } = await generateMany(
        { seed: 3, hallucinationRate: 0.25, evaluatorErrorRate, answerNoiseRate: 0.3 },
        1000,
      );
      const predicates = [CYOA_PREDICATES.inCave, CYOA_PREDICATES.inTown].map((t) => session.predicate(t));
      let flips = 0;
      let asked = 0;
      for (const [i, text] of texts.entries()) {
        const template = i % 2 === 0 ? CYOA_PREDICATES.inCave : CYOA_PREDICATES.inTown;
        const answer = await predicates[i % 2]!(text);
        const truth = sim.judge(template.name, text);
        expect(truth).toBeTypeOf('boolean');
        if (answer !== truth) flips += 1;
        asked += 1;
      }
      const rate = flips / asked;
      if (evaluatorErrorRate === 0) expect(rate).toBe(0);
      else expect(Math.abs(rate - evaluatorErrorRate)).toBeLessThan(0.035);
    }
  });

  it('judges summaries by the latest location and carries visited places forward', async () => {
    const sim = simulatedModel({ seed: 1, hallucinationRate: 0 });
    const session = createLlmSession({ model: sim });
    const summarize = session.summarizer(CYOA_SUMMARY);
    const inTown = session.predicate(CYOA_PREDICATES.inTown);
    const forest = await session.generator(CYOA_FUNCTIONS.toForest)('');
    let summary = await summarize('', forest);
    const town = await session.generator(CYOA_FUNCTIONS.toTown)(summary);
    summary = await summarize(summary, town);
    expect(sim.truthOf(summary)).toMatchObject({ location: 'town', visited: ['forest', 'town'] });
    expect(summary).toContain('the forest, the town');
    expect(await inTown(summary)).toBe(true);
    expect(await inTown(forest)).toBe(false);
  });

  it('produces unreadable answers at the garbage rate, which surface as typed errors', async () => {
    const { session, texts } = await generateMany({ seed: 8, garbageRate: 0.5 }, 200);
    const inCave = session.predicate(CYOA_PREDICATES.inCave);
    let garbage = 0;
    for (const text of texts) {
      try {
        await inCave(text);
      } catch (error) {
        expect(error).toBeInstanceOf(LlmError);
        expect((error as LlmError).kind).toBe('garbage-answer');
        garbage += 1;
      }
    }
    // Both the question and the re-ask must be garbage: about 0.5 * 0.5 of the questions.
    expect(garbage / texts.length).toBeGreaterThan(0.15);
    expect(garbage / texts.length).toBeLessThan(0.35);
  });

  it('refuses what its world does not know, with typed errors', async () => {
    const sim = simulatedModel();
    const session = createLlmSession({ model: sim });
    const unknownTerm = session.generator({ name: 'toMoon', prompt: 'go to the moon' });
    await expect(unknownTerm()).rejects.toMatchObject({ kind: 'unsupported' });
    const passage = await session.generator(CYOA_FUNCTIONS.toCave)('');
    const unknownPredicate = session.predicate({ name: 'onMoon', params: ['t'], prompt: '{{t}}' });
    await expect(unknownPredicate(passage)).rejects.toMatchObject({ kind: 'unsupported' });
    await expect(sim.complete([{ role: 'user', content: 'hello' }])).rejects.toMatchObject({ kind: 'unsupported' });
  });

  it('reads foreign text by keywords when it did not write it', async () => {
    const session = createLlmSession({ model: simulatedModel({ answerNoiseRate: 0 }) });
    const inMarket = session.predicate(CYOA_PREDICATES.inMarket);
    expect(await inMarket('She buys apples at the busy market.')).toBe(true);
    expect(await inMarket('He sleeps in the cave.')).toBe(false);
  });

  it('can be slowed down and aborted', async () => {
    const sim = simulatedModel({ latencyMs: 5_000 });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    await expect(
      sim.complete([{ role: 'system', content: '<!-- tslc:generate -->' }], { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: 'aborted' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
