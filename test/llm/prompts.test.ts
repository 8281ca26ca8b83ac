import { describe, expect, it } from 'vitest';
import { createLlmSession, cyoaWorld, parseMarker, simulatedModel } from '../../runtime/llm/index.js';
import {
  baselineInstructions,
  baselineTemplate,
  CYOA_FUNCTIONS,
  CYOA_PREDICATES,
  CYOA_SUMMARY,
  CYOA_TASKS,
  parseBaselineSafeCount,
  STORY_INSTRUCTIONS,
} from '../../examples/cyoa/prompts.js';
import { simulatedPlayer } from '../../examples/cyoa/player.js';

describe('CYOA prompts', () => {
  it('use exactly the names the simulated CYOA world knows', () => {
    const world = cyoaWorld();
    for (const [key, template] of Object.entries(CYOA_FUNCTIONS)) {
      expect(template.name).toBe(key);
      expect(world.functionNames).toContain(template.name);
    }
    for (const [key, template] of Object.entries(CYOA_PREDICATES)) {
      expect(template.name).toBe(key);
      expect(world.predicateNames).toContain(template.name);
    }
  });

  it("carry the papers' wording, the summary and the player's choice", async () => {
    const calls: { content: string; role: string }[][] = [];
    const session = createLlmSession({
      model: {
        id: 'fake',
        simulated: false,
        async complete(messages) {
          calls.push(messages.map((m) => ({ role: m.role, content: m.content })));
          return { text: '1', model: 'fake', simulated: false, usage: {} };
        },
      },
    });
    session.context.begin(2, { playerChoice: 'Take the left path.' });
    await session.generator(CYOA_FUNCTIONS.toCave)('The hero left town.');
    await session.predicate(CYOA_PREDICATES.inCave)('A dark cave.');
    const [generation, question] = calls;
    expect(generation?.[0]?.content).toContain(STORY_INSTRUCTIONS);
    expect(generation?.[1]?.content).toContain('<summary>\nThe hero left town.\n</summary>');
    expect(generation?.[1]?.content).toContain('Take the left path.');
    expect(generation?.[1]?.content).toContain('Compose a passage where the reader encounters a cave on their journey.');
    expect(question?.[1]?.content).toContain('Is the main character actively in a cave or not?');
    expect(question?.[1]?.content).toContain("Respond '0' if it is false, or '1' if it is true.");
    expect(question?.[1]?.content).toContain('<passage>\nA dark cave.\n</passage>');
  });

  it('build the baseline prompt per task with the current game state', () => {
    const state = { safeCount: 2, lastChoiceSafe: true, inTown: false };
    const adventure = baselineInstructions('adventure', state);
    expect(adventure).toContain('The player cannot visit a cave until they visit a town.');
    expect(adventure).not.toContain('safeCount');
    expect(adventure).not.toContain('forest');
    expect(baselineInstructions('forest', state)).toContain('The initial setting must be a forest');
    const choices = baselineInstructions('choices', state);
    expect(choices).toContain('The current amount of safe choices made is: 2.');
    expect(choices).toContain('The player just made a safe choice.');
    expect(choices).toContain('which right now, is false.');
    const all = baselineInstructions('all', { safeCount: 0, lastChoiceSafe: false, inTown: true });
    expect(all).toContain('neutral choice');
    expect(all).toContain('which right now, is true.');
    expect(all).toContain('The initial setting must be a forest');
    expect(Object.keys(CYOA_TASKS)).toEqual(['adventure', 'forest', 'choices', 'all']);
    expect(CYOA_TASKS.all.specs).toEqual(['adventure.tsl', 'choices.tsl', 'forest.tsl']);
  });

  it('mark the baseline as free generation', async () => {
    const sim = simulatedModel({ seed: 2 });
    const calls: string[] = [];
    const session = createLlmSession({ model: sim, onCall: (r) => calls.push(r.messages[0]?.content ?? '') });
    session.context.begin(0, { safeCount: 1 });
    const passage = await session.generator(baselineTemplate('choices'))('');
    expect(parseMarker(calls[0] ?? '')).toEqual({ kind: 'generate', name: 'story' });
    expect(calls[0]).toContain('The current amount of safe choices made is: 1.');
    expect(sim.truthOf(passage)?.location).toBeTypeOf('string');
    expect(sim.generations[0]?.intent).toBeUndefined();
  });

  it('read the safeCount the baseline prints', () => {
    expect(parseBaselineSafeCount('safeCount=3\nThe hero walks on.')).toBe(3);
    expect(parseBaselineSafeCount("'safe-Count = 12' The hero")).toBe(12);
    expect(parseBaselineSafeCount('The hero walks on.')).toBeUndefined();
  });

  it('drive a short simulated turn loop end to end', async () => {
    const sim = simulatedModel({ seed: 4, hallucinationRate: 0 });
    const session = createLlmSession({ model: sim, seed: 4 });
    const player = simulatedPlayer(4);
    const summarize = session.summarizer(CYOA_SUMMARY);
    const order = [CYOA_FUNCTIONS.toForest, CYOA_FUNCTIONS.toTown, CYOA_FUNCTIONS.toMarket, CYOA_FUNCTIONS.toCave];
    const questions = {
      forest: CYOA_PREDICATES.inForest,
      town: CYOA_PREDICATES.inTown,
      market: CYOA_PREDICATES.inMarket,
      cave: CYOA_PREDICATES.inCave,
    };
    let summary = '';
    for (const [turn, template] of order.entries()) {
      session.context.begin(turn, { playerChoice: player.move(turn).text });
      const passage = await session.generator(template)(summary);
      summary = await summarize(summary, passage);
      const location = template.name.slice(2).toLowerCase() as keyof typeof questions;
      for (const [place, question] of Object.entries(questions)) {
        expect(await session.predicate(question)(summary)).toBe(place === location);
      }
    }
    expect(sim.truthOf(summary)?.visited).toEqual(['forest', 'town', 'market', 'cave']);
    expect(session.usage.byStep()).toHaveLength(4);
    expect(player.move(3)).toEqual(simulatedPlayer(4).move(3));
  });
});

describe('llmImplementation', () => {
  it('maps spec names to LLM-backed terms', async () => {
    const { llmImplementation } = await import('../../runtime/llm/index.js');
    const sim = simulatedModel({ seed: 12, hallucinationRate: 0 });
    const session = createLlmSession({ model: sim });
    const impl = llmImplementation(session, { predicates: CYOA_PREDICATES, functions: CYOA_FUNCTIONS });
    expect(Object.keys(impl).sort()).toEqual(
      ['inCave', 'inForest', 'inMarket', 'inTown', 'toCave', 'toForest', 'toMarket', 'toTown'],
    );
    const passage = (await impl.toMarket!('')) as string;
    expect(sim.truthOf(passage)?.location).toBe('market');
    expect(await impl.inMarket!(passage)).toBe(true);
    expect(await impl.inCave!(passage)).toBe(false);
  });
});
