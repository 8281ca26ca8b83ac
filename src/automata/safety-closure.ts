/**
 * Is the language of an LTL formula a safety property? Decided exactly, whatever the syntax: φ is
 * safety iff every word outside L(φ) has a finite bad prefix, i.e. iff L(φ) contains its own safety
 * closure (the words all of whose prefixes can still be extended into L(φ)). With A the automaton
 * of φ, the closure is accepted by A's *live* states (those from which an accepting run exists)
 * with every infinite run through them accepting: a word all of whose prefixes end in a live state
 * has, by König's lemma, an infinite run through live states only. So φ is safety iff no word has
 * both such a run of A and an accepting run of the automaton of ¬φ: an emptiness check of their
 * product, with the acceptance of ¬φ's automaton.
 *
 * This is the semantic class Spot's `ltlfilt --safety` tests; the syntactic fragment (no F, U, M
 * in negation normal form) recognises only part of it (`Fp → (¬q U p)`, "no q before p", is safety
 * but outside the fragment).
 */
import { type Formula, not } from '../ltl/formula.js';
import { BDD_FALSE, BddManager } from './bdd.js';
import { liveStates } from './live-states.js';
import { acceptingComponents, stronglyConnectedComponents } from './scc.js';
import { type SymbolicEdge, type SymbolicTgba, translateLtlSymbolic } from './translate.js';

export interface SafetyOptions {
  /** Largest product explored; beyond it the answer is undefined (default 100,000 pairs). */
  readonly maxProductStates?: number;
}

/** True when L(f) is a safety property, false when not, undefined when the product is too large. */
export function isSafetyProperty(f: Formula, options: SafetyOptions = {}): boolean | undefined {
  const bdd = new BddManager();
  return isSafetyLanguage(translateLtlSymbolic(f, bdd), translateLtlSymbolic(not(f), bdd), options);
}

/**
 * The same test on automata already built: `positive` of φ and `negative` of ¬φ, on one BDD
 * manager (a caller that reads other properties off the same two automata translates once).
 */
export function isSafetyLanguage(positive: SymbolicTgba, negative: SymbolicTgba, options: SafetyOptions = {}): boolean | undefined {
  if (positive.bdd !== negative.bdd) throw new Error('isSafetyLanguage: the two automata must share one BDD manager');
  const bdd = positive.bdd;
  const usable = positive.edges.map((out) => out.filter((e) => e.guard !== BDD_FALSE));
  const live = liveStates(positive.stateCount, (s) => usable[s], positive.accSets);
  const limit = options.maxProductStates ?? 100_000;
  // Product states (p, q): p a live state of φ's automaton, q any state of ¬φ's.
  const pairs: [number, number][] = [];
  const indexOf = new Map<number, number>();
  const edges: SymbolicEdge[][] = [];
  const stateOf = (p: number, q: number): number => {
    const key = p * negative.stateCount + q;
    let i = indexOf.get(key);
    if (i === undefined) {
      i = pairs.length;
      indexOf.set(key, i);
      pairs.push([p, q]);
    }
    return i;
  };
  const initial: number[] = [];
  for (const p of positive.initial) if (live[p]) for (const q of negative.initial) initial.push(stateOf(p, q));
  for (let s = 0; s < pairs.length; s++) {
    if (pairs.length > limit) return undefined;
    const [p, q] = pairs[s];
    const out: SymbolicEdge[] = [];
    for (const ep of usable[p]) {
      if (!live[ep.to]) continue;
      for (const eq of negative.edges[q]) {
        const guard = bdd.and(ep.guard, eq.guard);
        if (guard !== BDD_FALSE) out.push({ to: stateOf(ep.to, eq.to), guard, marks: eq.marks });
      }
    }
    edges.push(out);
  }
  const components = stronglyConnectedComponents(pairs.length, initial, (s) => edges[s].map((e) => e.to));
  return !acceptingComponents(pairs.length, components, (s) => edges[s], negative.accSets).includes(true);
}
