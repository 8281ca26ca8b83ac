/**
 * Spec sources into games for the library's functions: one source, several composed into their
 * conjunction, or an LTL formula; warnings go to a callback and every file read (TSL imports
 * included) is remembered, so a cache or a watcher knows what the result depends on.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { GameSpec } from '../game/spec.js';
import type { FormulaSpec, ReadOptions, SpecSource } from './inputs.js';
import { isFormula, pathOf, textOf } from './inputs.js';
import { nowMs } from '../diagnostics/clock.js';

/** When loading must stop (a `nowMs()` time): it throws `FrontEndTimeout` past it. */
export interface Deadline {
  readonly deadline?: number;
}

/** Loads one source or formula; `dependencies` receives every imported file's path. */
export async function loadSource(
  input: SpecSource | FormulaSpec,
  options: ReadOptions & Deadline,
  onWarning: (d: Diagnostic) => void,
  dependencies?: Set<string>,
): Promise<GameSpec> {
  const { loadGame, loadLtlGame } = await import('../frontend/load.js');
  if (isFormula(input)) return loadLtlGame(input.ltl, input.ins, input.outs);
  return loadGame(pathOf(input), {
    text: textOf(input),
    importRoot: options.importRoot,
    params: options.params,
    theory: options.theory,
    onWarning,
    onImport: (path) => dependencies?.add(path),
    deadline: options.deadline,
  });
}

/** The conjunction of several sources (one source is itself); named `a ∧ b` as the CLI names it. */
export async function loadComposed(
  sources: readonly SpecSource[],
  options: ReadOptions & Deadline,
  onWarning: (d: Diagnostic) => void,
  dependencies?: Set<string>,
): Promise<GameSpec> {
  const games: GameSpec[] = [];
  for (const source of sources) games.push(await loadSource(source, options, onWarning, dependencies));
  if (games.length === 1) return games[0];
  const { composeGames } = await import('../codegen/compose.js');
  return composeGames(games.map((g) => g.name).join(' ∧ '), games);
}
