/**
 * Builds the runtime's `MonitorAutomaton` (LTL3 monitor as plain JSON) from the automata layer:
 * translate the property and its negation to TGBAs, then mark each state live when an accepting
 * cycle is reachable from it — a non-trivial SCC whose internal edges carry every acceptance set.
 */
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import type { MonitorAutomaton, MonitorPart } from '../../runtime/monitor/automaton.js';
import { liveStates as liveStatesOf } from '../automata/live-states.js';
import { BddManager } from '../automata/bdd.js';
import { type SymbolicTgba, toFormulaGuards, translateLtl, translateLtlSymbolic } from '../automata/translate.js';
import type { Tgba } from '../automata/types.js';
import type { Formula } from '../ltl/formula.js';
import { not } from '../ltl/formula.js';
import { fromSyntax } from '../ltl/from-syntax.js';

/** States of `a` from which some accepting run exists. */
export function liveStates(a: Tgba): boolean[] {
  const usable = a.edges.map((out) => out.filter((e) => !isFalse(e.guard)));
  return liveStatesOf(a.stateCount, (s) => usable[s], a.accSets);
}

function isFalse(f: Formula): boolean {
  return f.kind === 'false';
}

/** Propositional formula → plain syntax. */
export function guardToNode(f: Formula): LtlNode {
  switch (f.kind) {
    case 'true':
      return { op: 'true' };
    case 'false':
      return { op: 'false' };
    case 'ap':
      return { op: 'ap', name: f.name };
    case 'not':
      return { op: '!', arg: guardToNode(f.arg) };
    case 'and':
    case 'or':
      return { op: f.kind === 'and' ? '&' : '|', args: f.args.map(guardToNode) };
    case 'implies':
      return { op: '->', left: guardToNode(f.left), right: guardToNode(f.right) };
    case 'iff':
      return { op: '<->', left: guardToNode(f.left), right: guardToNode(f.right) };
    case 'xor':
      return { op: 'xor', left: guardToNode(f.left), right: guardToNode(f.right) };
    default:
      throw new Error(`guard is not propositional: ${f.kind}`);
  }
}

function part(a: Tgba): MonitorPart {
  const live = liveStates(a);
  return {
    initial: [...a.initial],
    states: a.edges.map((edges, s) => ({
      live: live[s],
      edges: edges.filter((e) => !isFalse(e.guard)).map((e) => ({ to: e.to, guard: guardToNode(e.guard) })),
    })),
  };
}

export function buildMonitorAutomaton(formula: LtlNode): MonitorAutomaton {
  const f = fromSyntax(formula);
  return monitorAutomatonOf(translateLtl(f), translateLtl(not(f)));
}

/**
 * The monitor automaton with the two automata it was read from (`positive` of the property,
 * `negative` of its negation, on one BDD manager), for callers that test more on them: the audit's
 * rule kinds read liveness off the monitor and safety off the automata, from one translation.
 */
export function translateProperty(formula: LtlNode): { monitor: MonitorAutomaton; positive: SymbolicTgba; negative: SymbolicTgba } {
  const f = fromSyntax(formula);
  const bdd = new BddManager();
  const positive = translateLtlSymbolic(f, bdd);
  const negative = translateLtlSymbolic(not(f), bdd);
  return { monitor: monitorAutomatonOf(toFormulaGuards(positive), toFormulaGuards(negative)), positive, negative };
}

function monitorAutomatonOf(pos: Tgba, neg: Tgba): MonitorAutomaton {
  const aps = [...new Set([...pos.aps, ...neg.aps])].sort();
  return { version: 1, aps, positive: part(pos), negative: part(neg) };
}
