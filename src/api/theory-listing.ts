/**
 * What a `#LIA`/`#UF` theory added to a spec, in the words `tslc check --show-theory` prints: the
 * theory's name, where its assumptions are anchored, and each fact with its kind. Only a spec that
 * starts with a theory header (or is read under `--theory`) is listed, so plain specs cost nothing.
 */
import type { GameSpec } from '../game/spec.js';

export interface TheoryListing {
  /** `#LIA` or `#UF`. */
  readonly name: string;
  /** `file:line` of the first theory assumption, when it has one. */
  readonly location?: string;
  readonly facts: ReadonlyArray<{ readonly kind: string; readonly fact: string }>;
}

/** Whether TSL text starts with a theory header, after blank space and comments. */
export function hasTheoryHeader(text: string): boolean {
  return /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*#(?:LIA|UF|EUF|QF_UF)(?![A-Za-z0-9_@'.])/.test(text);
}

/** The theory facts of a loaded spec; undefined when it was read without a theory. */
export function theoryListing(spec: GameSpec): TheoryListing | undefined {
  if (spec.theory === undefined) return undefined;
  const parts = spec.assumptions.filter((p) => p.theory !== undefined);
  const span = parts[0]?.span;
  return {
    name: `#${spec.theory}`,
    location: span ? `${span.file.split(/[\\/]/).pop()}:${span.line}` : undefined,
    facts: parts.map((p) => ({ kind: p.theory!.kind, fact: p.theory!.fact })),
  };
}
