/**
 * examples/cyoa — prompts of the choose-your-own-adventure agent from the papers
 * (000 Sec. 5.1 / Appendix A, 001 Sec. 5 / Appendices B and C), as templates for the runtime LLM
 * helpers. Names are the spec's names (`toCave`, `inCave`, …): the term helpers put them in the
 * `<!-- tslc:… -->` marker, and the simulated model's CYOA world (runtime/llm/sim/cyoa-world.ts)
 * knows the same names; test/llm/prompts.test.ts fails if the two drift apart.
 *
 * Wording follows the papers; passages and summaries are quoted in <passage>/<summary> tags so model
 * output cannot pose as instructions. `safeCount + 1` is plain TypeScript, never a prompt.
 */
import {
  type FunctionTemplate,
  type PredicateTemplate,
  type PromptView,
  quote,
  type SummaryTemplate,
} from '../../runtime/llm/index.js';

/** Appendix B: the generator's fixed instructions, shared by every function term. */
export const STORY_INSTRUCTIONS =
  'You are writing a choose your own adventure book. Compose a one paragraph-long passage of the story ' +
  'of at most 100 words. The paragraph should end just before a critical choice. Do not specify choices. ' +
  'Write in the present tense.';

/** The player's latest input, when the agent provides it as the `playerChoice` signal. */
function playerChoiceOf(view: PromptView): string | undefined {
  const choice = view.signals.playerChoice;
  return typeof choice === 'string' && choice.trim() !== '' ? choice : undefined;
}

/** The user message of a function term: story so far, the player's choice, then the modifier. */
function generationPrompt(view: PromptView): string {
  const summary = typeof view.args[0] === 'string' && view.args[0] !== '' ? view.args[0] : undefined;
  const parts = [summary ? `The story so far:\n${quote('summary', summary)}` : 'This is the first passage of the story.'];
  const choice = playerChoiceOf(view);
  if (choice) parts.push(`The player chose:\n${quote('choice', choice)}`);
  parts.push(view.modifier ?? '');
  return parts.join('\n\n');
}

function locationTerm(name: string, modifier: string): FunctionTemplate {
  return { name, params: ['summary'], system: STORY_INSTRUCTIONS, modifier, prompt: generationPrompt };
}

/** Function terms: `[storyPassage <- toCave(s)]` etc. The argument is the story summary. */
export const CYOA_FUNCTIONS = {
  toCave: locationTerm('toCave', 'Compose a passage where the reader encounters a cave on their journey.'),
  toMarket: locationTerm('toMarket', 'Compose a passage where the reader encounters a market on their journey.'),
  toTown: locationTerm('toTown', 'Compose a passage where the reader encounters a town on their journey.'),
  toForest: locationTerm(
    'toForest',
    'Compose an introductory passage of the story which describes the character and the setting. ' +
      'The setting must be a forest, not a market, town or cave.',
  ),
} as const satisfies Record<string, FunctionTemplate>;

function locationQuestion(name: string, place: string): PredicateTemplate {
  return {
    name,
    params: ['text'],
    prompt: (view) =>
      `Read this passage in an adventure story. Is the main character actively in a ${place} or not? ` +
      `Respond '0' if it is false, or '1' if it is true.\n\n${quote('passage', String(view.args[0] ?? ''))}`,
    // Batched evaluation quotes the passage once for all questions (runtime/llm/batch.ts).
    question: `In this passage of an adventure story, is the main character actively in a ${place}?`,
  };
}

/** Predicates: `inCave(s)` etc., asked about the latest passage or the summary. */
export const CYOA_PREDICATES = {
  inCave: locationQuestion('inCave', 'cave'),
  inMarket: locationQuestion('inMarket', 'market'),
  inTown: locationQuestion('inTown', 'town'),
  inForest: locationQuestion('inForest', 'forest'),
} as const satisfies Record<string, PredicateTemplate>;

/** Appendix B: the story-summary cell's update. */
export const CYOA_SUMMARY: SummaryTemplate = {
  system:
    'You are writing a book and need to recall important points of the story so far. Summarize the provided ' +
    'passage from about the story so far in moderate detail, including the main character description, the ' +
    'locations visited, items acquired, and interactions with other characters.',
  prompt: (view) => {
    const previous = String(view.params.previousSummary ?? '');
    const passage = String(view.params.passage ?? '');
    return previous === ''
      ? `The newest passage:\n${quote('passage', passage)}`
      : `The summary so far:\n${quote('summary', previous)}\n\nThe newest passage:\n${quote('passage', passage)}`;
  },
};

/** The four tasks of the papers' Table 1. */
export type CyoaTask = 'adventure' | 'forest' | 'choices' | 'all';

export interface CyoaTaskInfo {
  readonly task: CyoaTask;
  /** Table 1 row: which spec files are conjoined. */
  readonly specs: readonly string[];
  readonly description: string;
  /** States of the paper's synthesized controller (Table 1), for comparison only. */
  readonly paperStates: number;
}

export const CYOA_TASKS: Readonly<Record<CyoaTask, CyoaTaskInfo>> = {
  adventure: {
    task: 'adventure',
    specs: ['adventure.tsl'],
    description: 'The player can visit a cave only after visiting a town and a market.',
    paperStates: 8,
  },
  forest: {
    task: 'forest',
    specs: ['adventure.tsl', 'forest.tsl'],
    description: 'As adventure, and the initial story setting must be a forest.',
    paperStates: 9,
  },
  choices: {
    task: 'choices',
    specs: ['adventure.tsl', 'choices.tsl'],
    description:
      'As adventure, and if the player makes three safe choices and they are in a cave, they must visit a town.',
    paperStates: 16,
  },
  all: {
    task: 'all',
    specs: ['adventure.tsl', 'choices.tsl', 'forest.tsl'],
    description: 'All three constraints.',
    paperStates: 17,
  },
};

const ADVENTURE_RULES =
  'The player cannot visit a cave until they visit a town. The player cannot visit a cave until they visit a ' +
  'market. The player will eventually visit a town. The player will eventually visit a market. The player ' +
  'will eventually visit a cave. After the player visits a town and a market, they must visit a cave. The ' +
  'player may visit these locations in a later passage.';

const FOREST_RULE =
  'If this is the first passage of the story, you should write an introductory passage of the story starting ' +
  'which describes the character and the setting. The initial setting must be a forest, not a market, town or cave.';

/** What the prompt-only baseline is told about the game state each turn (task 3/4 prompts are stateful). */
export interface BaselineState {
  readonly safeCount: number;
  /** Whether the player's latest choice was safe. */
  readonly lastChoiceSafe: boolean;
  /** Whether the player is currently in a town (as last judged). */
  readonly inTown: boolean;
}

function choicesRules(state: BaselineState): string {
  return (
    "If the player is in the town and makes a safe choice, the 'safeCount' count variable should be incremented " +
    `by 1. The current amount of safe choices made is: ${state.safeCount}. The player just made a ` +
    `${state.lastChoiceSafe ? 'safe' : 'neutral'} choice. Once the player has made 3 safe choices and they are ` +
    "in a cave, they should go to a town. Make sure to output the current amount of safe choices made in the form: " +
    "'safeCount=x' at the beginning of each story passage and then include the story, but remember that this " +
    `variable can only be updated if the player is in a town, which right now, is ${state.inTown ? 'true' : 'false'}.`
  );
}

/**
 * The natural-language prompt of the prompt-only baseline (Appendices A/C), for one task and turn.
 * (The papers' task-3 text has a doubled "The the"; it is fixed here.)
 */
export function baselineInstructions(task: CyoaTask, state: BaselineState): string {
  const parts = [`${STORY_INSTRUCTIONS} ${ADVENTURE_RULES}`];
  if (task === 'choices' || task === 'all') parts.push(choicesRules(state));
  if (task === 'forest' || task === 'all') parts.push(FOREST_RULE);
  return parts.join(' ');
}

/**
 * The baseline's generation term: no modifier (free generation), the task's rules as system prompt.
 * Signals read: `safeCount`, `lastChoiceSafe`, `inTown` (defaults 0/false/false) and `playerChoice`.
 */
export function baselineTemplate(task: CyoaTask): FunctionTemplate {
  return {
    name: 'story',
    mode: 'generate',
    params: ['summary'],
    system: (view) =>
      baselineInstructions(task, {
        safeCount: typeof view.signals.safeCount === 'number' ? view.signals.safeCount : 0,
        lastChoiceSafe: view.signals.lastChoiceSafe === true,
        inTown: view.signals.inTown === true,
      }),
    prompt: generationPrompt,
  };
}

/** Reads the `safeCount=x` the baseline is told to print; undefined when it is missing. */
export function parseBaselineSafeCount(passage: string): number | undefined {
  const match = /safe-?count\s*[=:]\s*(\d+)/i.exec(passage);
  return match ? Number(match[1]) : undefined;
}
