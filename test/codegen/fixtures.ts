/**
 * Hand-built TSL-like games and machines for codegen and runtime tests, independent of the
 * front end and synthesis (so these tests pin down codegen behaviour on their own).
 */
import type { TermData } from '../../runtime/table.js';
import type { GameSpec, PropositionInfo } from '../../src/game/spec.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { ap, F, G, implies } from '../../src/ltl/formula.js';

const sig = (name: string): TermData => ({ kind: 'signal', name });
const call = (fn: string, ...args: TermData[]): TermData => ({ kind: 'call', fn, args });

/**
 * Signals: `mood` (input), `summary` (cell), `count` (cell), `passage` (output).
 * Predicates: p_cave = inCave summary, p_town = inTown summary, p_happy = happy mood.
 */
export const tinySpec: GameSpec = {
  name: 'tiny',
  file: 'tiny.tsl',
  semantics: 'mealy',
  inputs: [
    { name: 'p_cave', term: 'inCave summary', predicate: { fn: 'inCave', args: [sig('summary')] } },
    { name: 'p_town', term: 'inTown summary', predicate: { fn: 'inTown', args: [sig('summary')] } },
    { name: 'p_happy', term: 'happy mood', predicate: { fn: 'happy', args: [sig('mood')] } },
  ],
  outputs: [
    update('u_toCave', 'passage', call('toCave', sig('summary'))),
    update('u_toTown', 'passage', call('toTown', sig('summary'))),
    update('u_passKeep', 'passage', sig('passage'), true),
    update('u_sumKeep', 'summary', sig('summary'), true),
    update('u_sumUpd', 'summary', call('summarize', sig('summary'), sig('passage'))),
    update('u_cntKeep', 'count', sig('count'), true),
    update('u_cntInc', 'count', call('add', sig('count'), { kind: 'literal', value: 1 })),
  ],
  signals: [
    { signal: 'passage', updates: ['u_toCave', 'u_toTown', 'u_passKeep'], selfUpdate: 'u_passKeep' },
    { signal: 'summary', updates: ['u_sumKeep', 'u_sumUpd'], selfUpdate: 'u_sumKeep' },
    { signal: 'count', updates: ['u_cntKeep', 'u_cntInc'], selfUpdate: 'u_cntKeep' },
  ],
  initially: [],
  preset: [],
  assumptions: [],
  guarantees: [
    { formula: G(implies(ap('p_cave'), ap('u_toTown'))), span: { file: 'tiny.tsl', line: 5, col: 3 } },
    { formula: G(F(ap('u_toCave'))), span: { file: 'tiny.tsl', line: 6, col: 3 } },
  ],
  tslSignals: [
    { name: 'mood', role: 'input' },
    { name: 'summary', role: 'cell' },
    { name: 'count', role: 'cell' },
    { name: 'passage', role: 'output' },
  ],
};

function update(name: string, signal: string, term: TermData, isSelfUpdate = false): PropositionInfo {
  const text = `[${signal} <- ${termText(term)}]`;
  return { name, term: text, update: { signal, term, isSelfUpdate } };
}

function termText(t: TermData): string {
  if (t.kind === 'signal') return t.name;
  if (t.kind === 'literal') return String(t.value);
  return [t.fn, ...t.args.map(termText)].join(' ');
}

/**
 * State 0: inCave → toTown, summarize, keep count → 1; otherwise (overlapping catch-all, first
 * match wins) → toCave, keep summary, count+1 → 0.
 * State 1: inTown ∧ ¬inCave → toCave, summarize, count+1 → 0; inTown → toCave, keep → 1;
 * ¬inTown → keep everything → 1.
 */
export const tinyMachine: MealyMachine = {
  inputs: ['p_cave', 'p_town', 'p_happy'],
  outputs: tinySpec.outputs.map((o) => o.name),
  stateCount: 2,
  initial: 0,
  transitions: [
    { from: 0, input: { p_cave: true }, output: { u_toTown: true, u_sumUpd: true, u_cntKeep: true }, to: 1 },
    { from: 0, input: {}, output: { u_toCave: true, u_sumKeep: true, u_cntInc: true }, to: 0 },
    { from: 1, input: { p_town: true, p_cave: false }, output: { u_toCave: true, u_sumUpd: true, u_cntInc: true }, to: 0 },
    { from: 1, input: { p_town: true }, output: { u_toCave: true }, to: 1 },
    { from: 1, input: { p_town: false }, output: { u_passKeep: true, u_sumKeep: true, u_cntKeep: true }, to: 1 },
  ],
};

/** Proposition index helpers for assertions. */
export const P = { cave: 0, town: 1, happy: 2 } as const;
export const U = { toCave: 0, toTown: 1, passKeep: 2, sumKeep: 3, sumUpd: 4, cntKeep: 5, cntInc: 6 } as const;
