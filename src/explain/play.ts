/**
 * `tslc play`: an interactive game in the terminal. For an unrealizable spec the user plays the
 * controller against the environment's winning strategy on the core and watches a guarantee break;
 * for a realizable one the user plays the environment against the synthesized controller.
 * Input and output go through a small `PlayIO`, so tests script a whole game in-process.
 */
import { evaluateOnLasso, type Lasso } from '../automata/lasso.js';
import { committedInput, type Counterstrategy, counterstrategyStep } from '../game/counterstrategy.js';
import type { GameSpec, SpecPart } from '../game/spec.js';
import type { MealyMachine } from '../game/mealy.js';
import { dict, mergeDicts } from '../../runtime/dict.js';
import type { Formula } from '../ltl/formula.js';
import { completeOutput, mealyModel, type Valuation } from './counterplay.js';
import { progress, statusOf } from '../ltl/progress.js';
import { describeInputs, describeOutputs, partLocation, partText, vocabulary } from './words.js';

export interface PlayIO {
  /** Ask a question; resolves to the answer line, or undefined at end of input. */
  ask(prompt: string): Promise<string | undefined>;
  print(text: string): void;
}

export type PlayOutcome =
  | { readonly kind: 'violated'; readonly step: number; readonly parts: readonly SpecPart[] }
  | {
      readonly kind: 'loop';
      readonly step: number;
      readonly loopsTo: number;
      /** Guarantees neither satisfied nor broken yet when the game came back. */
      readonly pending: readonly SpecPart[];
      /** Those of them the repeating play never satisfies (judged on the play as a lasso). */
      readonly unsatisfied: readonly SpecPart[];
    }
  | { readonly kind: 'stopped'; readonly step: number };

const describeParts = (parts: readonly SpecPart[]) => parts.map((p) => `${partLocation(p)} (${partText(p)})`).join(', ');

/** The user chooses updates; the counterstrategy answers. Ends at the first broken guarantee. */
export async function playAsController(spec: GameSpec, cs: Counterstrategy, io: PlayIO, maxSteps = 50): Promise<PlayOutcome> {
  const vocab = vocabulary(spec);
  const parts = [...spec.preset, ...spec.guarantees];
  let formulas: Formula[] = parts.map((p) => p.formula);
  let state = cs.initial;
  const seen = new Map<string, number>();
  // The letters played so far, to judge the guarantees on the play once it repeats.
  const letters: Set<string>[] = [];
  io.print(`You are the controller. Try to satisfy: ${describeParts(parts)}`);
  for (let step = 1; step <= maxSteps; step++) {
    const key = `${state}|${formulas.map((f) => f.id).join(',')}`;
    const back = seen.get(key);
    if (back !== undefined) {
      // Steps back..step-1 repeat forever if the player keeps choosing the same: a lasso. A
      // pending guarantee may still hold on it (G ! toCave stays pending, yet is never broken),
      // so only those false on the lasso are named.
      const pending = parts.filter((_, i) => statusOf(formulas[i]) === 'pending');
      const lasso: Lasso = { prefix: letters.slice(0, back - 1), cycle: letters.slice(back - 1) };
      const unsatisfied = pending.filter((p) => !evaluateOnLasso(p.formula, lasso));
      io.print(
        `The game is back where it was at step ${back}: if you keep choosing the same, the environment can repeat this forever, and ` +
          (unsatisfied.length > 0
            ? `${describeParts(unsatisfied)} would never be satisfied.`
            : 'yet every guarantee holds on the repeating play.'),
      );
      return { kind: 'loop', step, loopsTo: back, pending, unsatisfied };
    }
    seen.set(key, step);
    const committed = cs.seesCurrentOutputs ? undefined : committedInput(cs, state);
    if (committed) io.print(`step ${step}: the environment makes ${describeInputs(committed, cs.inputs, vocab)}`);
    else io.print(`step ${step}: choose first; the environment answers after seeing your choice`);
    const output = dict(spec.outputs.map((o) => [o.name, false]));
    for (const g of spec.signals) {
      const options = g.updates.map((u, i) => `${i + 1}) ${vocab.isSelfUpdate(u) ? `keep ${g.signal}` : vocab.term(u)}`).join('  ');
      const pick = await askNumber(io, `${g.signal}: ${options} > `, g.updates.length);
      if (pick === undefined) return { kind: 'stopped', step };
      output[g.updates[pick - 1]] = true;
    }
    const grouped = new Set(spec.signals.flatMap((g) => g.updates));
    for (const o of spec.outputs.filter((x) => !grouped.has(x.name))) {
      const yes = await askYesNo(io, `${vocab.term(o.name)}? [y/n] > `);
      if (yes === undefined) return { kind: 'stopped', step };
      output[o.name] = yes;
    }
    const move = counterstrategyStep(cs, state, (n) => output[n] === true);
    if (!move) {
      io.print('That choice breaks a signal rule (exactly one update per signal).');
      return { kind: 'violated', step, parts: [] };
    }
    if (!committed) io.print(`  the environment makes ${describeInputs(move.input, cs.inputs, vocab)}`);
    const letter: Valuation = mergeDicts(dict(cs.inputs.map((n) => [n, move.input[n] === true])), output);
    letters.push(new Set(Object.keys(letter).filter((n) => letter[n])));
    formulas = formulas.map((f) => progress(f, (n) => letter[n] === true));
    state = move.next;
    const broken = parts.filter((_, i) => statusOf(formulas[i]) === 'violated');
    if (broken.length > 0) {
      io.print(`You chose ${describeOutputs(output, cs.outputs, vocab)} and violated ${describeParts(broken)} at step ${step}.`);
      return { kind: 'violated', step, parts: broken };
    }
  }
  io.print(`Stopped after ${maxSteps} steps.`);
  return { kind: 'stopped', step: maxSteps };
}

/** The user chooses predicate values; the synthesized controller answers with updates. */
export async function playAsEnvironment(spec: GameSpec, controller: MealyMachine, io: PlayIO, maxSteps = 50): Promise<PlayOutcome> {
  const vocab = vocabulary(spec);
  const model = mealyModel(spec, controller);
  const parts = [...spec.preset, ...spec.guarantees];
  let formulas: Formula[] = parts.map((p) => p.formula);
  let state = model.initial;
  io.print(`You are the environment; the controller (${controller.stateCount} state${controller.stateCount === 1 ? '' : 's'}) tries to satisfy: ${describeParts(parts)}`);
  for (let step = 1; step <= maxSteps; step++) {
    const input = dict<boolean>();
    for (const name of controller.inputs) {
      const yes = await askYesNo(io, `step ${step}: ${vocab.term(name)}? [y/n] > `);
      if (yes === undefined) return { kind: 'stopped', step };
      input[name] = yes;
    }
    const output = model.output(state, input);
    io.print(`  the controller chooses ${describeOutputs(output, controller.outputs, vocab)}`);
    const letter: Valuation = mergeDicts(input, completeOutput(spec, output));
    formulas = formulas.map((f) => progress(f, (n) => letter[n] === true));
    state = model.next(state, input, output);
    const broken = parts.filter((_, i) => statusOf(formulas[i]) === 'violated');
    if (broken.length > 0) {
      // Only possible when the user broke an assumption the guarantee relies on.
      io.print(`${describeParts(broken)} is violated at step ${step} — check which assumption your answers broke.`);
      return { kind: 'violated', step, parts: broken };
    }
  }
  return { kind: 'stopped', step: maxSteps };
}

async function askNumber(io: PlayIO, prompt: string, max: number): Promise<number | undefined> {
  for (;;) {
    const answer = (await io.ask(prompt))?.trim();
    if (answer === undefined || answer === 'q') return undefined;
    const n = Number(answer);
    if (Number.isInteger(n) && n >= 1 && n <= max) return n;
    io.print(`please answer 1–${max} (q to quit)`);
  }
}

async function askYesNo(io: PlayIO, prompt: string): Promise<boolean | undefined> {
  for (;;) {
    const answer = (await io.ask(prompt))?.trim().toLowerCase();
    if (answer === undefined || answer === 'q') return undefined;
    if (answer === 'y' || answer === 'yes' || answer === '1' || answer === 't' || answer === 'true') return true;
    if (answer === 'n' || answer === 'no' || answer === '0' || answer === 'f' || answer === 'false') return false;
    io.print('please answer y or n (q to quit)');
  }
}
