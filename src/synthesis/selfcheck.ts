/**
 * A small model check of a synthesized controller, used as a last line of defence inside
 * `synthesize`: the product of the machine with the Büchi automaton of ¬φ must have no
 * accepting cycle, every state must react to every input, and every output cube must be
 * complete with exactly one update per signal. Kept deliberately simple (and separate from the
 * game solver) so that a solver bug shows up as an internal error instead of a wrong controller.
 */
import { translateLtl } from '../automata/translate.js';
import type { Tgba } from '../automata/types.js';
import type { Counterstrategy, CounterstrategyTransition } from '../game/counterstrategy.js';
import type { MealyMachine } from '../game/mealy.js';
import { exactlyOne, type GameSpec, specFormula } from '../game/spec.js';
import { FALSE, type Formula, not, or, and, ap, TRUE } from '../ltl/formula.js';
import { mergeDicts } from '../../runtime/dict.js';
import { atomsOf, cofactor, cofactorCube } from './split.js';
import { acceptingComponents, stronglyConnectedComponents } from '../automata/scc.js';

/** Whether some valuation satisfies f (Shannon expansion; the guards here are small). */
export function satisfiable(f: Formula): boolean {
  if (f.kind === 'true') return true;
  if (f.kind === 'false') return false;
  const first = atomsOf(f).values().next().value as string;
  return satisfiable(cofactor(f, first, true)) || satisfiable(cofactor(f, first, false));
}

/** Returns a list of problems; empty means the machine is correct for the spec. */
/** A conjunction of literals for a (partial) assignment. */
function cubeFormula(c: Record<string, boolean>): Formula {
  return and(...Object.entries(c).map(([k, v]) => (v ? ap(k) : not(ap(k)))));
}

/** Returns a list of problems; empty means the machine is correct for the spec. */
export function checkControllerAgainst(spec: GameSpec, m: MealyMachine, formula: Formula = specFormula(spec)): string[] {
  const problems: string[] = [];
  const byState: (typeof m.transitions)[number][][] = Array.from({ length: m.stateCount }, () => []);
  for (const t of m.transitions) byState[t.from].push(t);
  for (let s = 0; s < m.stateCount; s++) {
    const covered = or(...byState[s].map((t) => cubeFormula(t.input)));
    if (satisfiable(not(covered))) problems.push(`state ${s} does not react to every input`);
  }
  for (const t of m.transitions) {
    for (const o of spec.outputs) if (!Object.hasOwn(t.output, o.name)) problems.push(`output ${o.name} unassigned`);
    for (const g of spec.signals) {
      const on = g.updates.filter((u) => t.output[u] === true).length;
      if (on !== 1) problems.push(`signal ${g.signal} gets ${on} updates in one step`);
    }
  }
  if (problems.length > 0) return [...new Set(problems)];
  const guard = (edgeGuard: Formula, letter: Record<string, boolean>) => (edgeGuard === TRUE ? TRUE : cofactorCube(edgeGuard, letter));
  if (productHasAcceptingCycle(m.initial, byState, translateLtl(not(formula)), guard))
    problems.push('some run of the controller violates the specification');
  return problems;
}

/**
 * Model check of a counterstrategy: the product with the Büchi automaton of φ must have no
 * accepting cycle, whatever the controller answers (only signal-respecting answers when the
 * counterstrategy says signals are enforced), and every answer must be covered.
 */
export function checkCounterstrategyAgainst(spec: GameSpec, cs: Counterstrategy, formula: Formula = specFormula(spec)): string[] {
  const problems: string[] = [];
  const byState: CounterstrategyTransition[][] = Array.from({ length: cs.stateCount }, () => []);
  for (const t of cs.transitions) byState[t.from].push(t);
  const signalRule = cs.signalsEnforced ? and(...spec.signals.map((g) => exactlyOne(g.updates))) : TRUE;
  for (let s = 0; s < cs.stateCount; s++) {
    const covered = or(...byState[s].map((t) => cubeFormula(t.output)));
    if (satisfiable(and(signalRule, not(covered)))) problems.push(`state ${s} does not react to every output`);
    if (!cs.seesCurrentOutputs && new Set(byState[s].map((t) => JSON.stringify(t.input))).size > 1)
      problems.push(`state ${s} plays different inputs before seeing the outputs`);
  }
  if (problems.length > 0) return problems;
  const guard = (edgeGuard: Formula, letter: Record<string, boolean>) => cofactorCube(and(signalRule, cofactorCube(edgeGuard, letter)), letter);
  if (productHasAcceptingCycle(cs.initial, byState, translateLtl(formula), guard))
    problems.push('some play of the counterstrategy satisfies φ');
  return problems;
}

/**
 * Explore the product of a machine (transitions labelled by input and output cubes) with an
 * automaton, keeping an edge when `guard` of the automaton edge under the transition's letter is
 * satisfiable, and report whether the product has an accepting cycle.
 */
function productHasAcceptingCycle(
  initial: number,
  byState: readonly (readonly { input: Record<string, boolean>; output: Record<string, boolean>; to: number }[])[],
  aut: Tgba,
  guard: (edgeGuard: Formula, letter: Record<string, boolean>) => Formula,
): boolean {
  const index = new Map<string, number>();
  const succ: number[][] = [];
  const edgeMarks: Array<Array<{ to: number; marks: readonly number[] }>> = [];
  const queue: Array<[number, number]> = [];
  const idOf = (s: number, q: number) => {
    const key = `${s},${q}`;
    let id = index.get(key);
    if (id === undefined) {
      id = index.size;
      index.set(key, id);
      queue.push([s, q]);
      succ.push([]);
      edgeMarks.push([]);
    }
    return id;
  };
  for (const q of aut.initial) idOf(initial, q);
  for (let h = 0; h < queue.length; h++) {
    const [s, q] = queue[h];
    for (const t of byState[s]) {
      const letter = mergeDicts(t.input, t.output);
      for (const e of aut.edges[q]) {
        const g = guard(e.guard, letter);
        if (g === FALSE || !satisfiable(g)) continue;
        const to = idOf(t.to, e.to);
        succ[h].push(to);
        edgeMarks[h].push({ to, marks: e.marks });
      }
    }
  }
  return hasAcceptingCycle(succ, edgeMarks, aut.accSets);
}

function hasAcceptingCycle(
  succ: number[][],
  edgeMarks: Array<Array<{ to: number; marks: readonly number[] }>>,
  accSets: number,
): boolean {
  // Every state of the product was reached from its initial states, so all are roots.
  const components = stronglyConnectedComponents(succ.length, succ.keys(), (v) => succ[v]);
  return acceptingComponents(succ.length, components, (v) => edgeMarks[v], accSets).includes(true);
}
