/**
 * src/tsl — public entry points of the TSL front end (see ast.ts for what the folder owns).
 */
import { basename, extname } from 'node:path';
import { type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import type { GameSpec } from '../game/spec.js';
import { abstractTsl, type NamingScheme } from './abstraction.js';
import { type CheckOptions, checkTsl, type TslSymbols } from './check.js';
import { deepestPoint, parseTsl } from './parse.js';
import { theoryErrors } from './theory-check.js';
import type { TheoryName } from '../game/spec.js';
import { type DeriveResult, theoryOfHeader, withTheory } from '../theory/index.js';

export type { TslAst, Expr, Section, Definition, Import, Loc } from './ast.js';
export type { CheckedTsl, CheckOptions, CoreFormula, SymbolInfo, TslSymbols } from './check.js';
export { MAX_IMPORT_BYTES, type ImportAccess } from './import-file.js';
export type { NamingScheme } from './abstraction.js';
export { parseTsl } from './parse.js';
export { checkTsl } from './check.js';
export { abstractTsl } from './abstraction.js';
export { formatTsl, type FormatOptions } from './format.js';
export { precedenceWarnings } from './precedence.js';

/**
 * Imports are resolved relative to the importing file and read only if they are regular `.tsl`
 * files of at most `maxImportBytes` (default 1 MiB) — inside `importRoot` when it is set (symlinks
 * followed). `readFile` replaces the file system; `onImport` sees each imported file's text.
 */
export interface TslLoadOptions extends CheckOptions {
  /** `readable` (default): `inCave_s`, `u_storyPassage_toCave_s`; `tsltools`: tsl2tlsf's `p0…`/`u0…`. */
  readonly names?: NamingScheme;
  /** The theory to read the spec in, overriding its header (`--theory`); `none`: uninterpreted. */
  readonly theory?: TheoryName | 'none';
}

export interface TslLoadResult {
  readonly game: GameSpec;
  readonly symbols: TslSymbols;
  /** Warnings only: errors are thrown as one `UserError`. */
  readonly diagnostics: Diagnostic[];
  /** How the theory's assumptions were derived, when the spec is read in a theory. */
  readonly theory?: DeriveResult;
}

/** Parses, checks and abstracts a `.tsl` file into a game. Throws `UserError` on any error. */
export function loadTslGame(file: string, text: string, options: TslLoadOptions = {}): TslLoadResult {
  return guardDepth(file, text, () => {
    const ast = parseTsl(file, text);
    const checked = checkTsl(ast, text, options);
    let game = abstractTsl(checked, basename(file, extname(file)), options.names ?? 'readable');
    const diagnostics = [...checked.warnings];
    const theory = options.theory === 'none' ? undefined : (options.theory ?? theoryOfHeader(ast.header));
    let derivation: DeriveResult | undefined;
    if (theory !== undefined) {
      const errors = theoryErrors(checked, theory, ast.header ?? `#${theory}`);
      if (errors.length > 0) throw new UserError(errors);
      const span = ast.headerLoc && ast.header === `#${theory}` ? { file, line: ast.headerLoc.line, col: ast.headerLoc.col, length: ast.header.length } : undefined;
      ({ game, derivation } = withTheory(game, theory, { span }));
    }
    // A truncated or empty file would otherwise pass CI as trivially realizable.
    if (game.guarantees.length === 0) {
      diagnostics.push({
        severity: 'warning',
        message: 'the spec has no guarantees, so every controller satisfies it (is the file complete?)',
        span: { file, line: 1, col: 1 },
        code: 'no-guarantees',
      });
    }
    return { game, symbols: checked.symbols, diagnostics, theory: derivation };
  });
}

/** The symbol table of a `.tsl` file (like tsltools' `tslsym`). */
export function tslSymbols(file: string, text: string, options: TslLoadOptions = {}): { symbols: TslSymbols; diagnostics: Diagnostic[] } {
  return guardDepth(file, text, () => {
    const checked = checkTsl(parseTsl(file, text), text, options);
    return { symbols: checked.symbols, diagnostics: [...checked.warnings] };
  });
}

/**
 * The passes recurse over the formula tree; a chain of thousands of operators (`a && a && …`)
 * can exhaust the stack. That is an input the user must split, not a crash.
 */
function guardDepth<T>(file: string, text: string, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof RangeError) {
      throw new UserError({ severity: 'error', message: 'formula nested too deeply (split it into several formulas)', span: { file, ...deepestPoint(text) }, code: 'too-deep' });
    }
    throw err;
  }
}
