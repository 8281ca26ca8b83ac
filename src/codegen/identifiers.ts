/**
 * Safe names for emitted code. Every name from a spec goes through here before it reaches
 * TypeScript source: identifiers are restricted to ASCII `[A-Za-z0-9_$]`, reserved words and
 * names that would shadow `Object.prototype` members get a trailing `_`, and collisions get a
 * numeric suffix. Free text (spec terms in comments) goes through `commentText`.
 */

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'as implements interface let package private protected public static yield any boolean constructor declare get ' +
    'module require number set string symbol type from of async await never unknown object undefined keyof infer ' +
    'is readonly unique abstract accessor satisfies out override global bigint arguments eval NaN Infinity'
  ).split(' '),
);

/** Whether `name` is a JavaScript/TypeScript reserved word or a global the module must not shadow. */
export function isReservedWord(name: string): boolean {
  return RESERVED.has(name);
}

/** Members every object inherits: an implementation key with one of these names would be ambiguous. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A valid, non-reserved ASCII identifier derived from `name` (not yet made unique). */
export function safeIdentifier(name: string): string {
  let out = '';
  for (const ch of name) {
    if (/^[A-Za-z0-9_$]$/.test(ch)) out += ch;
    else if (ch === '.' || ch === '-' || ch === ' ' || ch === ':' || ch === '/') out += '_';
    else out += `_u${ch.codePointAt(0)!.toString(16)}_`;
  }
  if (out === '') out = '_';
  if (/^[0-9]/.test(out)) out = `_${out}`;
  if (RESERVED.has(out) || INHERITED.has(out)) out += '_';
  return out;
}

/** Hands out unique safe identifiers within one namespace, stable for a given input order. */
export class IdentifierScope {
  private readonly used = new Set<string>();
  private readonly assigned = new Map<string, string>();

  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.used.add(r);
  }

  /** The identifier for `name`; the same name always gets the same identifier. */
  name(name: string): string {
    const existing = this.assigned.get(name);
    if (existing !== undefined) return existing;
    const base = safeIdentifier(name);
    let candidate = base;
    for (let n = 2; this.used.has(candidate); n++) candidate = `${base}_${n}`;
    this.used.add(candidate);
    this.assigned.set(name, candidate);
    return candidate;
  }
}

/**
 * `adventure-choices.tsl` → `AdventureChoices`: the prefix of every name a module declares. Words
 * are the runs of ASCII letters and digits; a prefix that would start with a digit gets `Spec`
 * in front (`2fa` → `Spec2fa`, so `createSpec2fa`), and one with no letters or digits is `Spec`.
 */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  let out = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  if (out === '') out = 'Spec';
  if (/^[0-9]/.test(out)) out = `Spec${out}`;
  return out;
}

/**
 * Text safe inside a `/** … *\/` or `//` comment: no comment terminator, no line breaks (a line
 * terminator inside `//` would end the comment and let the rest run as code).
 */
export function commentText(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029\u0085]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\*\//g, '*\\/')
    .replace(/\/\*/g, '/\\*');
}

/**
 * Controller (module) names: the spec file's stem or `--as`. The name is also the module's file
 * name, so it is kept to ASCII letters, digits, `_`, `-` and `.`, starting with a letter or digit
 * (no path separators, no hidden files); every such name has a safe identifier prefix
 * (`pascalCase`). Returns why `name` is refused, or undefined when it is fine.
 */
export function controllerNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > 100) return 'it is longer than 100 characters';
  if (!/^[A-Za-z0-9]/.test(name)) return 'it must start with an ASCII letter or digit';
  const bad = [...name].find((ch) => !/^[A-Za-z0-9_.-]$/.test(ch));
  if (bad !== undefined) return `it contains ${JSON.stringify(bad)}; use only ASCII letters, digits, '_', '-' and '.'`;
  return undefined;
}

/** A usable controller name close to `name`, for the `--as` hint of a refused one. */
export function suggestControllerName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 100);
  return cleaned === '' ? 'controller' : cleaned;
}
