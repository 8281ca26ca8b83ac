/**
 * Evaluating a TLSF source tree: parameters (with `--param` overrides), definitions and
 * functions (guarded cases with `otherwise`), buses (`r[i]` → proposition `r_i`, syfco's default
 * delimiter), sets and ranges, big operators (`&&[i <- S]`, `&&[0 <= i < n]`, `SUM`, `CUP`) and
 * bounded temporal operators (`X[n]`, `F[a:b]`, `G[a:b]`) — down to hash-consed LTL formulas.
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import { type Formula, and, ap, F as Fin, FALSE, G as Glob, iff, implies, not, or, R, TRUE, U, W, X } from '../ltl/formula.js';
import type { Binding, Expr, SignalDecl, TlsfDocumentAst } from './ast.js';
import type { Lexer } from './lexer.js';

export type Value =
  | { readonly t: 'num'; readonly n: number }
  | { readonly t: 'ltl'; readonly f: Formula }
  | { readonly t: 'set'; readonly items: readonly Value[] }
  | { readonly t: 'bus'; readonly name: string; readonly width: number };

export interface EvaluatedSignals {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/** Recursion through user functions deeper than this is reported, not left to overflow the stack. */
const MAX_DEPTH = 200;
/** Guard against `&&[i <- {0, 1 .. 100000000}]` exhausting memory. */
const MAX_ELEMENTS = 100_000;

type Scope = ReadonlyMap<string, Value>;

export class Evaluator {
  private readonly params = new Map<string, Value>();
  private readonly defs = new Map<string, Binding>();
  private readonly defValues = new Map<string, Value>();
  private readonly evaluating = new Set<string>();
  private readonly signals = new Map<string, { decl: SignalDecl; value: Value }>();
  private depth = 0;
  readonly inputs: string[] = [];
  readonly outputs: string[] = [];

  constructor(
    private readonly doc: TlsfDocumentAst,
    private readonly lexer: Lexer,
    overrides: Readonly<Record<string, number>> = {},
  ) {
    const declared = new Set(doc.parameters.map((p) => p.name));
    for (const name of Object.keys(overrides)) {
      if (!declared.has(name)) {
        const known = [...declared].join(', ') || 'none';
        throw new UserError(error(`--param ${name}: the file has no parameter '${name}' (parameters: ${known})`, undefined, 'param'));
      }
    }
    for (const p of doc.parameters) {
      this.checkFresh(p.name, p.start);
      if (p.params.length > 0) this.fail(`parameter '${p.name}' cannot take arguments`, p.start, p.name.length);
      const override = overrides[p.name];
      const value = override !== undefined ? num(override) : this.evalBinding(p, new Map());
      if (value.t !== 'num') this.fail(`parameter '${p.name}' must be a number`, p.start, p.name.length);
      this.params.set(p.name, value);
    }
    for (const d of doc.definitions) {
      this.checkFresh(d.name, d.start);
      this.defs.set(d.name, d);
    }
    this.declareSignals(doc.inputs, this.inputs);
    this.declareSignals(doc.outputs, this.outputs);
    const props = new Map<string, number>();
    for (const name of [...this.inputs, ...this.outputs]) props.set(name, (props.get(name) ?? 0) + 1);
    for (const [name, count] of props) {
      if (count > 1) throw new UserError(error(`the proposition '${name}' is declared twice (a bus element clashes with a signal)`, undefined, 'duplicate'));
    }
  }

  private checkFresh(name: string, at: number): void {
    if (this.params.has(name) || this.defs.has(name) || this.signals.has(name)) {
      this.fail(`'${name}' is defined twice`, at, name.length);
    }
  }

  private declareSignals(decls: readonly SignalDecl[], out: string[]): void {
    for (const d of decls) {
      this.checkFresh(d.name, d.start);
      if (d.width) {
        const w = this.evalExpr(d.width, new Map());
        if (w.t !== 'num' || w.n < 0) this.fail(`the width of bus '${d.name}' must be a non-negative number`, d.width.start, d.width.end - d.width.start);
        const width = (w as { n: number }).n;
        if (width > MAX_ELEMENTS) this.fail(`bus '${d.name}' is too wide (${width} signals)`, d.width.start, d.width.end - d.width.start);
        for (let i = 0; i < width; i++) out.push(busElement(d.name, i));
        this.signals.set(d.name, { decl: d, value: { t: 'bus', name: d.name, width } });
      } else {
        out.push(d.name);
        this.signals.set(d.name, { decl: d, value: { t: 'ltl', f: ap(d.name) } });
      }
    }
  }

  /** Evaluate a specification formula: must yield LTL (a number or set is a user error). */
  formula(e: Expr): Formula {
    const v = this.evalExpr(e, new Map());
    if (v.t !== 'ltl') this.fail(`expected a formula, but this is a ${describe(v)}`, e.start, e.end - e.start);
    return (v as { f: Formula }).f;
  }

  private fail(message: string, offset: number, length = 1): never {
    throw new UserError(error(message, this.lexer.span(offset, Math.max(1, length)), 'tlsf'));
  }
  private failAt(message: string, e: Expr): never {
    return this.fail(message, e.start, e.end - e.start);
  }

  private evalBinding(b: Binding, scope: Scope): Value {
    if (b.alternatives.length === 1 && !(b.alternatives[0].kind === 'binary' && b.alternatives[0].op === ':')) {
      return this.evalExpr(b.alternatives[0], scope);
    }
    // Guarded cases `value : condition`; `otherwise` holds when no earlier case did.
    for (const alt of b.alternatives) {
      if (alt.kind !== 'binary' || alt.op !== ':') this.failAt(`every case of '${b.name}' needs a guard 'value : condition'`, alt);
      const guard = alt.right;
      const holds = guard.kind === 'otherwise' ? true : this.constantBool(guard, scope);
      if (holds) return this.evalExpr(alt.left, scope);
    }
    return this.fail(`no case of '${b.name}' applies (add an 'otherwise' case)`, b.start, b.name.length);
  }

  private constantBool(e: Expr, scope: Scope): boolean {
    const v = this.evalExpr(e, scope);
    if (v.t === 'ltl' && (v.f === TRUE || v.f === FALSE)) return v.f === TRUE;
    return this.failAt(`this condition must evaluate to true or false, not a ${describe(v)}`, e);
  }

  private lookup(e: Expr & { kind: 'id' }, scope: Scope): Value {
    const local = scope.get(e.name);
    if (local) return local;
    const p = this.params.get(e.name);
    if (p) return p;
    const d = this.defs.get(e.name);
    if (d) {
      if (d.params.length > 0) this.failAt(`'${e.name}' is a function of ${d.params.length} argument(s); call it as ${e.name}(…)`, e);
      const cached = this.defValues.get(e.name);
      if (cached) return cached;
      if (this.evaluating.has(e.name)) this.failAt(`the definition of '${e.name}' depends on itself`, e);
      this.evaluating.add(e.name);
      const v = this.evalBinding(d, new Map());
      this.evaluating.delete(e.name);
      this.defValues.set(e.name, v);
      return v;
    }
    const s = this.signals.get(e.name);
    if (s) return s.value;
    return this.failAt(`unknown identifier '${e.name}'`, e);
  }

  evalExpr(e: Expr, scope: Scope): Value {
    switch (e.kind) {
      case 'number':
        return num(e.value);
      case 'bool':
        return ltl(e.value ? TRUE : FALSE);
      case 'otherwise':
        return this.failAt("'otherwise' can only guard the last case of a definition", e);
      case 'id':
        return this.lookup(e, scope);
      case 'call':
        return this.call(e, scope);
      case 'index': {
        // A function parameter may hold a bus (`mutex(bus, k) = … bus[i] …`).
        const bus = scope.get(e.name) ?? this.signals.get(e.name)?.value;
        if (!bus || bus.t !== 'bus') {
          const what = bus ? 'not a bus' : this.defs.has(e.name) || this.params.has(e.name) ? 'not a bus' : 'not declared';
          return this.fail(`'${e.name}' is ${what}; only buses can be indexed`, e.start, e.nameEnd - e.start);
        }
        const i = this.number(e.index, scope);
        if (i < 0 || i >= bus.width) this.failAt(`index ${i} is out of range for bus '${bus.name}' of width ${bus.width}`, e);
        return ltl(ap(busElement(bus.name, i)));
      }
      case 'prefix':
        return this.prefix(e, scope);
      case 'indexed':
        return this.indexed(e, scope);
      case 'binary':
        return this.binary(e, scope);
      case 'set':
        return set(e.items.map((x) => this.evalExpr(x, scope)));
      case 'range': {
        const first = this.number(e.first, scope);
        const last = this.number(e.last, scope);
        const step = e.second ? this.number(e.second, scope) - first : 1;
        if (step === 0) this.failAt('a range needs a non-zero step', e);
        const count = Math.floor((last - first) / step) + 1;
        if (count > MAX_ELEMENTS) this.failAt(`this range has too many elements (${count})`, e);
        const items: Value[] = [];
        for (let k = 0; k < count; k++) items.push(num(first + k * step));
        return set(items);
      }
      case 'size': {
        const v = this.evalExpr(e.arg, scope);
        if (v.t === 'set') return num(v.items.length);
        if (v.t === 'bus') return num(v.width);
        return this.failAt(`|…| needs a set or a bus, not a ${describe(v)}`, e.arg);
      }
    }
  }

  private call(e: Expr & { kind: 'call' }, scope: Scope): Value {
    const d = this.defs.get(e.name);
    if (!d) {
      const what = this.signals.has(e.name) || this.params.has(e.name) ? 'not a function' : 'not defined';
      return this.fail(`'${e.name}' is ${what}`, e.start, e.nameEnd - e.start);
    }
    if (d.params.length !== e.args.length) {
      this.failAt(`'${e.name}' takes ${d.params.length} argument(s), but ${e.args.length} were given`, e);
    }
    const inner = new Map<string, Value>();
    d.params.forEach((p, i) => inner.set(p, this.evalExpr(e.args[i], scope)));
    if (++this.depth > MAX_DEPTH) this.failAt(`recursion through '${e.name}' is too deep (more than ${MAX_DEPTH} calls)`, e);
    try {
      return this.evalBinding(d, inner);
    } finally {
      this.depth--;
    }
  }

  private number(e: Expr, scope: Scope): number {
    const v = this.evalExpr(e, scope);
    if (v.t !== 'num') this.failAt(`expected a number, but this is a ${describe(v)}`, e);
    return (v as { n: number }).n;
  }
  private ltlOf(e: Expr, scope: Scope): Formula {
    const v = this.evalExpr(e, scope);
    if (v.t !== 'ltl') this.failAt(`expected a formula, but this is a ${describe(v)}`, e);
    return (v as { f: Formula }).f;
  }
  private setOf(e: Expr, scope: Scope): readonly Value[] {
    const v = this.evalExpr(e, scope);
    if (v.t !== 'set') this.failAt(`expected a set, but this is a ${describe(v)}`, e);
    return (v as { items: readonly Value[] }).items;
  }

  private prefix(e: Expr & { kind: 'prefix' }, scope: Scope): Value {
    switch (e.op) {
      case '!':
        return ltl(not(this.ltlOf(e.arg, scope)));
      case 'X':
        return ltl(X(this.ltlOf(e.arg, scope)));
      case 'F':
        return ltl(Fin(this.ltlOf(e.arg, scope)));
      case 'G':
        return ltl(Glob(this.ltlOf(e.arg, scope)));
      case 'SIZE':
        return num(this.setOf(e.arg, scope).length);
      case 'SIZEOF': {
        const v = this.evalExpr(e.arg, scope);
        if (v.t !== 'bus') this.failAt(`SIZEOF needs a bus, not a ${describe(v)}`, e.arg);
        return num((v as { width: number }).width);
      }
      case 'MIN':
      case 'MAX': {
        const items = this.setOf(e.arg, scope);
        if (items.length === 0) this.failAt(`${e.op} of an empty set`, e);
        const ns = items.map((v) => (v.t === 'num' ? v.n : this.failAt(`${e.op} needs a set of numbers`, e.arg)));
        return num(e.op === 'MIN' ? Math.min(...ns) : Math.max(...ns));
      }
    }
  }

  private indexed(e: Expr & { kind: 'indexed' }, scope: Scope): Value {
    if (e.op === 'X') {
      if (e.params.length !== 1) this.failAt('X[n] takes one number', e);
      const n = this.number(e.params[0], scope);
      if (n < 0) this.failAt('X[n] needs n >= 0', e.params[0]);
      return ltl(nextN(n, this.ltlOf(e.arg, scope)));
    }
    if (e.op === 'F' || e.op === 'G') {
      const p = e.params[0];
      if (e.params.length !== 1 || p.kind !== 'binary' || p.op !== ':') this.failAt(`${e.op}[a:b] takes a range a:b`, e);
      const range = p as Expr & { kind: 'binary' };
      const a = this.number(range.left, scope);
      const b = this.number(range.right, scope);
      if (a < 0 || b < a) this.failAt(`${e.op}[${a}:${b}] needs 0 <= a <= b`, p);
      if (b - a > MAX_ELEMENTS) this.failAt(`${e.op}[${a}:${b}] is too long`, p);
      const body = this.ltlOf(e.arg, scope);
      const steps: Formula[] = [];
      for (let i = a; i <= b; i++) steps.push(nextN(i, body));
      return ltl(e.op === 'F' ? or(...steps) : and(...steps));
    }
    const scopes = this.expandBindings(e.params, 0, scope);
    const values = scopes.map((s) => this.evalExpr(e.arg, s));
    switch (e.op) {
      case '&&':
      case '||': {
        const fs = values.map((v) => (v.t === 'ltl' ? v.f : this.failAt(`the body of ${e.op}[…] must be a formula, not a ${describe(v)}`, e.arg)));
        return ltl(e.op === '&&' ? and(...fs) : or(...fs));
      }
      case 'SUM':
      case 'PROD': {
        const ns = values.map((v) => (v.t === 'num' ? v.n : this.failAt(`the body of ${e.op}[…] must be a number`, e.arg)));
        return num(e.op === 'SUM' ? ns.reduce((x, y) => x + y, 0) : ns.reduce((x, y) => x * y, 1));
      }
      case 'CUP':
      case 'CAP': {
        const sets = values.map((v) => (v.t === 'set' ? v.items : this.failAt(`the body of ${e.op}[…] must be a set`, e.arg)));
        if (e.op === 'CUP') return set(sets.flat());
        if (sets.length === 0) return set([]);
        return set(sets.reduce((x, y) => x.filter((v) => y.some((w) => key(w) === key(v)))));
      }
    }
  }

  /** Bindings `i <- S`, `a <= i < b` (syfco's sugar) and guards, left to right. */
  private expandBindings(params: readonly Expr[], k: number, scope: Scope): Scope[] {
    if (k >= params.length) return [scope];
    const p = params[k];
    const out: Scope[] = [];
    const withVar = (name: string, items: readonly Value[]) => {
      for (const v of items) {
        const inner = new Map(scope);
        inner.set(name, v);
        for (const s of this.expandBindings(params, k + 1, inner)) {
          out.push(s);
          if (out.length > MAX_ELEMENTS) this.failAt('this big operator has too many instances', p);
        }
      }
      return out;
    };
    if (p.kind === 'binary' && p.op === 'IN' && p.left.kind === 'id') {
      return withVar(p.left.name, this.setOf(p.right, scope));
    }
    const range = this.rangeSugar(p, scope);
    if (range) return withVar(range.name, range.items);
    if (this.constantBool(p, scope)) return this.expandBindings(params, k + 1, scope);
    return [];
  }

  /** `lo <= i < hi` (and the other mixes of `<`/`<=`) binding a fresh identifier `i`. */
  private rangeSugar(p: Expr, scope: Scope): { name: string; items: Value[] } | undefined {
    const lower = new Set(['<', '<=']);
    if (p.kind !== 'binary' || !lower.has(p.op)) return undefined;
    const inner = p.left;
    if (inner.kind !== 'binary' || !lower.has(inner.op) || inner.right.kind !== 'id') return undefined;
    const name = inner.right.name;
    if (scope.has(name)) return undefined;
    const lo = this.number(inner.left, scope) + (inner.op === '<' ? 1 : 0);
    const hi = this.number(p.right, scope) - (p.op === '<' ? 1 : 0);
    if (hi - lo + 1 > MAX_ELEMENTS) this.failAt('this range has too many elements', p);
    const items: Value[] = [];
    for (let i = lo; i <= hi; i++) items.push(num(i));
    return { name, items };
  }

  private binary(e: Expr & { kind: 'binary' }, scope: Scope): Value {
    switch (e.op) {
      case ':':
        return this.failAt("a guard 'value : condition' can only appear in a definition", e);
      case '&&':
        return ltl(and(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case '||':
        return ltl(or(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case '->':
        return ltl(implies(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case '<->':
        return ltl(iff(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case 'U':
        return ltl(U(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case 'W':
        return ltl(W(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case 'R':
        return ltl(R(this.ltlOf(e.left, scope), this.ltlOf(e.right, scope)));
      case 'IN': {
        if (e.left.kind === 'id' && !this.isBound(e.left.name, scope)) {
          this.failAt(`'${e.left.name}' is not bound; 'x <- S' binds only inside a big operator &&[…]`, e.left);
        }
        const v = this.evalExpr(e.left, scope);
        return bool(this.setOf(e.right, scope).some((w) => key(w) === key(v)));
      }
      case '==':
      case '!=': {
        const l = this.evalExpr(e.left, scope);
        const r = this.evalExpr(e.right, scope);
        if (l.t === 'ltl' || r.t === 'ltl') this.failAt('== and != compare numbers or sets, not formulas (use <->)', e);
        return bool((key(l) === key(r)) === (e.op === '=='));
      }
      case '<':
        return bool(this.number(e.left, scope) < this.number(e.right, scope));
      case '<=':
        return bool(this.number(e.left, scope) <= this.number(e.right, scope));
      case '>':
        return bool(this.number(e.left, scope) > this.number(e.right, scope));
      case '>=':
        return bool(this.number(e.left, scope) >= this.number(e.right, scope));
      case 'CUP':
        return set([...this.setOf(e.left, scope), ...this.setOf(e.right, scope)]);
      case 'CAP': {
        const r = new Set(this.setOf(e.right, scope).map(key));
        return set(this.setOf(e.left, scope).filter((v) => r.has(key(v))));
      }
      case 'SETMINUS': {
        const r = new Set(this.setOf(e.right, scope).map(key));
        return set(this.setOf(e.left, scope).filter((v) => !r.has(key(v))));
      }
      case '+':
        return num(this.number(e.left, scope) + this.number(e.right, scope));
      case '-':
        return num(this.number(e.left, scope) - this.number(e.right, scope));
      case '*':
        return num(this.number(e.left, scope) * this.number(e.right, scope));
      case '/':
      case '%': {
        const l = this.number(e.left, scope);
        const r = this.number(e.right, scope);
        if (r === 0) this.failAt('division by zero', e.right);
        return num(e.op === '/' ? Math.trunc(l / r) : l % r);
      }
    }
  }

  private isBound(name: string, scope: Scope): boolean {
    return scope.has(name) || this.params.has(name) || this.defs.has(name) || this.signals.has(name);
  }
}

export function busElement(bus: string, index: number): string {
  return `${bus}_${index}`;
}

function nextN(n: number, f: Formula): Formula {
  let out = f;
  for (let i = 0; i < n; i++) out = X(out);
  return out;
}

function num(n: number): Value {
  if (!Number.isSafeInteger(n)) throw new UserError(error(`arithmetic overflow (${n})`, undefined, 'tlsf'));
  return { t: 'num', n };
}
function ltl(f: Formula): Value {
  return { t: 'ltl', f };
}
function bool(b: boolean): Value {
  return ltl(b ? TRUE : FALSE);
}
function key(v: Value): string {
  switch (v.t) {
    case 'num':
      return `n${v.n}`;
    case 'ltl':
      return `f${v.f.id}`;
    case 'bus':
      return `b${v.name}`;
    case 'set':
      return `{${[...new Set(v.items.map(key))].sort().join(',')}}`;
  }
}
function set(items: readonly Value[]): Value {
  const seen = new Map<string, Value>();
  for (const v of items) if (!seen.has(key(v))) seen.set(key(v), v);
  if (seen.size > MAX_ELEMENTS) throw new UserError(error('a set has too many elements', undefined, 'tlsf'));
  return { t: 'set', items: [...seen.values()] };
}
function describe(v: Value): string {
  return v.t === 'num' ? 'number' : v.t === 'ltl' ? 'formula' : v.t === 'bus' ? 'bus' : 'set';
}
