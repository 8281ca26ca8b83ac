/**
 * src/explain — turning solver artefacts into things a person can read: unrealizability cores,
 * counterplay stories, closest causes on traces, and controller diagrams.
 *
 * This file holds the shared vocabulary: propositions in the user's terms (`inCave s`,
 * `[storyPassage <- toCave s]`) instead of the mangled proposition names the solver sees, and spec
 * parts by `file:line`, because that is what a user can act on.
 */
import type { Cube } from '../game/mealy.js';
import type { GameSpec, PropositionInfo, SpecPart } from '../game/spec.js';
import { toSpot } from '../ltl/print.js';

export interface Vocabulary {
  /** The user's term for a proposition (`inCave s`), or the proposition name itself. */
  term(name: string): string;
  /** Self-updates are "keep the value", which diagrams and stories leave out. */
  isSelfUpdate(name: string): boolean;
  /** The signal an update proposition belongs to, if any. */
  signalOf(name: string): string | undefined;
}

export function vocabulary(spec: GameSpec): Vocabulary {
  const info = new Map<string, PropositionInfo>();
  for (const p of [...spec.inputs, ...spec.outputs]) info.set(p.name, p);
  const signalOf = new Map<string, string>();
  const selfUpdates = new Set<string>();
  for (const g of spec.signals) {
    for (const u of g.updates) signalOf.set(u, g.signal);
    if (g.selfUpdate) selfUpdates.add(g.selfUpdate);
  }
  for (const p of spec.outputs) if (p.update?.isSelfUpdate) selfUpdates.add(p.name);
  return {
    term: (name) => info.get(name)?.term ?? name,
    isSelfUpdate: (name) => selfUpdates.has(name),
    signalOf: (name) => signalOf.get(name) ?? info.get(name)?.update?.signal,
  };
}

/** `adventure.tsl:14` (base name only: paths make messages long and the line is what matters). */
export function partLocation(part: SpecPart): string {
  if (!part.span) return '(no location)';
  const base = part.span.file.split(/[\\/]/).pop() ?? part.span.file;
  return `${base}:${part.span.line}`;
}

/** The part as the user wrote it, or its formula in Spot syntax. */
export function partText(part: SpecPart): string {
  return part.text ?? toSpot(part.formula);
}

/** `inCave s = false, inMarket s = true` for the input side of a cube. */
export function describeInputs(cube: Cube, names: readonly string[], vocab: Vocabulary): string {
  const shown = names.filter((n) => Object.hasOwn(cube, n)).map((n) => `${vocab.term(n)} ${cube[n] ? 'true' : 'false'}`);
  return shown.length === 0 ? 'anything' : shown.join(', ');
}

/**
 * The controller's choice in a cube, in words: the non-keeping updates that are set, plus free
 * boolean outputs. Signals whose updates are all unconstrained or keep their value are omitted.
 */
export function describeOutputs(cube: Cube, names: readonly string[], vocab: Vocabulary): string {
  const chosen: string[] = [];
  const keptSignals = new Set<string>();
  for (const n of names) {
    if (!Object.hasOwn(cube, n)) continue;
    const signal = vocab.signalOf(n);
    if (signal !== undefined) {
      if (cube[n] && vocab.isSelfUpdate(n)) keptSignals.add(signal);
      else if (cube[n]) chosen.push(vocab.term(n));
      continue;
    }
    chosen.push(cube[n] ? vocab.term(n) : `¬${vocab.term(n)}`);
  }
  if (chosen.length === 0) return keptSignals.size > 0 ? `keep ${[...keptSignals].join(', ')}` : 'anything';
  return chosen.join(', ');
}
