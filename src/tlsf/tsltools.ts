/**
 * Recovering TSL signal groups from the TLSF that tsltools generates.
 *
 * tsltools encodes each update `[c <- t]` as an output `u0<c>0<t>` and each predicate as an input
 * `p0…`, and adds, per cell, an "exactly one update" constraint over that cell's outputs — either
 * as `G(cells) && rest` at the top of the one GUARANTEE, or as one ASSERT per cell. We do not
 * pattern-match its (version-dependent) encoding of exactly-one: we find an unconditional
 * propositional output-only constraint, split it into independent conjunct groups, and check by
 * BDD that each group is equivalent to "exactly one of its atoms". Only then do we turn
 * the constraint into `signals` (and drop it from the formulas, since `signalConstraint` puts it
 * back); otherwise the spec is left exactly as written with `signals: []`.
 */
import { type Formula, and, atoms, G, isPropositional, TRUE } from '../ltl/formula.js';
import type { PropositionInfo, SignalGroup, SpecPart } from '../game/spec.js';
import type { TermData } from '../../runtime/table.js';

/** A cell with more updates than this is not believed to be a tsltools cell. */
const MAX_GROUP_ATOMS = 256;

export interface Recovered {
  readonly signals: SignalGroup[];
  readonly assumptions: SpecPart[];
  readonly guarantees: SpecPart[];
}

/**
 * `guarantees` are the already-combined guarantee parts (ASSERT wrapped in G, then GUARANTEE);
 * only call this when the spec has no INITIALLY/PRESET/REQUIRE/ASSUME, so the constraint is
 * unconditional exactly as `signalConstraint` will state it.
 */
export function recoverTsltoolsGroups(outputs: readonly string[], guarantees: readonly SpecPart[]): Recovered | undefined {
  if (outputs.length === 0 || !outputs.every((o) => o.startsWith('u0'))) return undefined;
  const outputSet = new Set(outputs);
  const isConstraint = (f: Formula) =>
    f.kind === 'G' && isPropositional(f.arg) && [...atoms(f.arg)].every((a) => outputSet.has(a));

  // Candidate constraints: conjuncts `G(body)` with an output-only propositional body. Each body
  // splits into groups of conjuncts sharing atoms; a group is a signal when it says "exactly one"
  // and is disjoint from the groups taken before (largest first, so `G(u)` facts that merely
  // repeat an update of a real cell stay formulas).
  const candidates: { part: number; group: Group }[] = [];
  const conjunctsOf = guarantees.map((p) => (p.formula.kind === 'and' ? p.formula.args : [p.formula]));
  conjunctsOf.forEach((conjuncts, part) => {
    for (const c of conjuncts) {
      if (!isConstraint(c)) continue;
      const body = (c as { arg: Formula }).arg;
      for (const group of groupConjuncts(body.kind === 'and' ? body.args : [body])) candidates.push({ part, group });
    }
  });
  candidates.sort((a, b) => b.group.atoms.length - a.group.atoms.length);
  const taken = new Set<string>();
  const accepted: Group[] = [];
  const rejected = new Map<number, Formula[]>();
  for (const { part, group } of candidates) {
    const fits =
      group.atoms.length <= MAX_GROUP_ATOMS &&
      group.atoms.every((a) => !taken.has(a)) &&
      isExactlyOne(and(...group.conjuncts), group.atoms);
    if (fits) {
      accepted.push(group);
      for (const a of group.atoms) taken.add(a);
    } else rejected.set(part, [...(rejected.get(part) ?? []), G(and(...group.conjuncts))]);
  }
  if (accepted.length === 0 || taken.size !== outputSet.size) return undefined;

  const rest: SpecPart[] = [];
  conjunctsOf.forEach((conjuncts, part) => {
    const kept = [...conjuncts.filter((c) => !isConstraint(c)), ...(rejected.get(part) ?? [])];
    if (kept.length === conjuncts.length && !conjuncts.some(isConstraint)) rest.push(guarantees[part]);
    else if (kept.length > 0) rest.push({ ...guarantees[part], formula: and(...kept), text: undefined });
  });
  const groups = accepted.sort((a, b) => outputs.indexOf(a.atoms[0]) - outputs.indexOf(b.atoms[0]));
  const signals = groups.map((g) => signalGroup(g.atoms));
  // tsltools writes `G(cells) && (assumptions -> guarantees)`: split the implication so solvers
  // see the assumptions (sig ∧ (A → G) is exactly what specFormula builds).
  if (rest.length === 1 && rest[0].formula.kind === 'implies') {
    const { left, right } = rest[0].formula;
    const split = (f: Formula) => (f.kind === 'and' ? f.args : [f]).map((formula) => ({ formula, span: rest[0].span }));
    return { signals, assumptions: split(left), guarantees: split(right) };
  }
  return { signals, assumptions: [], guarantees: rest.filter((p) => p.formula !== TRUE) };
}

interface Group {
  readonly atoms: string[];
  readonly conjuncts: Formula[];
}

/** Connected components of conjuncts that share atoms. */
function groupConjuncts(conjuncts: readonly Formula[]): Group[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const atomLists = conjuncts.map((c) => [...atoms(c)].sort());
  for (const list of atomLists) {
    for (const a of list) if (!parent.has(a)) parent.set(a, a);
    for (const a of list.slice(1)) parent.set(find(a), find(list[0]));
  }
  const byRoot = new Map<string, Group>();
  conjuncts.forEach((c, i) => {
    if (atomLists[i].length === 0) return;
    const root = find(atomLists[i][0]);
    let g = byRoot.get(root);
    if (!g) byRoot.set(root, (g = { atoms: [], conjuncts: [] }));
    g.conjuncts.push(c);
  });
  for (const g of byRoot.values()) {
    g.atoms.push(...new Set(g.conjuncts.flatMap((c) => [...atoms(c)])));
    g.atoms.sort();
  }
  return [...byRoot.values()];
}

/**
 * Is `f` equivalent to "exactly one of `names`"? Decided with a small BDD (tsltools' nested
 * `<->` encodings stay small under any order), so cells with dozens of updates are fine.
 */
function isExactlyOne(f: Formula, names: readonly string[]): boolean {
  const bdd = new Bdd();
  const order = new Map(names.map((n, i) => [n, i]));
  let expected = bdd.FALSE; // exactly one, built from the last variable up
  let none = bdd.TRUE;
  for (let i = names.length - 1; i >= 0; i--) {
    expected = bdd.node(i, expected, none);
    none = bdd.node(i, none, bdd.FALSE);
  }
  return bdd.of(f, order) === expected;
}

/** Reduced ordered BDDs over variables 0..n-1; nodes are integers, 0 = false, 1 = true. */
class Bdd {
  readonly FALSE = 0;
  readonly TRUE = 1;
  private readonly vars: number[] = [Infinity, Infinity];
  private readonly lo: number[] = [0, 1];
  private readonly hi: number[] = [0, 1];
  private readonly unique = new Map<string, number>();
  private readonly iteMemo = new Map<string, number>();

  node(v: number, lo: number, hi: number): number {
    if (lo === hi) return lo;
    const k = `${v},${lo},${hi}`;
    let n = this.unique.get(k);
    if (n === undefined) {
      n = this.vars.length;
      this.vars.push(v);
      this.lo.push(lo);
      this.hi.push(hi);
      this.unique.set(k, n);
    }
    return n;
  }
  ite(c: number, t: number, e: number): number {
    if (c === 1) return t;
    if (c === 0) return e;
    if (t === e) return t;
    if (t === 1 && e === 0) return c;
    const k = `${c},${t},${e}`;
    const hit = this.iteMemo.get(k);
    if (hit !== undefined) return hit;
    const v = Math.min(this.vars[c], this.vars[t], this.vars[e]);
    const cof = (n: number, side: 'lo' | 'hi') => (this.vars[n] === v ? this[side][n] : n);
    const r = this.node(v, this.ite(cof(c, 'lo'), cof(t, 'lo'), cof(e, 'lo')), this.ite(cof(c, 'hi'), cof(t, 'hi'), cof(e, 'hi')));
    this.iteMemo.set(k, r);
    return r;
  }
  not(a: number): number {
    return this.ite(a, 0, 1);
  }
  of(f: Formula, order: ReadonlyMap<string, number>, memo = new Map<number, number>()): number {
    const hit = memo.get(f.id);
    if (hit !== undefined) return hit;
    const go = (g: Formula) => this.of(g, order, memo);
    let r: number;
    switch (f.kind) {
      case 'true':
        r = 1;
        break;
      case 'false':
        r = 0;
        break;
      case 'ap':
        r = this.node(order.get(f.name)!, 0, 1);
        break;
      case 'not':
        r = this.not(go(f.arg));
        break;
      case 'and':
        r = f.args.reduce((acc, a) => this.ite(acc, go(a), 0), 1);
        break;
      case 'or':
        r = f.args.reduce((acc, a) => this.ite(acc, 1, go(a)), 0);
        break;
      case 'implies':
        r = this.ite(go(f.left), go(f.right), 1);
        break;
      case 'iff': {
        const b = go(f.right);
        r = this.ite(go(f.left), b, this.not(b));
        break;
      }
      case 'xor': {
        const b = go(f.right);
        r = this.ite(go(f.left), this.not(b), b);
        break;
      }
      default:
        throw new Error(`Bdd.of: temporal operator ${f.kind} in a propositional formula`);
    }
    memo.set(f.id, r);
    return r;
  }
}

function signalGroup(updates: readonly string[]): SignalGroup {
  const decoded = updates.map((u) => ({ name: u, d: decodeOutput(u) }));
  const signal = decoded.find((x) => x.d)?.d?.signal ?? commonCell(updates);
  const self = decoded.find((x) => x.d?.isSelfUpdate);
  return { signal, updates: [...updates], ...(self ? { selfUpdate: self.name } : {}) };
}

function commonCell(updates: readonly string[]): string {
  const first = updates[0].slice(2);
  const cut = first.indexOf('0');
  return cut > 0 ? first.slice(0, cut) : first;
}

/** Signal/function names as tsltools escapes them: `2` + code for digits, `_ @ ' .` and capitals. */
const UNESCAPE: Readonly<Record<string, string>> = { '3': '0', '4': '1', '5': '2', '6': '_', '7': '@', '8': "'", '9': '.' };

class Decoder {
  pos = 0;
  constructor(readonly s: string) {}
  /** An escaped identifier, up to the next `0`/`1` separator or the end. */
  ident(): string | undefined {
    let out = '';
    while (this.pos < this.s.length) {
      const c = this.s[this.pos];
      if (c === '0' || c === '1') break;
      if (c === '2') {
        const n = this.s[this.pos + 1];
        if (n === undefined) return undefined;
        out += UNESCAPE[n] ?? (/[a-z]/.test(n) ? n.toUpperCase() : undefined);
        if (!(n in UNESCAPE) && !/[a-z]/.test(n)) return undefined;
        this.pos += 2;
        continue;
      }
      if (!/[A-Za-z3-9]/.test(c)) return undefined;
      out += c;
      this.pos++;
    }
    return out.length > 0 ? out : undefined;
  }
  eat(s: string): boolean {
    if (!this.s.startsWith(s, this.pos)) return false;
    this.pos += s.length;
    return true;
  }
  /** A signal term: `f1d…1b` function application, `p1d…1b` predicate term, or a signal. */
  term(): TermData | undefined {
    if (this.eat('f1d')) return this.application('f');
    if (this.eat('p1d')) return this.application('p');
    const name = this.ident();
    return name === undefined ? undefined : { kind: 'signal', name };
  }
  application(kind: 'f' | 'p'): TermData | undefined {
    const head = kind === 'p' ? this.predicateHead() : this.ident();
    if (head === undefined) return undefined;
    const args: TermData[] = [];
    while (this.eat('0')) {
      const a = this.term();
      if (!a) return undefined;
      args.push(a);
    }
    if (!this.eat('1b') && this.pos < this.s.length) return undefined;
    return { kind: 'call', fn: head, args };
  }
  predicateHead(): string | undefined {
    if (this.eat('bt')) return 'true';
    if (this.eat('bf')) return 'false';
    if (this.eat('b0')) return this.ident();
    if (this.eat('p0')) return this.ident();
    return undefined;
  }
}

/** `u0<cell>0<term>` → the update it encodes, or undefined when the name is not in that shape. */
export function decodeOutput(name: string): { signal: string; term: TermData; isSelfUpdate: boolean } | undefined {
  const d = new Decoder(name);
  if (!d.eat('u0')) return undefined;
  const signal = d.ident();
  if (signal === undefined || !d.eat('0')) return undefined;
  const term = d.term();
  if (!term || d.pos !== name.length) return undefined;
  return { signal, term, isSelfUpdate: term.kind === 'signal' && term.name === signal };
}

/** `p0…` → the predicate call it encodes (a boolean input `p0b0x` is the call `x()`). */
export function decodeInput(name: string): { fn: string; args: TermData[] } | undefined {
  const d = new Decoder(name);
  if (!d.eat('p0')) return undefined;
  const t = d.application('p');
  if (!t || t.kind !== 'call' || d.pos !== name.length) return undefined;
  return { fn: t.fn, args: [...t.args] };
}

export function termText(t: TermData): string {
  if (t.kind === 'signal') return t.name;
  if (t.kind === 'literal') return JSON.stringify(t.value);
  return t.args.length === 0 ? `${t.fn}()` : `${t.fn} ${t.args.map((a) => (a.kind === 'call' && a.args.length > 0 ? `(${termText(a)})` : termText(a))).join(' ')}`;
}

/** Proposition infos with decoded TSL terms where the names have tsltools' shape. */
export function describeInputs(names: readonly string[]): PropositionInfo[] {
  return names.map((name) => {
    const p = decodeInput(name);
    return p ? { name, term: termText({ kind: 'call', fn: p.fn, args: p.args }), predicate: p } : { name };
  });
}
export function describeOutputs(names: readonly string[]): PropositionInfo[] {
  return names.map((name) => {
    const u = decodeOutput(name);
    return u ? { name, term: `[${u.signal} <- ${termText(u.term)}]`, update: u } : { name };
  });
}

