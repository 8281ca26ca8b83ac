/**
 * Synthetic agent logs with known ground truth for the Appendix D rule sets (Household, Recipe,
 * TextWorld). Each run starts from a compliant plan; some runs get exactly one seeded violation
 * made by a rule-specific edit of the plan (drop a step, insert one, move a block). The seeded
 * rule is the ground truth the auditor must find; tests check every edit violates its rule and
 * no other, with an evaluator independent of the monitors.
 *
 * Run `node dist/examples/audit/generate.js <env> <runs> <seed>` (after a build that includes it)
 * or import `generateLogs` to write JSONL yourself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as rng } from '../../runtime/random.js';

export type Step = Readonly<Record<string, string>>;
type Plan = Step[];
type Edit = (plan: Plan) => Plan;

export interface Environment {
  readonly name: 'household' | 'recipe' | 'textworld';
  readonly base: (r: () => number) => Plan;
  /** Rule name → an edit of the base plan that violates that rule and only it. */
  readonly violations: Readonly<Record<string, Edit>>;
}

const insertAt = (plan: Plan, index: number, ...steps: Step[]): Plan => [...plan.slice(0, index), ...steps, ...plan.slice(index)];
const removeAt = (plan: Plan, ...indices: number[]): Plan => plan.filter((_, i) => !indices.includes(i));
const find = (plan: Plan, pred: (s: Step) => boolean, from = 0): number => {
  for (let i = from; i < plan.length; i++) if (pred(plan[i])) return i;
  throw new Error('generator plan does not contain the expected step');
};
const is = (action: string, thing?: string, key = 'item') => (s: Step) => s.action === action && (thing === undefined || s[key] === thing);

// ---------------------------------------------------------------- TextWorld
const tw = (action: string, object = ''): Step => ({ action, object });
const textworld: Environment = {
  name: 'textworld',
  base: (r) => {
    const [a, b] = r() < 0.5 ? ['carrot', 'potato'] : ['red onion', 'yellow pepper'];
    return [
      tw('open', 'fridge'), tw('take', a), tw('examine', a), tw('take', 'knife'), tw('examine', 'knife'),
      tw('slice', a), tw('cook', a), tw('take', b), tw('examine', b), tw('chop', b), tw('cook', b), tw('eat', 'meal'),
    ];
  },
  violations: {
    'examine-after-take': (p) => removeAt(p, 2),
    'knife-only-for-cutting': (p) => {
      const k = find(p, is('take', 'knife', 'object'));
      const block = p.slice(k, k + 2);
      const rest = removeAt(p, k, k + 1);
      const cut = find(rest, (s) => s.action === 'slice');
      return insertAt(rest, cut + 1, ...block);
    },
    'no-drop': (p) => insertAt(p, 3, tw('drop', p[1].object)),
    'stay-in-kitchen': (p) => insertAt(p, 1, tw('go north')),
  },
};

// ---------------------------------------------------------------- Household
const hh = (action: string, target: string, room: string): Step => ({ action, target, room });
const household: Environment = {
  name: 'household',
  base: (r) => {
    const [a, b] = r() < 0.5 ? ['cup', 'plate'] : ['bowl', 'spoon'];
    const trip = (item: string): Plan => [
      hh('walk', 'living room', 'living room'), hh('walk', 'bathroom', 'bathroom'), hh('switch on', 'light', 'bathroom'),
      hh('wash', item, 'bathroom'), hh('switch off', 'light', 'bathroom'), hh('walk', 'living room', 'living room'),
      hh('walk', 'kitchen', 'kitchen'), hh('put in', 'cabinet', 'kitchen'),
    ];
    return [hh('walk', 'kitchen', 'kitchen'), hh('find', a, 'kitchen'), hh('get', a, 'kitchen'), ...trip(a), hh('get', b, 'kitchen'), ...trip(b)];
  },
  violations: {
    'water-in-bathroom': (p) => insertAt(p, 12, hh('wash', p[11].target, 'kitchen')),
    'lights-on-entering-bathroom': (p) => removeAt(p, find(p, is('switch on', undefined), 12)),
    'lights-off-before-leaving': (p) => removeAt(p, find(p, is('switch off', undefined), 12)),
    'via-living-room': (p) => removeAt(p, find(p, (s) => s.action === 'walk' && s.target === 'living room', 15)),
    'nothing-in-living-room': (p) => insertAt(p, 4, hh('find', 'towel', 'living room')),
    'wash-only-in-bathroom': (p) => insertAt(p, 7, hh('wash', p[6].target, 'bathroom')),
  },
};

// ---------------------------------------------------------------- Recipe
const rc = (action: string, item = ''): Step => ({ action, item });
const recipe: Environment = {
  name: 'recipe',
  base: () => [
    rc('preheat', 'oven'), rc('take out of fridge', 'eggs'), rc('take out of fridge', 'butter'), rc('take out of fridge', 'cream'),
    rc('mix', 'crumbs'), rc('mix', 'butter'), rc('put in oven', 'crust'), rc('wait'), rc('wait'), rc('take out of oven', 'crust'),
    rc('mix', 'eggs'), rc('mix', 'cream'), rc('put in fridge', 'eggs'), rc('put in fridge', 'cream'), rc('put in fridge', 'butter'),
    rc('pour filling', 'crust'), rc('put in oven', 'cheesecake'), rc('wait'), rc('wait'), rc('take out of oven', 'cheesecake'),
    rc('wait'), rc('put in fridge', 'cheesecake'), rc('wait'), rc('wait'), rc('take out of fridge', 'cheesecake'), rc('serve', 'cheesecake'),
  ],
  violations: {
    'preheat-before-baking': (p) => removeAt(p.map((s, i) => (i === 7 ? rc('preheat', 'oven') : s)), 0),
    'eggs-room-temperature': (p) => insertAt(p, 2, rc('mix', 'eggs')),
    'butter-room-temperature': (p) => insertAt(p, 3, rc('mix', 'butter')),
    'cream-room-temperature': (p) => insertAt(p, 4, rc('mix', 'cream')),
    'crust-baked': (p) => removeAt(p, 6, 7, 8, 9),
    'crust-cooled': (p) => [...p.slice(0, 10), ...p.slice(15, 20), ...p.slice(10, 15), ...p.slice(20)],
    'crust-two-steps': (p) => insertAt(p, 9, rc('wait')),
    'bake-after-pour': (p) => insertAt(p, 16, rc('wait')),
    'cake-two-steps': (p) => removeAt(p, 17),
    'cake-cools': (p) => removeAt(p, 20),
    'fridge-two-steps': (p) => insertAt(p, 24, rc('wait')),
    'serve-after-fridge': (p) => insertAt(p, 25, rc('wait')),
    'eggs-returned': (p) => removeAt(p, 12),
    'cream-returned': (p) => removeAt(p, 13),
    'butter-returned': (p) => removeAt(p, 14),
  },
};

export const environments: Readonly<Record<Environment['name'], Environment>> = { household, recipe, textworld };

export interface GeneratedLog {
  /** Events in log order; each has `run` and `step` besides the environment's fields. */
  readonly events: readonly Record<string, string | number>[];
  /** run id → the rule seeded as violated (absent: compliant run). */
  readonly truth: ReadonlyMap<string, string>;
}


/** `runs` runs; each violates one random rule with probability `violationRate`. */
export function generateLogs(env: Environment, runs: number, seed: number, violationRate = 0.5): GeneratedLog {
  const r = rng(seed);
  const rules = Object.keys(env.violations);
  const events: Record<string, string | number>[] = [];
  const truth = new Map<string, string>();
  for (let k = 0; k < runs; k++) {
    const run = `${env.name}-${k + 1}`;
    let plan = env.base(r);
    if (r() < violationRate) {
      const rule = rules[Math.floor(r() * rules.length)];
      plan = env.violations[rule](plan);
      truth.set(run, rule);
    }
    plan.forEach((s, step) => events.push({ run, step, ...s }));
  }
  return { events, truth };
}

/** The directory holding the rule and label files, from source or from dist/. */
export function examplesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'examples', 'audit');
    if (existsSync(join(candidate, 'recipe.ltl'))) return candidate;
    if (existsSync(join(dir, 'recipe.ltl'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('cannot find examples/audit');
}

export function ruleFiles(env: Environment['name']): { rules: string; labels: string; rulesText: string; labelsJson: unknown } {
  const dir = examplesDir();
  const rules = join(dir, `${env}.ltl`);
  const labels = join(dir, `${env}.labels.json`);
  return { rules, labels, rulesText: readFileSync(rules, 'utf8'), labelsJson: JSON.parse(readFileSync(labels, 'utf8')) };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const [name = 'recipe', runs = '50', seed = '1'] = process.argv.slice(2);
  const env = environments[name as Environment['name']];
  if (!env) throw new Error(`unknown environment ${name}`);
  for (const e of generateLogs(env, Number(runs), Number(seed)).events) process.stdout.write(JSON.stringify(e) + '\n');
}
