/**
 * src/theory — public entry: reading a TSL game in a theory (see derive.ts for what is derived,
 * docs/theories.md for the user's view). The front end calls `withTheory` after the abstraction;
 * composition calls it again on the composed game, so facts across files are found too.
 */
import type { GameSpec, TheoryName } from '../game/spec.js';
import { type DeriveOptions, type DeriveResult, deriveTheoryAssumptions } from './derive.js';

export type { DeriveOptions, DeriveResult } from './derive.js';

/** `#LIA` → LIA; `#UF`, `#EUF`, `#QF_UF` → UF (equality with uninterpreted functions). */
export function theoryOfHeader(header: string | undefined): TheoryName | undefined {
  if (header === undefined) return undefined;
  return header === '#LIA' ? 'LIA' : 'UF';
}

/** The game with the theory's assumptions (any earlier theory assumptions replaced). */
export function withTheory(game: GameSpec, theory: TheoryName, options: DeriveOptions = {}): { game: GameSpec; derivation: DeriveResult } {
  const base: GameSpec = { ...game, theory, assumptions: game.assumptions.filter((p) => p.theory === undefined) };
  const derivation = deriveTheoryAssumptions(base, theory, options);
  return { game: { ...base, assumptions: [...base.assumptions, ...derivation.parts] }, derivation };
}

/** The game read without a theory: every predicate uninterpreted (what `--theory none` asks for). */
export function withoutTheory(game: GameSpec): GameSpec {
  const { theory: _dropped, ...rest } = game;
  return { ...rest, assumptions: game.assumptions.filter((p) => p.theory === undefined) };
}
