/**
 * The offline English ⇄ LTL pattern library (Dwyer et al.'s specification patterns, plus the
 * agent-rule idioms people ask for: "only after", "at most n times", "within k steps", "never twice
 * in a row"). Every pattern is one English template and one LTL template over slots; both
 * directions are driven by the same table, so a sentence compiles deterministically and a formula
 * of a known shape is explained in the sentence that produces it.
 *
 * Formulas are written for finite traces (LTLf): "next" inside negative contexts is the weak next
 * (`!X !φ`), so a rule never fails merely because the session ended.
 *
 * Lives in runtime/ (not src/) because shields read English rules and explain denials at run time,
 * and runtime code must not import the compiler.
 */
import { parseLtl } from '../ltl/parse.js';
import { printAtom, printLtl } from '../ltl/print.js';
import type { LtlNode } from '../ltl/syntax.js';

export type Scope = 'globally' | 'before' | 'after' | 'between' | 'after-until';

/** Slot values: propositions by role (p, s, t: the pattern's own; q, r: scope delimiters) and numbers. */
export interface PatternSlots {
  readonly p: string;
  readonly s?: string;
  readonly t?: string;
  readonly q?: string;
  readonly r?: string;
  readonly n?: number;
}

export interface PatternInstance {
  readonly pattern: string;
  readonly scope: Scope;
  readonly slots: PatternSlots;
  readonly ltl: LtlNode;
  readonly english: string;
}

interface PatternDef {
  readonly id: string;
  /** Canonical English body (before the scope phrase) with {p} {s} {t} {n} slots. */
  readonly english: string;
  /** Alternative phrasings accepted when reading English. */
  readonly aliases?: readonly string[];
  /** Spot-syntax LTL templates per supported scope, over slots {p} {s} {t} {q} {r}; {n} handled by `expand`. */
  readonly ltl: Partial<Record<Scope, string>>;
  /** For numeric patterns: build the template for a given n. */
  readonly expand?: (n: number) => string;
  /** Valid range of n. */
  readonly nRange?: readonly [number, number];
}

const SCOPE_PHRASE: Record<Scope, string> = {
  globally: '',
  before: ' before {r}',
  after: ' after {q}',
  between: ' between {q} and {r}',
  'after-until': ' after {q} until {r}',
};

/** The catalogue. Scoped forms follow Dwyer, Avrunin & Corbett's pattern table. */
const PATTERNS: readonly PatternDef[] = [
  {
    id: 'absence',
    english: '{p} never happens',
    aliases: ['never {p}', '{p} is forbidden'],
    ltl: {
      globally: 'G !{p}',
      before: 'F {r} -> (!{p} U {r})',
      after: 'G ({q} -> G !{p})',
      between: 'G (({q} & !{r} & F {r}) -> (!{p} U {r}))',
      'after-until': 'G (({q} & !{r}) -> (!{p} W {r}))',
    },
  },
  {
    id: 'existence',
    english: '{p} eventually happens',
    aliases: ['eventually {p}'],
    ltl: {
      globally: 'F {p}',
      before: '!{r} W ({p} & !{r})',
      after: 'G !{q} | F ({q} & F {p})',
      between: 'G (({q} & !{r}) -> (!{r} W ({p} & !{r})))',
      'after-until': 'G (({q} & !{r}) -> (!{r} U ({p} & !{r})))',
    },
  },
  {
    id: 'universality',
    english: '{p} always holds',
    aliases: ['always {p}'],
    ltl: {
      globally: 'G {p}',
      before: 'F {r} -> ({p} U {r})',
      after: 'G ({q} -> G {p})',
      between: 'G (({q} & !{r} & F {r}) -> ({p} U {r}))',
      'after-until': 'G (({q} & !{r}) -> ({p} W {r}))',
    },
  },
  {
    id: 'precedence',
    english: '{p} only after {s}',
    aliases: ['{s} must precede {p}', 'no {p} before {s}'],
    ltl: {
      globally: '!{p} W {s}',
      before: 'F {r} -> (!{p} U ({s} | {r}))',
      after: 'G !{q} | F ({q} & (!{p} W {s}))',
      between: 'G (({q} & !{r} & F {r}) -> (!{p} U ({s} | {r})))',
      'after-until': 'G (({q} & !{r}) -> (!{p} W ({s} | {r})))',
    },
  },
  {
    id: 'response',
    english: 'every {p} is followed by {s}',
    aliases: ['{p} is always followed by {s}', 'always {s} after {p}', 'whenever {p} then eventually {s}'],
    ltl: {
      globally: 'G ({p} -> F {s})',
      before: 'F {r} -> (({p} -> (!{r} U ({s} & !{r}))) U {r})',
      after: 'G ({q} -> G ({p} -> F {s}))',
      between: 'G (({q} & !{r} & F {r}) -> (({p} -> (!{r} U ({s} & !{r}))) U {r}))',
      'after-until': 'G (({q} & !{r}) -> (({p} -> (!{r} U ({s} & !{r}))) W {r}))',
    },
  },
  {
    id: 'existence-before',
    // s happens, and no p before it: the reading of the question "will you go to the kitchen
    // before the bathroom?". As a rule, "S before P" is the weaker `!P W S` (precedence: nothing
    // obliges S), as in the Safety Chip paper; see the English forms in runtime/shield/english.
    english: '{s} happens and no {p} happens before it',
    ltl: { globally: '!{p} U ({s} & !{p})' },
  },
  {
    id: 'next-response',
    english: 'every {p} is immediately followed by {s}',
    ltl: { globally: 'G ({p} -> X {s})' },
  },
  {
    id: 'not-next',
    english: '{s} never happens right after {p}',
    ltl: { globally: 'G ({p} -> !X {s})' },
  },
  {
    id: 'until',
    english: '{p} holds until {s}',
    ltl: { globally: '{p} W {s}' },
  },
  {
    id: 'response-chain',
    english: 'every {p} is followed by {s} and then {t}',
    ltl: { globally: 'G ({p} -> F ({s} & F {t}))' },
  },
  {
    id: 'precedence-chain',
    english: '{p} only after {s} and then {t}',
    aliases: ['{s} and then {t} must precede {p}'],
    ltl: { globally: '!{p} W ({s} & !{p} & !X !(!{p} W {t}))' },
  },
  {
    id: 'at-most',
    english: '{p} happens at most {n} times',
    aliases: ['at most {n} {p}', 'call {p} at most {n} times'],
    ltl: { globally: '' },
    expand: (n) => `!${nested(n + 1)}`,
    nRange: [1, 20],
  },
  {
    id: 'bounded-response',
    english: 'every {p} is followed by {s} within {n} steps',
    aliases: ['{s} within {n} steps of {p}'],
    ltl: { globally: '' },
    expand: (n) => `G ({p} -> (${['{s}', ...Array.from({ length: n }, (_, i) => `${'X '.repeat(i + 1)}{s}`)].join(' | ')}))`,
    nRange: [1, 20],
  },
  {
    id: 'at-least',
    english: '{p} happens at least {n} times',
    ltl: { globally: '' },
    expand: (n) => nested(n),
    nRange: [2, 20],
  },
  {
    id: 'no-run',
    english: '{p} never happens {n} times in a row',
    ltl: { globally: '' },
    expand: (n) => `!F (${run(n)})`,
    nRange: [3, 20],
  },
  {
    id: 'no-repeat',
    english: '{p} never happens twice in a row',
    aliases: ['never {p} twice in a row'],
    ltl: { globally: 'G ({p} -> !X {p})' },
  },
];

/** `p & X (p & …)`: p at k consecutive steps. */
function run(k: number): string {
  return k === 1 ? '{p}' : `{p} & X (${run(k - 1)})`;
}

/** `F (p & X F (p & …))`: p occurs k times. */
function nested(k: number): string {
  return k === 1 ? 'F {p}' : `F ({p} & X ${nested(k - 1)})`;
}

/** The catalogue, for docs and tests: id, canonical English (global scope) and supported scopes. */
export function patternCatalogue(): { id: string; english: string; scopes: Scope[]; numeric: boolean }[] {
  return PATTERNS.map((d) => ({
    id: d.id,
    english: d.english,
    scopes: (Object.keys(d.ltl) as Scope[]).filter((s) => d.expand || d.ltl[s]),
    numeric: d.expand !== undefined,
  }));
}

function templateFor(d: PatternDef, scope: Scope, n: number | undefined): string | undefined {
  if (d.expand) return scope === 'globally' && n !== undefined ? d.expand(n) : undefined;
  return d.ltl[scope];
}

function fill(template: string, slots: PatternSlots, render: (name: string) => string): string {
  return template.replace(/\{([pstqrn])\}/g, (_, k: keyof PatternSlots) => {
    const v = slots[k];
    if (v === undefined) throw new PatternError(`pattern needs a value for {${k}}`);
    return typeof v === 'number' ? String(v) : render(v);
  });
}

export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

/** Build a pattern instance from its id, scope and slots. */
export function instantiate(id: string, scope: Scope, slots: PatternSlots): PatternInstance {
  const d = PATTERNS.find((x) => x.id === id);
  if (!d) throw new PatternError(`unknown pattern '${id}'`);
  if (d.nRange && (slots.n === undefined || slots.n < d.nRange[0] || slots.n > d.nRange[1])) {
    throw new PatternError(`pattern '${id}' needs a number between ${d.nRange[0]} and ${d.nRange[1]}`);
  }
  const template = templateFor(d, scope, slots.n);
  if (!template) throw new PatternError(`pattern '${id}' has no '${scope}' scope`);
  const ltl = parseLtl(fill(template, slots, printAtom));
  const english = fill(d.english + SCOPE_PHRASE[scope], slots, englishAtom);
  return { pattern: id, scope, slots, ltl, english };
}

// ---------------------------------------------------------------------------------------------
// English → LTL

/** A proposition in an English sentence: a bare token (`call:refund`, `at.kitchen`) or "quoted". */
const ATOM_RE = String.raw`("(?:[^"\\]|\\.)*"|[A-Za-z_](?:[A-Za-z0-9_:.\-/]*[A-Za-z0-9_])?)`;
const RESERVED = new Set(['never', 'always', 'every', 'is', 'and', 'then', 'after', 'before', 'between', 'until', 'only', 'within', 'at', 'most', 'least', 'times', 'no', 'must', 'happens', 'happen', 'followed', 'by', 'eventually', 'whenever', 'twice', 'in', 'a', 'row', 'call', 'of', 'steps', 'holds', 'immediately', 'right', 'it']);

function englishAtom(name: string): string {
  return /^[A-Za-z_](?:[A-Za-z0-9_:.\-/]*[A-Za-z0-9_])?$/.test(name) && !RESERVED.has(name.toLowerCase()) ? name : JSON.stringify(name);
}

/** Outside pattern sentences a name only needs quotes when it has spaces or quotes in it. */
function plainAtom(name: string): string {
  return /^[^\s"()]+$/.test(name) ? name : JSON.stringify(name);
}

function readAtom(token: string): string {
  return token.startsWith('"') ? (JSON.parse(token) as string) : token;
}

interface Matcher {
  readonly def: PatternDef;
  readonly scope: Scope;
  readonly re: RegExp;
  readonly keys: readonly (keyof PatternSlots)[];
}

let matchers: Matcher[] | undefined;

function buildMatchers(): Matcher[] {
  const out: Matcher[] = [];
  for (const d of PATTERNS) {
    for (const scope of Object.keys(SCOPE_PHRASE) as Scope[]) {
      if (!templateFor(d, scope, d.nRange ? d.nRange[0] : undefined)) continue;
      // Scopes go with the canonical sentence only: "P never happens before R" is Dwyer's scope,
      // while "never P before R" is an everyday order constraint, read by runtime/shield/english
      // as `!P W R` (Dwyer's `F R -> (!P U R)` would let P happen when R never comes).
      for (const body of scope === 'globally' ? [d.english, ...(d.aliases ?? [])] : [d.english]) {
        const phrase = body + SCOPE_PHRASE[scope];
        const keys: (keyof PatternSlots)[] = [];
        const src = phrase
          .split(/(\{[pstqrn]\})/)
          .map((part) => {
            const m = /^\{([pstqrn])\}$/.exec(part);
            if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
            keys.push(m[1] as keyof PatternSlots);
            return m[1] === 'n' ? '(\\d+)' : ATOM_RE;
          })
          .join('');
        out.push({ def: d, scope, re: new RegExp(`^\\s*${src}\\s*\\.?\\s*$`, 'i'), keys });
      }
    }
  }
  return out;
}

/** Compile one English pattern sentence to LTL; undefined when no pattern matches. */
export function englishToLtl(sentence: string): PatternInstance | undefined {
  matchers ??= buildMatchers();
  for (const m of matchers) {
    const hit = m.re.exec(sentence);
    if (!hit) continue;
    const slots: Record<string, string | number> = {};
    let ok = true;
    m.keys.forEach((k, i) => {
      const raw = hit[i + 1];
      if (k === 'n') slots.n = Number(raw);
      else {
        if (!raw.startsWith('"') && RESERVED.has(raw.toLowerCase())) ok = false;
        slots[k] = readAtom(raw);
      }
    });
    if (!ok) continue;
    try {
      return instantiate(m.def.id, m.scope, slots as unknown as PatternSlots);
    } catch (e) {
      if (e instanceof PatternError) continue;
      throw e;
    }
  }
  return undefined;
}

/** Like `englishToLtl` but throws a `PatternError` that lists what the library understands. */
export function compileEnglish(sentence: string): PatternInstance {
  const r = englishToLtl(sentence);
  if (r) return r;
  throw new PatternError(
    `no pattern matches "${sentence.trim()}". Known forms include: ${PATTERNS.map((d) => `"${d.english}"`).join(', ')}; ` +
      `each may end with "before R", "after Q", "between Q and R" or "after Q until R" where supported.`,
  );
}

// ---------------------------------------------------------------------------------------------
// LTL → English

/** Slot placeholders used when unifying a formula with a template. */
const HOLES: Record<string, keyof PatternSlots> = { __slot_p: 'p', __slot_s: 's', __slot_t: 't', __slot_q: 'q', __slot_r: 'r' };

const holeTemplates = new Map<string, LtlNode | undefined>();

/** A template with holes for its slots, parsed once (explanations try every pattern, scope and n). */
function holeTemplate(d: PatternDef, scope: Scope, n: number | undefined): LtlNode | undefined {
  const key = `${d.id}\u0000${scope}\u0000${n ?? ''}`;
  if (holeTemplates.has(key)) return holeTemplates.get(key);
  const t = templateFor(d, scope, n);
  const tree = t ? parseLtl(t.replace(/\{([pstqr])\}/g, (_, k: string) => `__slot_${k}`)) : undefined;
  holeTemplates.set(key, tree);
  return tree;
}

/** Structural matching with `&`/`|` treated as commutative; holes bind atoms consistently. */
function unify(tpl: LtlNode, f: LtlNode, env: Map<string, string>): boolean {
  if (tpl.op === 'ap' && Object.hasOwn(HOLES, tpl.name)) {
    if (f.op !== 'ap') return false;
    const bound = env.get(tpl.name);
    if (bound !== undefined) return bound === f.name;
    for (const v of env.values()) if (v === f.name) return false; // distinct slots, distinct atoms
    env.set(tpl.name, f.name);
    return true;
  }
  if (tpl.op !== f.op) return false;
  switch (tpl.op) {
    case 'true':
    case 'false':
      return true;
    case 'ap':
      return tpl.name === (f as typeof tpl).name;
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return unify(tpl.arg, (f as typeof tpl).arg, env);
    case '&':
    case '|': {
      const fa = (f as typeof tpl).args;
      if (fa.length !== tpl.args.length) return false;
      return permuteUnify(tpl.args, fa, env);
    }
    default: {
      const g = f as typeof tpl;
      return unify(tpl.left, g.left, env) && unify(tpl.right, g.right, env);
    }
  }
}

function permuteUnify(ts: readonly LtlNode[], fs: readonly LtlNode[], env: Map<string, string>): boolean {
  if (ts.length === 0) return true;
  for (let i = 0; i < fs.length; i++) {
    const trial = new Map(env);
    if (unify(ts[0], fs[i], trial) && permuteUnify(ts.slice(1), [...fs.slice(0, i), ...fs.slice(i + 1)], trial)) {
      for (const [k, v] of trial) env.set(k, v);
      return true;
    }
  }
  return false;
}

interface Candidate {
  readonly d: PatternDef;
  readonly scope: Scope;
  readonly n: number | undefined;
  readonly tpl: LtlNode;
}

let candidatesByOp: Map<LtlNode['op'], Candidate[]> | undefined;

/**
 * Every pattern, scope and n with its template, in the library's order, grouped by the template's
 * top operator: a formula can only match a template with its own top operator, and explaining a
 * formula tries every subformula, so a 20,000-atom `a | b | …` must not walk all of them per atom.
 */
function candidates(op: LtlNode['op']): readonly Candidate[] {
  if (!candidatesByOp) {
    candidatesByOp = new Map();
    for (const d of PATTERNS) {
      for (const scope of Object.keys(SCOPE_PHRASE) as Scope[]) {
        const ns = d.nRange ? range(d.nRange[0], d.nRange[1]) : [undefined];
        for (const n of ns) {
          const tpl = holeTemplate(d, scope, n);
          if (!tpl) continue;
          const list = candidatesByOp.get(tpl.op) ?? [];
          list.push({ d, scope, n, tpl });
          candidatesByOp.set(tpl.op, list);
        }
      }
    }
  }
  return candidatesByOp.get(op) ?? [];
}

/** The pattern instance a formula is, if it has exactly the shape of one. */
export function matchPattern(f: LtlNode): PatternInstance | undefined {
  for (const { d, scope, n, tpl } of candidates(f.op)) {
    const env = new Map<string, string>();
    if (!unify(tpl, f, env)) continue;
    const slots: Record<string, string | number> = {};
    for (const [hole, atom] of env) slots[HOLES[hole]] = atom;
    if (n !== undefined) slots.n = n;
    return instantiate(d.id, scope, slots as unknown as PatternSlots);
  }
  return undefined;
}

function range(a: number, b: number): number[] {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/**
 * Plain English for any formula: the pattern sentence when the formula (or each top-level
 * conjunct) has a pattern's shape, otherwise a compositional reading of the operators.
 */
export function explainLtl(f: LtlNode | string): string {
  const node = typeof f === 'string' ? parseLtl(f) : f;
  const hit = matchPattern(node);
  if (hit) return hit.english;
  if (node.op === '&') return node.args.map((a) => explainLtl(a)).join('; and ');
  return compositional(node);
}

function compositional(n: LtlNode): string {
  const sub = (x: LtlNode): string => {
    const m = matchPattern(x);
    if (m) return `(${m.english})`;
    const s = compositional(x);
    return x.op === 'ap' || x.op === 'true' || x.op === 'false' || x.op === '!' ? s : `(${s})`;
  };
  switch (n.op) {
    case 'true':
      return 'true';
    case 'false':
      return 'false';
    case 'ap':
      return plainAtom(n.name);
    case '!':
      return n.arg.op === 'ap' ? `not ${plainAtom(n.arg.name)}` : `not ${sub(n.arg)}`;
    case 'X':
      return `at the next step, ${sub(n.arg)}`;
    case 'F':
      return `eventually ${sub(n.arg)}`;
    case 'G':
      return `always ${sub(n.arg)}`;
    case '&':
      return n.args.map(sub).join(' and ');
    case '|':
      return n.args.map(sub).join(' or ');
    case '->':
      return `if ${sub(n.left)} then ${sub(n.right)}`;
    case '<->':
      return `${sub(n.left)} exactly when ${sub(n.right)}`;
    case 'xor':
      return `either ${sub(n.left)} or ${sub(n.right)} but not both`;
    case 'U':
      return `${sub(n.left)} until ${sub(n.right)}, which must eventually happen`;
    case 'W':
      return `${sub(n.left)} unless ${sub(n.right)}`;
    case 'R':
      return `${sub(n.right)} until and including when ${sub(n.left)}, or forever`;
    case 'M':
      return `${sub(n.right)} until and including when ${sub(n.left)}, which must eventually happen`;
  }
}

/** Canonical Spot text of an instance (handy for display next to the English). */
export function instanceLtlText(i: PatternInstance): string {
  return printLtl(i.ltl);
}
