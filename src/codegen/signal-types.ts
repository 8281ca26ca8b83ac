/**
 * Signal value types implied by TSL's built-ins, for the generated module's default signal types
 * and to refuse specs that mix them.
 *
 * The built-ins fix types: `add sub mul div` take and give numbers, `lt gt lte gte` take numbers and
 * give a boolean, `eq` gives a boolean (it compares any two values), a literal has its own type, and
 * a signal tested directly as a proposition holds a boolean. An update `[s <- t]` gives `s` the type
 * of `t`. User functions are free: their types come from the implementation. Inference is
 * unification (union-find over signals); a signal that would need two types, like `d` in
 * `[d <- eq c d]` with `[d <- d * 2]` elsewhere, is a spec error — at run time the step would
 * fail in `mul` — so it is reported before synthesis, never typed as one of the two.
 */
import type { TermData } from '../../runtime/table.js';

export type ValueType = 'number' | 'boolean' | 'string';

const ARITHMETIC = new Set(['add', 'sub', 'mul', 'div']);
const ORDERING = new Set(['lt', 'gt', 'lte', 'gte']);

/** The predicate and update terms of a spec (`PredicateData`/`UpdateData` fit). */
export interface TypingInput {
  readonly predicates: readonly {
    readonly proposition: string;
    readonly fn: string;
    readonly args: readonly TermData[];
    readonly text: string;
    readonly signal?: string;
  }[];
  readonly updates: readonly {
    readonly proposition: string;
    readonly signal: string;
    readonly term: TermData;
    readonly isSelfUpdate: boolean;
    readonly text: string;
  }[];
}

/** Two uses that need different types; `proposition` is where the second one was found. */
export interface TypeConflict {
  readonly message: string;
  readonly proposition: string;
}

export interface SignalTypes {
  /** The type of every signal the built-ins or literals constrain; others are free. */
  readonly types: ReadonlyMap<string, ValueType>;
  readonly conflicts: readonly TypeConflict[];
}

/** A type fixed by some use, with that use in words (for conflict messages). */
interface Fixed {
  readonly type: ValueType;
  readonly because: string;
}

/** Where a term's type comes from: a signal's class, or a fixed type of its own (a call, a literal). */
type Source = { readonly signal: string } | { readonly fixed: Fixed; readonly term: string };

export function inferSignalTypes(input: TypingInput): SignalTypes {
  const parent = new Map<string, string>();
  const fixed = new Map<string, Fixed>();
  const conflicts: TypeConflict[] = [];
  const find = (s: string): string => {
    let root = s;
    for (let p = parent.get(root); p !== undefined && p !== root; p = parent.get(root)) root = p;
    parent.set(s, root);
    return root;
  };
  const reported = new Set<string>();
  /** One report per signal (or term): a clash is often reached again from later uses. */
  const conflict = (key: string, message: string, proposition: string): void => {
    if (reported.has(key)) return;
    reported.add(key);
    conflicts.push({ message, proposition });
  };

  /** Give `signal`'s class the type `want`, or report that it already has another. */
  const fix = (signal: string, want: Fixed, proposition: string): void => {
    const root = find(signal);
    const has = fixed.get(root);
    if (!has) fixed.set(root, want);
    else if (has.type !== want.type)
      conflict(`signal:${root}`, `signal \`${signal}\` would hold both ${article(has.type)} and ${article(want.type)}: ${has.because}, but ${want.because}`, proposition);
  };
  const join = (a: string, b: string, site: string, proposition: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    const fa = fixed.get(ra);
    const fb = fixed.get(rb);
    if (fa && fb && fa.type !== fb.type) {
      conflict(`signal:${ra}`, `\`${site}\` copies \`${b}\` into \`${a}\`, but \`${a}\` holds ${article(fa.type)} (${fa.because}) and \`${b}\` ${article(fb.type)} (${fb.because})`, proposition);
      return;
    }
    parent.set(ra, rb);
    if (fa && !fb) fixed.set(rb, fa);
  };
  /** Require `source` to have type `want` (an argument of a built-in). */
  const expectType = (source: Source, want: Fixed, proposition: string): void => {
    if ('signal' in source) fix(source.signal, want, proposition);
    else if (source.fixed.type !== want.type)
      conflict(`term:${source.term}`, `\`${source.term}\` is ${article(source.fixed.type)} (${source.fixed.because}), but ${want.because}`, proposition);
  };

  /** The type source of `term`, constraining built-in arguments on the way. */
  const visit = (term: TermData, site: string, proposition: string): Source | undefined => {
    switch (term.kind) {
      case 'signal':
        return { signal: term.name };
      case 'literal': {
        const type = typeof term.value as ValueType;
        return { fixed: { type, because: `\`${termText(term)}\` is ${article(type)}` }, term: termText(term) };
      }
      case 'call': {
        const args = term.args.map((a) => visit(a, site, proposition));
        const text = termText(term);
        if (ARITHMETIC.has(term.fn) || ORDERING.has(term.fn)) {
          const need: Fixed = { type: 'number', because: `\`${site}\` passes it to \`${term.fn}\`, which takes numbers` };
          for (const a of args) if (a) expectType(a, need, proposition);
        }
        if (ARITHMETIC.has(term.fn)) return { fixed: { type: 'number', because: `\`${term.fn}\` gives a number` }, term: text };
        if (ORDERING.has(term.fn) || term.fn === 'eq')
          return { fixed: { type: 'boolean', because: `\`${term.fn}\` is a comparison and gives true or false` }, term: text };
        return undefined;
      }
    }
  };

  for (const p of input.predicates) {
    if (p.signal !== undefined) fix(p.signal, { type: 'boolean', because: `\`${p.text}\` tests it as a proposition` }, p.proposition);
    else visit({ kind: 'call', fn: p.fn, args: p.args }, p.text, p.proposition);
  }
  for (const u of input.updates) {
    if (u.isSelfUpdate) continue;
    const source = visit(u.term, u.text, u.proposition);
    if (!source) continue;
    if ('signal' in source) join(u.signal, source.signal, u.text, u.proposition);
    else fix(u.signal, { type: source.fixed.type, because: `\`${u.text}\` stores ${article(source.fixed.type)} in it (${source.fixed.because})` }, u.proposition);
  }

  const types = new Map<string, ValueType>();
  const signals = new Set([...input.updates.map((u) => u.signal), ...parent.keys()]);
  for (const p of input.predicates) if (p.signal !== undefined) signals.add(p.signal);
  for (const s of signals) {
    const f = fixed.get(find(s));
    if (f) types.set(s, f.type);
  }
  return { types, conflicts };
}

function article(type: ValueType): string {
  return type === 'string' ? 'a string' : `a ${type}`;
}

/** A term as TSL text: `mul d 2`, `add (f x) 1`, `"done"`. */
export function termText(term: TermData): string {
  switch (term.kind) {
    case 'signal':
      return term.name;
    case 'literal':
      return typeof term.value === 'string' ? JSON.stringify(term.value) : String(term.value);
    case 'call':
      return [term.fn, ...term.args.map((a) => (a.kind === 'call' && a.args.length > 0 ? `(${termText(a)})` : termText(a)))].join(' ');
  }
}
