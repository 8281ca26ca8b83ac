/**
 * src/frontend — one entry point that turns a spec file into a `GameSpec`, whatever its format.
 *
 * Dispatches on the extension (`.tsl`, `.tlsf`) and imports the front end only when needed, so
 * checking a TLSF file never loads the TSL parser. Every front-end error is a `UserError` with a
 * diagnostic; an unknown extension is one too.
 */
import { extname } from 'node:path';
import { readUserFile, registerSource } from '../diagnostics/sources.js';
import { error, type Diagnostic, UserError } from '../diagnostics/diagnostic.js';
import { isStdinPath } from '../diagnostics/read-input.js';
import type { GameSpec, TheoryName } from '../game/spec.js';
import { nowMs } from '../diagnostics/clock.js';

export interface LoadOptions {
  /** TLSF GLOBAL PARAMETERS overrides (`--param n=3`). */
  readonly params?: Readonly<Record<string, number>>;
  /** TSL proposition naming: readable (default) or tsltools' `p0…`/`u0…`. */
  readonly names?: 'readable' | 'tsltools';
  /** Receives front-end warnings (the CLI prints them). */
  readonly onWarning?: (d: Diagnostic) => void;
  /** The file's text, when the caller already has it. */
  readonly text?: string;
  /** TSL imports are read only from inside this directory (symlinks followed); default: anywhere. */
  readonly importRoot?: string;
  /** The largest file a TSL import may read, in bytes (default 1 MiB). */
  readonly maxImportBytes?: number;
  /** Sees each file a TSL spec imports, with its text (watchers and caches depend on them). */
  readonly onImport?: (path: string, text: string) => void;
  /**
   * A `nowMs()` time after which loading gives up with `FrontEndTimeout` (TLSF
   * parameters, definitions and big operators can expand for a long time).
   */
  readonly deadline?: number;
  /** TSL: the theory to read the spec in, overriding its header (`--theory`); `none`: uninterpreted. */
  readonly theory?: TheoryName | 'none';
}

/** `--theory lia|uf|none` as a load option (undefined when the flag is absent). */
export function theoryOption(value: unknown): TheoryName | 'none' | undefined {
  if (value === undefined) return undefined;
  const v = String(value).toLowerCase();
  if (v === 'lia') return 'LIA';
  if (v === 'uf') return 'UF';
  if (v === 'none') return 'none';
  throw new UserError(error(`--theory expects lia, uf or none, not '${String(value)}'`, undefined, 'usage'));
}

/** Loading passed `LoadOptions.deadline`; callers report `unknown (timeout)`. */
export class FrontEndTimeout extends Error {
  constructor() {
    super('the specification was still being expanded when the time ran out');
    this.name = 'FrontEndTimeout';
  }
}

export const SPEC_EXTENSIONS = ['.tsl', '.tlsf'] as const;

/** Does the text start as a TLSF file does: comments and white space, then `INFO {`? */
function looksLikeTlsf(text: string): boolean {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    if (/\s/.test(text[i] ?? '')) i++;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i) + 1;
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) < 0 ? text.length : text.indexOf('*/', i + 2) + 2;
    else break;
  }
  return /^INFO\s*\{/.test(text.slice(i, i + 64));
}

export async function loadGame(path: string, options: LoadOptions = {}): Promise<GameSpec> {
  const stdin = isStdinPath(path);
  let ext = extname(path).toLowerCase();
  if (!stdin && !(SPEC_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new UserError(
      error(`${path}: unknown specification type '${ext || '(none)'}' (expected .tsl or .tlsf)`, undefined, 'file-type'),
    );
  }
  const text = options.text ?? readUserFile(path);
  // Standard input has no extension: a TLSF spec opens with its INFO section, a TSL one cannot.
  if (stdin) ext = looksLikeTlsf(text) ? '.tlsf' : '.tsl';
  registerSource(path, text);
  if (ext === '.tsl') {
    const { loadTslGame } = await import('../tsl/index.js');
    const loaded = loadTslGame(path, text, {
      names: options.names,
      importRoot: options.importRoot,
      maxImportBytes: options.maxImportBytes,
      onImport: (file, imported) => {
        registerSource(file, imported);
        options.onImport?.(file, imported);
      },
      theory: options.theory,
    });
    for (const d of loaded.diagnostics) options.onWarning?.(d);
    return loaded.game;
  }
  const { loadTlsfGame } = await import('../tlsf/index.js');
  const deadline = options.deadline;
  const poll =
    deadline === undefined
      ? undefined
      : () => {
          if (nowMs() > deadline) throw new FrontEndTimeout();
        };
  if (poll) poll();
  return loadTlsfGame(path, text, { params: options.params, poll });
}

/** A game from a Spot-syntax formula and the input/output split (`--ltl … --ins … --outs …`). */
export async function loadLtlGame(formula: string, ins: readonly string[], outs: readonly string[]): Promise<GameSpec> {
  const { ltlGame } = await import('./game-from-ltl.js');
  // Errors point into the formula as into a file: `<formula>:1:5` with its line and a caret.
  registerSource('<formula>', formula);
  return ltlGame(formula, [...ins], [...outs], { name: 'formula' });
}
