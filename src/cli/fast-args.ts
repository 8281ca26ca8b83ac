/**
 * Options declared as data, and a fast parser for them. Importing yargs costs 60–110 ms, more
 * than the whole check of a small spec, so a command whose options are an `OptionTable` is parsed
 * by `util.parseArgs`' rules (see `tokenize`) when its argument list is plain. The same table
 * builds the yargs command (help text, full validation), so there is one list of options and
 * nothing can drift.
 *
 * The fast parser accepts only what it reads exactly as yargs would, and returns undefined for
 * anything else — a repeated flag, a number yargs would read differently, a boolean followed by
 * `true`/`false`, an array option followed by positionals (yargs arrays are greedy), short flags,
 * `--`, an unknown option, a value outside `choices`. The caller then runs yargs, so errors and
 * edge cases keep today's exact messages and meaning.
 */
import type { Argv, Options, PositionalOptions } from 'yargs';

export interface OptionDecl {
  /** Absent for an option that only has `choices` (yargs then takes the value as given). */
  readonly type?: 'string' | 'number' | 'boolean';
  readonly array?: boolean;
  readonly default?: string | number | boolean;
  readonly describe: string;
  readonly choices?: readonly string[];
}

export interface OptionTable {
  /** The positional of the command string (e.g. `files` of `check [files..]`). */
  readonly positional?: OptionDecl & { readonly name: string };
  /** In `--help` order. */
  readonly options: Readonly<Record<string, OptionDecl>>;
}

/** The yargs builder for a table: what the hand-written `.positional().option()` chains did. */
export function declareOptions(y: Argv, table: OptionTable): Argv {
  let built = y;
  if (table.positional) {
    const { name, ...decl } = table.positional;
    built = built.positional(name, toYargs(decl) as PositionalOptions);
  }
  for (const [name, decl] of Object.entries(table.options)) built = built.option(name, toYargs(decl));
  return built;
}

/** Only the keys the declaration sets, so yargs sees the same objects as before (same help). */
function toYargs(decl: OptionDecl): Options {
  const out: Options = {};
  if (decl.type !== undefined) out.type = decl.type;
  if (decl.array !== undefined) out.array = decl.array;
  if (decl.choices !== undefined) out.choices = [...decl.choices];
  if (decl.default !== undefined) out.default = decl.default;
  out.describe = decl.describe;
  return out;
}

type Token = { readonly kind: 'option'; readonly name: string; readonly value?: string } | { readonly kind: 'positional'; readonly value: string };

/**
 * The words as Node's `util.parseArgs` reads them (strict, positionals allowed), or undefined
 * where it would reject them (unknown option, a boolean given a value, a missing value) or where
 * a value looks like an option (`--ltl --json`, which it rejects too). `parseFast` has already
 * left short flags, `-`, `--` and negative numbers to yargs, so no other reading arises. Written
 * out rather than calling `parseArgs`: its first run in a fresh process, not yet compiled, took
 * 0.4 ms of every `tslc check` (test/cli/fast-args.test.ts holds both to yargs' results).
 */
function tokenize(argv: readonly string[], options: Readonly<Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>): Token[] | undefined {
  const tokens: Token[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      tokens.push({ kind: 'positional', value: arg });
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (!Object.hasOwn(options, name)) return undefined;
    if (options[name].type === 'boolean') {
      if (eq >= 0) return undefined;
      tokens.push({ kind: 'option', name });
    } else if (eq >= 0) tokens.push({ kind: 'option', name, value: arg.slice(eq + 1) });
    else {
      const value = argv[i + 1];
      if (value === undefined || (value.length > 1 && value.startsWith('-'))) return undefined;
      tokens.push({ kind: 'option', name, value });
      i++;
    }
  }
  return tokens;
}

/** Values as yargs reads a plain decimal; anything else (hex, exponents, blanks) is left to yargs. */
const PLAIN_NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The arguments yargs would hand the command's handler for `argv` (the words after the command
 * name), or undefined when this parser cannot be sure of that.
 */
export function parseFast(command: string, argv: readonly string[], table: OptionTable): Record<string, unknown> | undefined {
  // Short flags (-h, -o), `--`, `-` and negative numbers all have yargs-specific readings.
  if (argv.some((a) => a.startsWith('-') && !/^--[^-]/.test(a))) return undefined;
  const negated = (name: string) => `no-${name}`;
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = Object.create(null);
  for (const [name, decl] of Object.entries(table.options)) {
    if (decl.type === 'boolean') {
      if (decl.array) return undefined;
      options[name] = { type: 'boolean' };
      // parseArgs in Node 20 has no `--no-` form: declare it as its own flag and fold it below.
      if (Object.hasOwn(table.options, negated(name))) return undefined;
      options[negated(name)] = { type: 'boolean' };
    } else options[name] = { type: 'string', multiple: decl.array === true };
  }
  const tokens = tokenize(argv, options);
  if (tokens === undefined) return undefined;
  const result: Record<string, unknown> = { _: [command] };
  const positionals: string[] = [];
  const seen = new Set<string>();
  for (const [i, token] of tokens.entries()) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    const negative = !Object.hasOwn(table.options, token.name);
    const name = negative ? token.name.slice(3) : token.name;
    const decl = table.options[name];
    const next = tokens[i + 1];
    if (decl.array) {
      // yargs arrays take every following word, so `--param n=3 spec.tlsf` has no file.
      if (next?.kind === 'positional') return undefined;
      const values = (result[name] as string[] | undefined) ?? [];
      values.push(String(token.value));
      result[name] = values;
      continue;
    }
    // yargs turns a repeated flag into an array (or lets the last win): leave it to yargs.
    if (seen.has(name)) return undefined;
    seen.add(name);
    if (decl.type === 'boolean') {
      // yargs reads `--json true` as the flag's value, parseArgs as a file named `true`.
      if (next?.kind === 'positional' && (next.value === 'true' || next.value === 'false')) return undefined;
      result[name] = !negative;
      continue;
    }
    const raw = String(token.value);
    if (decl.choices !== undefined && !decl.choices.includes(raw)) return undefined;
    if (decl.type === 'number') {
      if (!PLAIN_NUMBER.test(raw)) return undefined;
      result[name] = Number(raw);
    } else result[name] = raw;
  }
  if (table.positional) {
    const { name, array } = table.positional;
    if (!array && positionals.length > 1) return undefined;
    if (array) result[name] = positionals;
    else if (positionals.length === 1) result[name] = positionals[0];
  } else if (positionals.length > 0) return undefined;
  for (const [name, decl] of Object.entries(table.options)) if (!(name in result) && decl.default !== undefined) result[name] = decl.default;
  // yargs also offers every dashed option in camelCase (`cross-check` → `crossCheck`).
  for (const key of Object.keys(result)) {
    const camel = key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (camel !== key) result[camel] = result[key];
  }
  result.$0 = 'tslc';
  return result;
}
