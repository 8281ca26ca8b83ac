/**
 * The pluggable "world" behind the simulated model. A world decides what a generated passage is
 * really about (its hidden facts), writes text for those facts, answers predicates from facts and
 * summarizes. The simulated model adds the noise (hallucination, evaluator error) around it, so a
 * new domain (a tutor, a robot) only needs a new world, not a new simulator.
 */
import { own } from '../../dict.js';
import type { Rng } from './rng.js';

export type FactValue = string | number | boolean | readonly string[];

/** Hidden ground truth about one passage or summary. */
export type Facts = Readonly<Record<string, FactValue>>;

export interface SimWorld {
  readonly name: string;
  /** Function-term names this world can generate for (for sync checks with prompt files). */
  readonly functionNames: readonly string[];
  /** Predicate names this world can judge. */
  readonly predicateNames: readonly string[];
  /** The facts a function term's modifier asks for; undefined if the world has no such term. */
  intent(functionName: string): Facts | undefined;
  /** Complete facts for a passage that honours `intent`. */
  realize(intent: Facts, rng: Rng): Facts;
  /** Complete facts for a passage that does NOT honour `intent` (a hallucination). */
  contradict(intent: Facts, rng: Rng): Facts;
  /** Facts for a passage written without any modifier (e.g. the prompt-only baseline). */
  spontaneous(rng: Rng): Facts;
  /** Text for the facts; the simulated model labels it as simulated. */
  render(facts: Facts, rng: Rng): string;
  /** The predicate's ground truth on `facts`; undefined if the world has no such predicate. */
  predicate(name: string, facts: Facts): boolean | undefined;
  summarize(previous: Facts | undefined, latest: Facts, rng: Rng): { readonly text: string; readonly facts: Facts };
  /** Best-effort facts for text the simulator did not write itself (keyword reading). */
  classify?(text: string): Facts | undefined;
}

/** A passage honours an intent when every fact the intent names has the intended value. */
export function honours(facts: Facts, intent: Facts): boolean {
  return Object.entries(intent).every(([key, value]) => sameFact(own(facts, key), value));
}

function sameFact(a: FactValue | undefined, b: FactValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}
