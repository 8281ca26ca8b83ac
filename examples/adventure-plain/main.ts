/**
 * examples/adventure-plain — the adventure spec (specs/adventure.tsl) implemented with plain
 * functions instead of LLM calls: the story "summary" is the last passage, predicates look for a
 * location word in it, and functions write a canned passage. Swap the bodies for LLM calls and
 * nothing else changes; the controller still decides which passage to ask for.
 *
 * Run: npx tsc -p tsconfig.json --noEmit checks it; `runAdventure` is exercised by
 * test/codegen/example.test.ts.
 */
import { type AdventureImpl, createAdventure } from '../../generated/adventure.js';

/** Our signal types: the summary input and the passage output are plain text. */
interface Story {
  s: string;
  storyPassage: string;
}

const mentions = (word: string) => (summary: string): boolean => summary.toLowerCase().includes(word);

export const plainAdventure: AdventureImpl<Story> = {
  inCave: mentions('cave'),
  inMarket: mentions('market'),
  inTown: mentions('town'),
  toCave: () => 'You step into a cold, dripping cave.',
  toMarket: () => 'Stalls and shouting merchants: you reach the market.',
  toTown: () => 'Smoke from chimneys: you arrive in a small town.',
};

/** Play `turns` turns; returns the passages the controller asked for, in order. */
export async function runAdventure(turns: number): Promise<string[]> {
  const controller = createAdventure<Story>(plainAdventure, { storyPassage: '' });
  const passages: string[] = [];
  let summary = 'You wake up at a crossroads.';
  for (let turn = 0; turn < turns; turn++) {
    const record = await controller.step({ s: summary });
    const wrote = record.updates.some((u) => !u.isSelfUpdate);
    if (wrote) passages.push(controller.signals.storyPassage);
    // The environment: the story moves on. A new passage becomes the summary; a turn without
    // one is spent on the road (the spec assumes the player is in the cave only right after a
    // cave passage).
    summary = wrote ? controller.signals.storyPassage : 'You walk along the road.';
  }
  return passages;
}
