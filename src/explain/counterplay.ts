/**
 * Counterplay: the environment's winning strategy (a `Counterstrategy`) played out.
 *
 * `playAgainst` runs it against any finite-state controller until the joint state repeats, which
 * yields an ultimately periodic play (a lasso) on which the guarantees can be judged exactly —
 * tests replay it against many random controllers, `tslc play` against a person.
 * `tellStory` unfolds it into a small tree of steps: what the environment makes true, how it
 * reacts to the controller's choices, and the step at which each branch breaks a guarantee.
 */
import { evaluateOnLasso, type Lasso } from '../automata/lasso.js';
import { committedInput, type Counterstrategy, counterstrategyStep } from '../game/counterstrategy.js';
import type { Cube, MealyMachine } from '../game/mealy.js';
import { cubeMatches } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import type { GameSpec, SpecPart } from '../game/spec.js';
import { and, type Formula } from '../ltl/formula.js';
import { progress, statusOf } from '../ltl/progress.js';
import { describeInputs, describeOutputs, partLocation, partText, vocabulary } from './words.js';

export type Valuation = Readonly<Record<string, boolean>>;

/** A controller as the counterplay sees it: explicit state, so plays can close into loops. */
export interface ControllerModel<S> {
  readonly initial: S;
  key(state: S): string;
  /** The controller's outputs; for Moore specs it must decide before the input is known. */
  output(state: S, input: Valuation | undefined): Valuation;
  next(state: S, input: Valuation, output: Valuation): S;
}

export interface PlayStep {
  readonly step: number;
  readonly input: Valuation;
  readonly output: Valuation;
}

export interface Play {
  readonly steps: readonly PlayStep[];
  /** Index of the first step of the repeating part. */
  readonly loopStart: number;
  readonly lasso: Lasso;
}

export class CounterplayError extends Error {}

const complete = (cube: Cube, names: readonly string[]): Valuation =>
  dict(names.map((n) => [n, cube[n] === true]));

/** Play `cs` against `controller` until the joint state repeats (at most `maxSteps`). */
export function playAgainst<S>(cs: Counterstrategy, controller: ControllerModel<S>, maxSteps = 10_000): Play {
  const seen = new Map<string, number>();
  const steps: PlayStep[] = [];
  let csState = cs.initial;
  let ctrl = controller.initial;
  for (let step = 0; step < maxSteps; step++) {
    const key = `${csState}|${controller.key(ctrl)}`;
    const loopStart = seen.get(key);
    if (loopStart !== undefined) return { steps, loopStart, lasso: toLasso(steps, loopStart) };
    seen.set(key, step);
    let input: Valuation;
    let output: Valuation;
    if (cs.seesCurrentOutputs) {
      output = controller.output(ctrl, undefined);
      const move = counterstrategyStep(cs, csState, (n) => output[n] === true);
      if (!move) throw new CounterplayError(`counterstrategy has no move in state ${csState}`);
      input = complete(move.input, cs.inputs);
      csState = move.next;
    } else {
      const committed = committedInput(cs, csState);
      if (!committed) throw new CounterplayError(`counterstrategy has no input in state ${csState}`);
      input = complete(committed, cs.inputs);
      output = controller.output(ctrl, input);
      const move = counterstrategyStep(cs, csState, (n) => output[n] === true);
      if (!move) throw new CounterplayError(`counterstrategy does not cover the controller's outputs in state ${csState}`);
      csState = move.next;
    }
    steps.push({ step, input, output });
    ctrl = controller.next(ctrl, input, output);
  }
  throw new CounterplayError(`no loop within ${maxSteps} steps`);
}

function toLasso(steps: readonly PlayStep[], loopStart: number): Lasso {
  const letter = (s: PlayStep) => new Set(Object.entries({ ...s.input, ...s.output }).filter(([, v]) => v).map(([k]) => k));
  return { prefix: steps.slice(0, loopStart).map(letter), cycle: steps.slice(loopStart).map(letter) };
}

/**
 * A Mealy machine as a controller model. Outputs its cube leaves open are completed the way code
 * generation does: the signal's self-update if allowed, otherwise the first permitted update;
 * free boolean outputs default to false.
 */
export function mealyModel(spec: GameSpec, m: MealyMachine): ControllerModel<number> {
  const pick = (state: number, input: Valuation | undefined) => {
    const t = m.transitions.find((tr) => tr.from === state && cubeMatches(tr.input, (n) => input?.[n] === true));
    if (!t) throw new CounterplayError(`controller has no transition from state ${state}`);
    return t;
  };
  return {
    initial: m.initial,
    key: (s) => String(s),
    output: (s, input) => completeOutput(spec, pick(s, input).output),
    next: (s, input) => pick(s, input).to,
  };
}

export function completeOutput(spec: GameSpec, cube: Cube): Valuation {
  const out = dict<boolean>();
  for (const o of spec.outputs) out[o.name] = cube[o.name] === true;
  for (const g of spec.signals) {
    if (g.updates.some((u) => cube[u] === true)) continue;
    const choice = g.selfUpdate !== undefined && cube[g.selfUpdate] !== false ? g.selfUpdate : g.updates.find((u) => cube[u] !== false);
    if (choice !== undefined) out[choice] = true;
  }
  return out;
}

/** Every output valuation that respects the signal groups (one update each), if there are few. */
export function signalRespectingOutputs(spec: GameSpec, limit = 64): Valuation[] | undefined {
  const grouped = new Set(spec.signals.flatMap((g) => g.updates));
  const free = spec.outputs.map((o) => o.name).filter((n) => !grouped.has(n));
  let count = 2 ** free.length;
  for (const g of spec.signals) count *= g.updates.length;
  if (count > limit) return undefined;
  let partial: Record<string, boolean>[] = [dict()];
  for (const g of spec.signals) partial = partial.flatMap((p) => g.updates.map((u) => mergeDicts(p, dict(g.updates.map((v) => [v, v === u])))));
  for (const n of free) partial = partial.flatMap((p) => [mergeDicts(p, dict([[n, false]])), mergeDicts(p, dict([[n, true]]))]);
  return partial;
}

/** Which of `parts` are false on the play (judged exactly on its lasso). */
export function violatedOn(play: Play, parts: readonly SpecPart[]): SpecPart[] {
  return parts.filter((p) => !evaluateOnLasso(p.formula, play.lasso));
}

// ---------------------------------------------------------------------------------------------
// Stories

export interface StoryEnd {
  readonly kind: 'violation' | 'loop' | 'truncated';
  /** The guarantees this branch breaks (violation: at `step`; loop: never fulfilled). */
  readonly broken: readonly SpecPart[];
  readonly step: number;
  /** For loops: the step the play returns to. */
  readonly loopsTo?: number;
}

export interface StoryBranch {
  /** The controller choices leading here, in words (empty when every choice does). */
  readonly choices: readonly string[];
  readonly whatever: boolean;
  readonly then: StoryNode | StoryEnd;
}

export interface StoryNode {
  readonly kind: 'step';
  /** 1-based, as users count steps. */
  readonly step: number;
  /** The environment's inputs this step, in words (Mealy: before seeing the controller's move). */
  readonly inputs: string;
  readonly branches: readonly StoryBranch[];
}

export interface Story {
  readonly root: StoryNode;
  /** The guarantees the story shows broken. */
  readonly named: readonly SpecPart[];
  readonly truncated: boolean;
}

export interface StoryOptions {
  readonly maxDepth?: number;
  readonly maxNodes?: number;
}

/**
 * Unfold the counterstrategy into a story for `spec` (normally the core's spec). Branches are
 * grouped by what happens next, so controller choices that lead to the same situation share one
 * line. Needs a Mealy counterstrategy and few enough signal-respecting outputs to enumerate; for
 * others each counterstrategy transition stands for its choices.
 */
export function tellStory(spec: GameSpec, cs: Counterstrategy, options: StoryOptions = {}): Story {
  const maxDepth = options.maxDepth ?? 12;
  const maxNodes = options.maxNodes ?? 40;
  const vocab = vocabulary(spec);
  const obligations = [...spec.preset, ...spec.guarantees];
  const outputs = signalRespectingOutputs(spec);
  const named = new Set<SpecPart>();
  let nodes = 0;
  let truncated = false;

  interface Path {
    readonly keys: Map<string, number>;
    readonly letters: Valuation[];
  }

  const visit = (csState: number, formulas: readonly Formula[], step: number, path: Path): StoryNode | StoryEnd => {
    const key = `${csState}|${formulas.map((f) => f.id).join(',')}`;
    const back = path.keys.get(key);
    if (back !== undefined) {
      const lasso: Lasso = {
        prefix: path.letters.slice(0, back).map(toSet),
        cycle: path.letters.slice(back).map(toSet),
      };
      const broken = obligations.filter((p) => !evaluateOnLasso(p.formula, lasso));
      broken.forEach((p) => named.add(p));
      return { kind: 'loop', broken, step, loopsTo: back + 1 };
    }
    if (step > maxDepth || nodes >= maxNodes) {
      truncated = true;
      return { kind: 'truncated', broken: [], step };
    }
    nodes++;
    const committed = cs.seesCurrentOutputs ? undefined : committedInput(cs, csState);
    const moves: Array<{ input: Valuation; output: Valuation; next: number }> = [];
    const candidates = outputs ?? cs.transitions.filter((t) => t.from === csState).map((t) => completeOutput(spec, t.output));
    for (const output of candidates) {
      const move = counterstrategyStep(cs, csState, (n) => output[n] === true);
      if (!move) continue;
      moves.push({ input: complete(committed ?? move.input, cs.inputs), output, next: move.next });
    }
    // Group controller choices by their consequence (next strategy state + what is left to prove).
    const groups = new Map<string, { choices: Valuation[]; next: number; input: Valuation; after: Formula[] }>();
    for (const m of moves) {
      const letter = { ...m.input, ...m.output };
      const after = formulas.map((f) => progress(f, (n) => letter[n] === true));
      const gkey = `${m.next}|${after.map((f) => f.id).join(',')}`;
      const g = groups.get(gkey);
      if (g) g.choices.push(m.output);
      else groups.set(gkey, { choices: [m.output], next: m.next, input: m.input, after });
    }
    const inputWords = describeInputs(committed ?? moves[0]?.input ?? {}, cs.inputs, vocab);
    const branches: StoryBranch[] = [];
    for (const g of groups.values()) {
      const choices = [...new Set(g.choices.map((c) => describeOutputs(c, cs.outputs, vocab)))];
      const broken = obligations.filter((_, i) => statusOf(g.after[i]) === 'violated');
      let then: StoryNode | StoryEnd;
      if (broken.length > 0) {
        broken.forEach((p) => named.add(p));
        then = { kind: 'violation', broken, step };
      } else {
        const keys = new Map(path.keys);
        keys.set(key, path.letters.length);
        then = visit(g.next, g.after, step + 1, { keys, letters: [...path.letters, { ...g.input, ...g.choices[0] }] });
      }
      branches.push({ choices, whatever: groups.size === 1, then });
    }
    return { kind: 'step', step, inputs: inputWords, branches };
  };

  const initial = obligations.map((p) => p.formula);
  const root = visit(cs.initial, initial, 1, { keys: new Map(), letters: [] });
  if (root.kind !== 'step') throw new CounterplayError('counterstrategy story has no first step');
  return { root, named: obligations.filter((p) => named.has(p)), truncated };
}

const toSet = (v: Valuation) => new Set(Object.keys(v).filter((k) => v[k]));

/** The story as indented text. */
export function renderStory(story: Story): string {
  const lines: string[] = [];
  const describeBroken = (parts: readonly SpecPart[]) => parts.map((p) => `${partLocation(p)} (${partText(p)})`).join(' and ');
  const node = (n: StoryNode, indent: string): void => {
    lines.push(`${indent}step ${n.step}: the environment makes ${n.inputs}`);
    for (const b of n.branches) {
      const who = b.whatever ? 'whatever the controller does' : `if the controller chooses ${b.choices.join(' or ')}`;
      const t = b.then;
      if (t.kind === 'step') {
        lines.push(`${indent}  ${who}, then`);
        node(t, indent + '    ');
      } else if (t.kind === 'violation') lines.push(`${indent}  ${who}, it violates ${describeBroken(t.broken)} at step ${t.step}`);
      else if (t.kind === 'loop')
        lines.push(
          `${indent}  ${who}, the play repeats from step ${t.loopsTo} forever` +
            (t.broken.length > 0 ? ` and never satisfies ${describeBroken(t.broken)}` : ''),
        );
      else lines.push(`${indent}  ${who}, … (story cut short)`);
    }
  };
  node(story.root, '');
  return lines.join('\n');
}

/** The controller's view of the whole spec's guarantees as one formula (for `tslc play`). */
export function obligationFormula(spec: GameSpec): Formula {
  return and(...spec.preset.map((p) => p.formula), ...spec.guarantees.map((p) => p.formula));
}
