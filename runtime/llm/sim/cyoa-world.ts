/**
 * The choose-your-own-adventure world of the papers' evaluation, for the simulated model.
 * Facts of a passage: `location` (forest | town | market | cave), `endsAtChoice` and the hero.
 * Function terms `toForest/toTown/toMarket/toCave` ask for a location; predicates
 * `inForest/inTown/inMarket/inCave` (and the paper-000 aliases `getTown/getMarket/getCave`) read it.
 * The prompts in examples/cyoa/prompts.ts use exactly these names (a test checks it).
 */
import { own } from '../../dict.js';
import type { Rng } from './rng.js';
import type { Facts, SimWorld } from './world.js';

export const CYOA_LOCATIONS = ['forest', 'town', 'market', 'cave'] as const;
export type CyoaLocation = (typeof CYOA_LOCATIONS)[number];

const FUNCTION_TARGETS: Readonly<Record<string, CyoaLocation>> = {
  toForest: 'forest',
  toTown: 'town',
  toMarket: 'market',
  toCave: 'cave',
};

const PREDICATE_TARGETS: Readonly<Record<string, CyoaLocation>> = {
  inForest: 'forest',
  inTown: 'town',
  inMarket: 'market',
  inCave: 'cave',
  getForest: 'forest',
  getTown: 'town',
  getMarket: 'market',
  getCave: 'cave',
};

const HEROES = ['Mira the cartographer', 'Tobin the tinker', 'Ilse the herbalist', 'Corvin the squire'];

const SCENES: Readonly<Record<CyoaLocation, readonly string[]>> = {
  forest: [
    'stands beneath the tall pines of the forest, where moss muffles every step',
    'pushes through the forest undergrowth as birds scatter overhead',
    'follows a deer trail deep into the forest, light falling in green shafts',
  ],
  town: [
    'walks through the town gate and past the chattering well in the square',
    'rests on the steps of the town hall while bells ring the hour',
    'wanders the narrow streets of the town, lanterns flickering to life',
  ],
  market: [
    'weaves between the stalls of the market, spices and shouting all around',
    'haggles with a fruit seller in the crowded market',
    'watches a juggler at the edge of the busy market square',
  ],
  cave: [
    'ducks into the cold mouth of the cave, water dripping in the dark',
    'lights a torch inside the cave and sees strange markings on the rock',
    'crawls deeper into the cave as the echo of footsteps fades',
  ],
};

const DETAILS = [
  'A crow watches from a branch.',
  'Somewhere, a dog barks twice.',
  'The wind carries the smell of rain.',
  'A stranger in a grey cloak hurries past.',
  'A coin glints on the ground.',
  'Distant thunder rolls.',
];

const CHOICE_ENDINGS = [
  'Two paths lie ahead, and the hero must decide which to take.',
  'A hooded figure offers a deal, and the hero must answer.',
  'A sudden noise demands a choice: hide or stand firm.',
];

const OPEN_ENDINGS = ['The day drifts on quietly.', 'Nothing seems to happen for a while.'];

function locationOf(facts: Facts | undefined): CyoaLocation | undefined {
  const value = facts?.location;
  return typeof value === 'string' && (CYOA_LOCATIONS as readonly string[]).includes(value)
    ? (value as CyoaLocation)
    : undefined;
}

export interface CyoaWorldOptions {
  /** Probability that a passage ends just before a choice, as the prompts ask (default 0.95). */
  readonly choiceRate?: number;
}

export function cyoaWorld(options: CyoaWorldOptions = {}): SimWorld {
  const choiceRate = options.choiceRate ?? 0.95;

  function facts(location: CyoaLocation, rng: Rng): Facts {
    return { location, endsAtChoice: rng.chance(choiceRate), hero: rng.pick(HEROES) };
  }

  return {
    name: 'cyoa',
    functionNames: Object.keys(FUNCTION_TARGETS),
    predicateNames: Object.keys(PREDICATE_TARGETS),
    intent(functionName) {
      const location = own(FUNCTION_TARGETS, functionName);
      return location === undefined ? undefined : { location };
    },
    realize(intent, rng) {
      return facts(locationOf(intent) ?? rng.pick(CYOA_LOCATIONS), rng);
    },
    contradict(intent, rng) {
      const wanted = locationOf(intent);
      return facts(rng.pick(CYOA_LOCATIONS.filter((l) => l !== wanted)), rng);
    },
    spontaneous(rng) {
      return facts(rng.pick(CYOA_LOCATIONS), rng);
    },
    render(passage, rng) {
      const location = locationOf(passage) ?? 'forest';
      const hero = typeof passage.hero === 'string' ? passage.hero : rng.pick(HEROES);
      const ending = passage.endsAtChoice === true ? rng.pick(CHOICE_ENDINGS) : rng.pick(OPEN_ENDINGS);
      return `${hero} ${rng.pick(SCENES[location])}. ${rng.pick(DETAILS)} ${ending}`;
    },
    predicate(name, passage) {
      if (name === 'endsAtChoice') return passage.endsAtChoice === true;
      const target = own(PREDICATE_TARGETS, name);
      return target === undefined ? undefined : locationOf(passage) === target;
    },
    summarize(previous, latest, rng) {
      const earlier = Array.isArray(previous?.visited) ? (previous.visited as readonly string[]) : [];
      const location = locationOf(latest) ?? 'forest';
      const visited = [...earlier, location];
      const hero = typeof latest.hero === 'string' ? latest.hero : rng.pick(HEROES);
      const text =
        `Summary: ${hero} has so far been to ${visited.map((l) => `the ${l}`).join(', ')}. ` +
        `At the end of the latest passage the hero is in the ${location}.`;
      return { text, facts: { location, visited, hero } };
    },
    classify(text) {
      // Count location words; a clear winner is the location, anything else is unreadable.
      const lower = text.toLowerCase();
      const counts = CYOA_LOCATIONS.map((l) => [l, lower.split(l).length - 1] as const).sort((a, b) => b[1] - a[1]);
      const [best, second] = counts;
      if (!best || best[1] === 0 || (second && second[1] === best[1])) return undefined;
      return { location: best[0], endsAtChoice: /\bdecide|choice|must answer\b/.test(lower) };
    },
  };
}
