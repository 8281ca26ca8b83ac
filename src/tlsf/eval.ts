/**
 * Evaluating a TLSF source tree down to hash-consed LTL, with syfco's meaning
 * (Writer/Eval.hs, Reader/Sugar.hs, Reader/Bindings.hs): parameters (with `--param` overrides),
 * definitions and functions with guarded cases `guard : value` (`otherwise` holds when no other
 * guard does), buses (`r[i]` → proposition `r_i`), sets and ranges, big operators (`&&[i <- S]`,
 * `&&[0 <= i < n]`, `SUM`, `CUP`) and bounded temporal operators (`X[n]`, `F[a:b]`, `G[a:b]`).
 *
 * Evaluation runs on an explicit stack: every node that has sub-expressions to evaluate is a
 * generator that yields each sub-expression and receives its value, and one loop drives them.
 * Recursion in the specification (a function calling itself thousands of times) or deeply
 * nested source (thousands of chained `&&`) therefore uses heap, never the JavaScript stack, and
 * there is no depth limit. Function results are memoised (evaluation is pure), which keeps
 * recursive definitions such as divide-and-conquer mutual exclusion polynomial. The loop polls
 * the caller's deadline, so a slow expansion stops when the time is up.
 */
import { error, UserError } from '../diagnostics/diagnostic.js';
import { type Formula, ap, F as Fin, FALSE, G as Glob, iff, implies, not, R, TRUE, U, W, X } from '../ltl/formula.js';
import type { Binding, EnumDecl, Expr, SignalDecl, TlsfDocumentAst } from './ast.js';
import type { Lexer } from './lexer.js';
import { connective, floorDiv, floorMod, keyOf, ltl, makeSet, MAX_ELEMENTS, num, rangeLength, type Value } from './values.js';

export type { Value } from './values.js';

export interface EvaluatorOptions {
  /** `--param` overrides of GLOBAL PARAMETERS. */
  readonly overrides?: Readonly<Record<string, number>>;
  /** Called every few thousand evaluation steps; throws to stop (the caller's deadline). */
  readonly poll?: () => void;
}

/** Function arguments and big-operator variables: a persistent list, innermost first. */
type Scope = { readonly name: string; readonly value: Value; readonly parent: Scope } | undefined;

function lookupScope(scope: Scope, name: string): Value | undefined {
  for (let s = scope; s; s = s.parent) if (s.name === name) return s.value;
  return undefined;
}
function bind(scope: Scope, name: string, value: Value): Scope {
  return { name, value, parent: scope };
}

/** What a running evaluation asks the driver for: the value of an expression or a definition. */
type Request =
  | { readonly e: Expr; readonly scope: Scope }
  | { readonly binding: Binding; readonly scope: Scope; readonly call?: Expr };
type Task = Generator<Request, Value, Value>;
const requestExpr = (r: Request): Expr | undefined => ('e' in r ? r.e : r.call);

type SignalInfo = { readonly decl: SignalDecl; readonly value: Value };

/**
 * Nested evaluations (function calls within calls, operands within operands) beyond this are
 * refused. It is not a limit on the specification's recursion in practice (SYNTCOMP's deepest
 * recursion is far smaller), only a bound on memory for a recursion that never ends.
 */
const MAX_NESTING = 1_000_000;

const TRUE_VALUE = ltl(TRUE);
const FALSE_VALUE = ltl(FALSE);
const bool = (b: boolean): Value => (b ? TRUE_VALUE : FALSE_VALUE);
const isColon = (e: Expr): e is Expr & { kind: 'binary' } => e.kind === 'binary' && e.op === ':';

export class Evaluator {
  private readonly params = new Map<string, Binding>();
  private readonly overrides = new Map<string, number>();
  private readonly defs = new Map<string, Binding>();
  private readonly signals = new Map<string, SignalInfo>();
  /** Values of parameters and argument-free definitions, once computed. */
  private readonly constants = new Map<string, Value>();
  private readonly evaluating = new Set<string>();
  private readonly memo = new Map<string, Value>();
  /** Calls being evaluated (by memo key): meeting one again is a recursion that never ends. */
  private readonly active = new Map<string, Expr>();
  private readonly poll: (() => void) | undefined;
  private steps = 0;
  private readonly enums = new Map<string, EnumDecl>();
  readonly inputs: string[] = [];
  readonly outputs: string[] = [];
  /**
   * For each signal typed by an enum whose codes leave some bit patterns unused: the formula
   * "the signal never takes an unused pattern", with the declaration. syfco adds these to the
   * requirements (inputs) and invariants (outputs).
   */
  readonly enumConstraints: Array<{ readonly io: 'input' | 'output'; readonly decl: SignalDecl; readonly formula: Formula }> = [];

  constructor(
    doc: TlsfDocumentAst,
    private readonly lexer: Lexer,
    options: EvaluatorOptions = {},
  ) {
    this.poll = options.poll;
    const overrides = options.overrides ?? {};
    const declared = new Set(doc.parameters.map((p) => p.name));
    for (const name of Object.keys(overrides)) {
      if (!declared.has(name)) {
        const known = [...declared].join(', ') || 'none';
        throw new UserError(error(`--param ${name}: the file has no parameter '${name}' (parameters: ${known})`, undefined, 'param'));
      }
      this.overrides.set(name, overrides[name]);
    }
    for (const p of doc.parameters) {
      this.checkFresh(p.name, p.start);
      if (p.params.length > 0) this.fail(`parameter '${p.name}' cannot take arguments`, p.start, p.name.length);
      this.params.set(p.name, p);
    }
    for (const d of doc.definitions) {
      this.checkFresh(d.name, d.start);
      this.defs.set(d.name, d);
    }
    for (const en of doc.enums) this.declareEnum(en);
    for (const d of [...doc.inputs, ...doc.outputs]) {
      this.checkFresh(d.name, d.start);
      // Registered before the widths are evaluated, so that a width naming a signal is an error.
      this.signals.set(d.name, { decl: d, value: ltl(ap(d.name)) });
    }
    // Parameters are evaluated up front, as syfco does (an error in an unused one is still an
    // error); definitions when first used.
    for (const p of doc.parameters) this.run({ e: { kind: 'id', name: p.name, start: p.start, end: p.start + p.name.length }, scope: undefined });
    this.declareSignals(doc.inputs, this.inputs);
    this.declareSignals(doc.outputs, this.outputs);
    const props = new Map<string, number>();
    for (const name of [...this.inputs, ...this.outputs]) props.set(name, (props.get(name) ?? 0) + 1);
    for (const [name, count] of props) {
      if (count > 1) throw new UserError(error(`the proposition '${name}' is declared twice (a bus element clashes with a signal)`, undefined, 'duplicate'));
    }
  }

  private checkFresh(name: string, at: number): void {
    if (this.params.has(name) || this.defs.has(name) || this.signals.has(name) || this.enums.has(name) || this.constants.has(name)) {
      this.fail(`'${name}' is defined twice`, at, name.length);
    }
  }

  /**
   * An enum's values become constants. As in syfco, a bit pattern matched by two codes is an
   * error; patterns matched by none are unused (see `enumConstraints`).
   */
  private declareEnum(en: EnumDecl): void {
    this.checkFresh(en.name, en.start);
    this.enums.set(en.name, en);
    const width = en.values[0].codes[0].length;
    for (const v of en.values) {
      this.checkFresh(v.name, v.start);
      this.constants.set(v.name, { t: 'enum', name: v.name, width, codes: v.codes });
    }
    if (width > 20) this.fail(`enum '${en.name}' has codes of ${width} bits; at most 20 are supported`, en.start, 4);
    for (let bits = 0; bits < 2 ** width; bits++) {
      const matching = en.values.filter((v) => v.codes.some((c) => codeMatches(c, bits)));
      const codes = en.values.flatMap((v) => v.codes.filter((c) => codeMatches(c, bits)).map((c) => `${v.name}: ${c}`));
      if (codes.length > 1) {
        const pattern = patternText(bits, width);
        this.fail(`in enum '${en.name}', the pattern ${pattern} has two codes (${codes.slice(0, 2).join(' and ')})`, matching[matching.length - 1].start, matching[matching.length - 1].name.length);
      }
    }
  }

  /** The formula that the bus `name` (typed by `en`) never carries an unused pattern. */
  private unusedPatterns(en: EnumDecl, name: string): Formula {
    const width = en.values[0].codes[0].length;
    const clauses: Formula[] = [];
    for (let bits = 0; bits < 2 ** width; bits++) {
      if (en.values.some((v) => v.codes.some((c) => codeMatches(c, bits)))) continue;
      const differs: Formula[] = [];
      for (let i = 0; i < width; i++) {
        const line = ap(busElement(name, i));
        differs.push((bits >> i) & 1 ? not(line) : line);
      }
      clauses.push(connective('or', differs));
    }
    return connective('and', clauses);
  }

  private declareSignals(decls: readonly SignalDecl[], out: string[]): void {
    for (const d of decls) {
      if (d.enumType) {
        const en = this.enums.get(d.enumType.name);
        if (!en) this.fail(`unknown enum '${d.enumType.name}'`, d.enumType.start, d.enumType.name.length);
        const width = en.values[0].codes[0].length;
        for (let i = 0; i < width; i++) out.push(busElement(d.name, i));
        this.signals.set(d.name, { decl: d, value: { t: 'bus', name: d.name, width } });
        const unused = this.unusedPatterns(en, d.name);
        if (unused !== TRUE) this.enumConstraints.push({ io: out === this.inputs ? 'input' : 'output', decl: d, formula: unused });
        continue;
      }
      if (!d.width) {
        out.push(d.name);
        continue;
      }
      const w = this.run({ e: d.width, scope: undefined });
      const span = [d.width.start, d.width.end - d.width.start] as const;
      if (w.t !== 'num' || w.n < 0) this.fail(`the width of bus '${d.name}' must be a non-negative number`, ...span);
      const width = (w as { n: number }).n;
      if (width > MAX_ELEMENTS) this.fail(`bus '${d.name}' is too wide (${width} signals)`, ...span);
      for (let i = 0; i < width; i++) out.push(busElement(d.name, i));
      this.signals.set(d.name, { decl: d, value: { t: 'bus', name: d.name, width } });
    }
  }

  /** Evaluate a specification formula: must yield LTL (a number or set is a user error). */
  formula(e: Expr): Formula {
    const v = this.run({ e, scope: undefined });
    if (v.t !== 'ltl') this.failAt(`expected a formula, but this is a ${describe(v)}`, e);
    return (v as { f: Formula }).f;
  }

  private fail(message: string, offset: number, length = 1): never {
    throw new UserError(error(message, this.lexer.span(offset, Math.max(1, length)), 'tlsf'));
  }
  private failAt(message: string, e: Expr): never {
    return this.fail(message, e.start, e.end - e.start);
  }

  // ---- the driver ------------------------------------------------------------------------------

  private run(root: Request): Value {
    const stack: Task[] = [this.task(root)];
    // What each task evaluates, to locate an error raised without a place (an overflow in `num`).
    const exprs: (Expr | undefined)[] = [requestExpr(root)];
    let input: Value | undefined;
    for (;;) {
      if ((++this.steps & 2047) === 0) {
        this.poll?.();
        if (stack.length > MAX_NESTING) this.tooDeep(stack.length);
      }
      const top = stack[stack.length - 1];
      let r: IteratorResult<Request, Value>;
      try {
        r = top.next(input as Value);
      } catch (err) {
        const at = exprs.findLast((e) => e !== undefined);
        if (err instanceof UserError && at && err.diagnostics.length === 1 && !err.diagnostics[0].span) this.failAt(err.diagnostics[0].message, at);
        throw err;
      }
      if (r.done) {
        stack.pop();
        exprs.pop();
        if (stack.length === 0) return r.value;
        input = r.value;
      } else {
        stack.push(this.task(r.value));
        exprs.push(requestExpr(r.value));
        input = undefined;
      }
    }
  }

  /** Nested evaluation this deep is a recursion that does not end (or a spec far past any use). */
  private tooDeep(depth: number): never {
    const calls = [...this.active.entries()];
    const last = calls[calls.length - 1];
    const message = `evaluation nested more than ${MAX_NESTING.toLocaleString('en-US')} levels deep (${depth.toLocaleString('en-US')})`;
    if (!last) throw new UserError(error(message, undefined, 'tlsf'));
    this.failAt(`${message}, the last call being ${last[0]}: does this recursion reach its base case?`, last[1]);
  }

  /** The generator that evaluates a request (one per kind, so no node needs two). */
  private task(r: Request): Task {
    if (!('e' in r)) return this.binding(r.binding, r.scope, r.call);
    const e = r.e;
    switch (e.kind) {
      case 'id':
        return this.identifier(e, r.scope);
      case 'call':
        return this.call(e, r.scope);
      case 'prefix':
        return this.prefix(e, r.scope);
      case 'indexed':
        return this.indexed(e, r.scope);
      case 'binary':
        return this.binary(e, r.scope);
      default:
        return this.expr(e, r.scope);
    }
  }

  /** The value of a leaf without a task of its own, or undefined when it needs one. */
  private leaf(e: Expr, scope: Scope): Value | undefined {
    switch (e.kind) {
      case 'number':
        return num(e.value);
      case 'bool':
        return bool(e.value);
      case 'id':
        return lookupScope(scope, e.name) ?? this.constants.get(e.name) ?? this.signals.get(e.name)?.value;
      default:
        return undefined;
    }
  }

  // ---- expressions -----------------------------------------------------------------------------

  private *expr(e: Expr, scope: Scope): Task {
    switch (e.kind) {
      case 'number':
        return num(e.value);
      case 'bool':
        return bool(e.value);
      case 'otherwise':
        return this.failAt("'otherwise' can only guard a case of a definition", e);
      case 'id':
        return yield* this.identifier(e, scope);
      case 'call':
        return yield* this.call(e, scope);
      case 'index': {
        // A function parameter may hold a bus (`mutex(bus, k) = … bus[i] …`).
        const bus = lookupScope(scope, e.name) ?? this.signals.get(e.name)?.value;
        if (!bus || bus.t !== 'bus') {
          const known = bus !== undefined || this.defs.has(e.name) || this.params.has(e.name);
          return this.fail(`'${e.name}' is ${known ? 'not a bus' : 'not declared'}; only buses can be indexed`, e.start, e.nameEnd - e.start);
        }
        const i = this.asNumber(this.leaf(e.index, scope) ?? (yield { e: e.index, scope }), e.index);
        if (i < 0 || i >= bus.width) this.failAt(`index ${i} is out of range for bus '${bus.name}' of width ${bus.width}`, e);
        return ltl(ap(busElement(bus.name, i)));
      }
      case 'prefix':
        return yield* this.prefix(e, scope);
      case 'indexed':
        return yield* this.indexed(e, scope);
      case 'binary':
        return yield* this.binary(e, scope);
      case 'set': {
        const items: Value[] = [];
        for (const x of e.items) items.push(this.leaf(x, scope) ?? (yield { e: x, scope }));
        return makeSet(items);
      }
      case 'range': {
        const first = this.asNumber(this.leaf(e.first, scope) ?? (yield { e: e.first, scope }), e.first);
        const step = e.second ? (this.asNumber(this.leaf(e.second, scope) ?? (yield { e: e.second, scope }), e.second)) - first : 1;
        const last = this.asNumber(this.leaf(e.last, scope) ?? (yield { e: e.last, scope }), e.last);
        const count = rangeLength(first, step, last);
        if (count === undefined) return this.failAt(`this range never ends (step 0 from ${first} to ${last})`, e);
        if (count > MAX_ELEMENTS) this.failAt(`this range has too many elements (${count})`, e);
        const items: Value[] = [];
        for (let k = 0; k < count; k++) items.push(num(first + k * step));
        return makeSet(items);
      }
      case 'size': {
        const v = (this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }));
        if (v.t === 'set') return num(v.items.length);
        if (v.t === 'bus') return num(v.width);
        return this.failAt(`|…| needs a set or a bus, not a ${describe(v)}`, e.arg);
      }
    }
  }

  // Sub-expressions are fetched inline, `this.leaf(x, scope) ?? (yield { e: x, scope })`, rather
  // than through helper generators: a deep evaluation keeps every suspended generator alive, and
  // each helper would add one per level.
  private asNumber(v: Value, e: Expr): number {
    if (v.t !== 'num') this.failAt(`expected a number, but this is a ${describe(v)}`, e);
    return (v as { n: number }).n;
  }
  private asFormula(v: Value, e: Expr): Formula {
    if (v.t !== 'ltl') this.failAt(`expected a formula, but this is a ${describe(v)}`, e);
    return (v as { f: Formula }).f;
  }
  private asSet(v: Value, e: Expr): readonly Value[] {
    if (v.t !== 'set') this.failAt(`expected a set, but this is a ${describe(v)}`, e);
    return (v as { items: readonly Value[] }).items;
  }
  /** A condition (guard, comparison): must evaluate to the constant true or false. */
  private asCondition(v: Value, e: Expr): boolean {
    if (v.t === 'ltl' && (v.f === TRUE || v.f === FALSE)) return v.f === TRUE;
    return this.failAt(`this condition must evaluate to true or false, not a ${describe(v)}`, e);
  }

  private *identifier(e: Expr & { kind: 'id' }, scope: Scope): Task {
    const local = lookupScope(scope, e.name);
    if (local) return local;
    const known = this.constants.get(e.name);
    if (known) return known;
    const binding = this.params.get(e.name) ?? this.defs.get(e.name);
    if (binding) {
      if (binding.params.length > 0) this.failAt(`'${e.name}' is a function of ${binding.params.length} argument(s); call it as ${e.name}(…)`, e);
      if (this.evaluating.has(e.name)) this.failAt(`the definition of '${e.name}' depends on itself`, e);
      this.evaluating.add(e.name);
      const override = this.overrides.get(e.name);
      const v = override !== undefined ? num(override) : yield { binding, scope: undefined };
      this.evaluating.delete(e.name);
      if (this.params.has(e.name) && v.t !== 'num') this.fail(`parameter '${e.name}' must be a number`, binding.start, e.name.length);
      this.constants.set(e.name, v);
      return v;
    }
    const s = this.signals.get(e.name);
    if (s) return s.value;
    return this.failAt(`unknown identifier '${e.name}'`, e);
  }

  private *call(e: Expr & { kind: 'call' }, scope: Scope): Task {
    const d = this.defs.get(e.name);
    if (!d) {
      const what = this.signals.has(e.name) || this.params.has(e.name) ? 'not a function' : 'not defined';
      return this.fail(`'${e.name}' is ${what}`, e.start, e.nameEnd - e.start);
    }
    if (d.params.length !== e.args.length) {
      this.failAt(`'${e.name}' takes ${d.params.length} argument(s), but ${e.args.length} were given`, e);
    }
    let inner: Scope;
    let key = `${e.name}(`;
    for (let i = 0; i < e.args.length; i++) {
      const v = this.leaf(e.args[i], scope) ?? (yield { e: e.args[i], scope });
      inner = bind(inner, d.params[i], v);
      key += i === 0 ? keyOf(v) : `,${keyOf(v)}`;
    }
    key += ')';
    const cached = this.memo.get(key);
    if (cached) return cached;
    if (this.active.has(key)) this.failAt(`'${e.name}' calls itself with the same arguments (${this.argumentText(d, inner)}): the recursion never ends`, e);
    this.active.set(key, e);
    const v = yield { binding: d, scope: inner, call: e };
    this.active.delete(key);
    this.memo.set(key, v);
    return v;
  }

  /**
   * The value of a definition, as syfco reads it: one alternative is the value (a single guarded
   * one, `g : v`, has value v when g holds); several alternatives are cases, each `guard : value`
   * (a case without a guard has guard true, and `otherwise` stands for "no other guard holds").
   * Every guard is evaluated. When several hold, syfco takes the least value in its own order of
   * values; for numbers that is the smallest, and for anything else we refuse unless the values
   * are equal, rather than guess syfco's order of formulas.
   */
  private *binding(b: Binding, scope: Scope, call: Expr | undefined): Task {
    const alts = b.alternatives;
    if (alts.length === 1 && !isColon(alts[0])) return yield { e: alts[0], scope };
    const guards: Array<boolean | 'otherwise'> = [];
    for (const alt of alts) {
      if (!isColon(alt)) guards.push(true);
      else if (alt.left.kind === 'otherwise') guards.push('otherwise');
      else guards.push(this.asCondition(this.leaf(alt.left, scope) ?? (yield { e: alt.left, scope }), alt.left));
    }
    const anyOther = guards.some((g) => g === true);
    const chosen = alts.filter((_, i) => (guards[i] === 'otherwise' ? !anyOther : guards[i]));
    const where = call ?? b;
    const args = () => (call ? ` to (${this.argumentText(b, scope)})` : '');
    if (chosen.length === 0) return this.fail(`no case of '${b.name}' applies${args()}`, where.start, (call ? call.end : b.start + b.name.length) - where.start);
    const values: Value[] = [];
    for (const alt of chosen) {
      const body = isColon(alt) ? alt.right : alt;
      values.push(this.leaf(body, scope) ?? (yield { e: body, scope }));
    }
    if (values.length === 1) return values[0];
    const keys = new Set(values.map(keyOf));
    if (keys.size === 1) return values[0];
    if (values.every((v) => v.t === 'num')) return values.reduce((x, y) => ((x as { n: number }).n <= (y as { n: number }).n ? x : y));
    const lines = chosen.map((alt) => this.lexer.position(alt.start).line).join(', ');
    return this.fail(
      `several cases of '${b.name}' apply${args()} (lines ${lines}) with different values; make the guards exclusive`,
      where.start,
      (call ? call.end : b.start + b.name.length) - where.start,
    );
  }

  private argumentText(b: Binding, scope: Scope): string {
    return b.params.map((p) => showValue(lookupScope(scope, p))).join(', ');
  }

  private *prefix(e: Expr & { kind: 'prefix' }, scope: Scope): Task {
    switch (e.op) {
      case '!':
        return ltl(not(this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg)));
      case 'X':
        return ltl(X(this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg)));
      case 'F':
        return ltl(Fin(this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg)));
      case 'G':
        return ltl(Glob(this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg)));
      case 'SIZE':
        return num((this.asSet(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg)).length);
      case 'SIZEOF': {
        const v = (this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }));
        if (v.t !== 'bus') this.failAt(`SIZEOF needs a bus, not a ${describe(v)}`, e.arg);
        return num((v as { width: number }).width);
      }
      case 'MIN':
      case 'MAX': {
        const items = this.asSet(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg);
        if (items.length === 0) this.failAt(`${e.op} of an empty set`, e);
        let best: number | undefined;
        for (const v of items) {
          if (v.t !== 'num') return this.failAt(`${e.op} needs a set of numbers`, e.arg);
          if (best === undefined || (e.op === 'MIN' ? v.n < best : v.n > best)) best = v.n;
        }
        return num(best!);
      }
    }
  }

  private *indexed(e: Expr & { kind: 'indexed' }, scope: Scope): Task {
    if (e.op === 'X') {
      if (e.params.length !== 1) this.failAt('X[n] takes one number', e);
      const n = this.asNumber(this.leaf(e.params[0], scope) ?? (yield { e: e.params[0], scope }), e.params[0]);
      if (n < 0) this.failAt(`X[${n}] needs n >= 0`, e.params[0]);
      if (n > MAX_ELEMENTS) this.failAt(`X[${n}] is too long`, e.params[0]);
      let f = this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg);
      for (let i = 0; i < n; i++) f = X(f);
      return ltl(f);
    }
    if (e.op === 'F' || e.op === 'G') {
      const p = e.params[0];
      if (e.params.length !== 1 || !isColon(p)) return this.failAt(`${e.op}[a:b] takes a range a:b`, e);
      const a = this.asNumber(this.leaf(p.left, scope) ?? (yield { e: p.left, scope }), p.left);
      const b = this.asNumber(this.leaf(p.right, scope) ?? (yield { e: p.right, scope }), p.right);
      // syfco: an empty interval gives true (for F as well as G).
      if (a > b) return TRUE_VALUE;
      if (a < 0) this.failAt(`${e.op}[${a}:${b}] needs 0 <= a`, p);
      if (b - a > MAX_ELEMENTS) this.failAt(`${e.op}[${a}:${b}] is too long`, p);
      const body = this.asFormula(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }), e.arg);
      const steps: Formula[] = [];
      let f = body;
      for (let i = 0; i <= b; i++, f = X(f)) if (i >= a) steps.push(f);
      return ltl(connective(e.op === 'F' ? 'or' : 'and', steps));
    }
    const values: Value[] = [];
    yield* this.instances(e, 0, scope, values);
    switch (e.op) {
      case '&&':
      case '||': {
        const fs: Formula[] = [];
        for (const v of values) fs.push(v.t === 'ltl' ? v.f : this.failAt(`the body of ${e.op}[…] must be a formula, not a ${describe(v)}`, e.arg));
        return ltl(connective(e.op === '&&' ? 'and' : 'or', fs));
      }
      case 'SUM':
      case 'PROD': {
        let acc = num(e.op === 'SUM' ? 0 : 1);
        for (const v of values) {
          if (v.t !== 'num') return this.failAt(`the body of ${e.op}[…] must be a number`, e.arg);
          const n = (acc as { n: number }).n;
          acc = num(e.op === 'SUM' ? n + v.n : n * v.n);
        }
        return acc;
      }
      case 'CUP':
      case 'CAP': {
        const sets: Array<readonly Value[]> = [];
        for (const v of values) sets.push(v.t === 'set' ? v.items : this.failAt(`the body of ${e.op}[…] must be a set`, e.arg));
        if (e.op === 'CUP') return makeSet(sets.flat());
        if (sets.length === 0) return makeSet([]);
        let acc = sets[0];
        for (const s of sets.slice(1)) {
          const keep = new Set(s.map(keyOf));
          acc = acc.filter((v) => keep.has(keyOf(v)));
        }
        return makeSet(acc);
      }
    }
  }

  /**
   * The body of a big operator once per assignment of its bindings, left to right: `x <- S`
   * binds x to each element of S, `lo <= x < hi` (any mix of `<` and `<=`) to each number in
   * between, as syfco's sugar does; anything else is a condition that filters (an extension:
   * syfco accepts bindings only).
   */
  private *instances(e: Expr & { kind: 'indexed' }, k: number, scope: Scope, out: Value[]): Generator<Request, void, Value> {
    if (k >= e.params.length) {
      out.push(this.leaf(e.arg, scope) ?? (yield { e: e.arg, scope }));
      if (out.length > MAX_ELEMENTS) this.failAt('this big operator has too many instances', e);
      return;
    }
    const p = e.params[k];
    if (p.kind === 'binary' && p.op === 'IN' && p.left.kind === 'id') {
      for (const v of this.asSet(this.leaf(p.right, scope) ?? (yield { e: p.right, scope }), p.right)) yield* this.instances(e, k + 1, bind(scope, p.left.name, v), out);
      return;
    }
    const range = rangeSugar(p);
    if (range) {
      const lo = (this.asNumber(this.leaf(range.lo, scope) ?? (yield { e: range.lo, scope }), range.lo)) + (range.strictLo ? 1 : 0);
      const hi = (this.asNumber(this.leaf(range.hi, scope) ?? (yield { e: range.hi, scope }), range.hi)) - (range.strictHi ? 1 : 0);
      if (hi - lo + 1 > MAX_ELEMENTS) this.failAt(`this range has too many elements (${hi - lo + 1})`, p);
      for (let i = lo; i <= hi; i++) yield* this.instances(e, k + 1, bind(scope, range.name, num(i)), out);
      return;
    }
    if (this.asCondition(this.leaf(p, scope) ?? (yield { e: p, scope }), p)) yield* this.instances(e, k + 1, scope, out);
  }

  private *binary(e: Expr & { kind: 'binary' }, scope: Scope): Task {
    switch (e.op) {
      case ':': {
        // A guarded value outside a definition's cases (syfco allows it): the value if the guard holds.
        if (e.left.kind !== 'otherwise' && !(this.asCondition(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left))) {
          return this.failAt('the guard of this value does not hold', e.left);
        }
        return (this.leaf(e.right, scope) ?? (yield { e: e.right, scope }));
      }
      case '&&':
      case '||': {
        // A chain a && b && c … is one n-ary conjunction: evaluated operand by operand, combined once.
        const fs: Formula[] = [];
        for (const x of chainOperands(e)) fs.push(this.asFormula(this.leaf(x, scope) ?? (yield { e: x, scope }), x));
        return ltl(connective(e.op === '&&' ? 'and' : 'or', fs));
      }
      case '->':
        return ltl(implies(this.asFormula(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left), this.asFormula(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '<->':
        return ltl(iff(this.asFormula(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left), this.asFormula(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case 'U':
        return ltl(U(this.asFormula(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left), this.asFormula(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case 'W':
        return ltl(W(this.asFormula(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left), this.asFormula(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case 'R':
        return ltl(R(this.asFormula(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left), this.asFormula(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case 'IN': {
        const v = (this.leaf(e.left, scope) ?? (yield { e: e.left, scope }));
        const k = keyOf(v);
        return bool((this.asSet(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)).some((w) => keyOf(w) === k));
      }
      case '==':
      case '!=':
        return this.equality(e, (this.leaf(e.left, scope) ?? (yield { e: e.left, scope })), (this.leaf(e.right, scope) ?? (yield { e: e.right, scope })));
      case '<':
        return bool((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) < (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '<=':
        return bool((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) <= (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '>':
        return bool((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) > (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '>=':
        return bool((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) >= (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case 'CUP':
        return makeSet([...(this.asSet(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)), ...(this.asSet(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right))]);
      case 'CAP': {
        const l = this.asSet(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left);
        const r = new Set((this.asSet(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)).map(keyOf));
        return makeSet(l.filter((v) => r.has(keyOf(v))));
      }
      case 'SETMINUS': {
        const l = this.asSet(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left);
        const r = new Set((this.asSet(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)).map(keyOf));
        return makeSet(l.filter((v) => !r.has(keyOf(v))));
      }
      case '+':
        return num((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) + (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '-':
        return num((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) - (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '*':
        return num((this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left)) * (this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right)));
      case '/':
      case '%': {
        const l = this.asNumber(this.leaf(e.left, scope) ?? (yield { e: e.left, scope }), e.left);
        const r = this.asNumber(this.leaf(e.right, scope) ?? (yield { e: e.right, scope }), e.right);
        if (r === 0) this.failAt('division by zero', e.right);
        return num(e.op === '/' ? floorDiv(l, r) : floorMod(l, r));
      }
    }
  }

  /**
   * `==` and `!=`: numbers and sets compare by value; two buses of one width (or a bus of width 1
   * and a signal) give the formula that they agree bit by bit, as in syfco (whose `!=` on buses
   * gives the same formula as `==`, a slip we do not copy: here `!=` is its negation).
   */
  private equality(e: Expr & { kind: 'binary' }, l: Value, r: Value): Value {
    const eq = e.op === '==';
    const signal = (v: Value) => (v.t === 'ltl' && v.f.kind === 'ap' && this.signals.get(v.f.name)?.value === v ? v.f.name : undefined);
    if ((l.t === 'enum') !== (r.t === 'enum')) {
      // A bus (or a signal, as a bus of width 1) holds an enum value: one of its codes matches.
      const en = (l.t === 'enum' ? l : r) as Value & { t: 'enum' };
      const other = l.t === 'enum' ? r : l;
      const lines = other.t === 'bus' ? other.width : signal(other) !== undefined ? 1 : undefined;
      if (lines === undefined) return this.failAt(`an enum value can only be compared with a bus or a signal, not a ${describe(other)}`, e);
      if (lines !== en.width) return this.failAt(`cannot compare a bus of width ${lines} with the value '${en.name}' of ${en.width} bits`, e);
      const line = (i: number) => ap(other.t === 'bus' ? busElement(other.name, i) : signal(other)!);
      const alternatives = en.codes.map((code) => {
        const lits: Formula[] = [];
        for (let i = 0; i < code.length; i++) if (code[i] !== '*') lits.push(code[i] === '1' ? line(i) : not(line(i)));
        return connective('and', lits);
      });
      const holds = connective('or', alternatives);
      return ltl(eq ? holds : not(holds));
    }
    if (l.t === 'bus' || r.t === 'bus') {
      const width = (v: Value) => (v.t === 'bus' ? v.width : signal(v) !== undefined ? 1 : undefined);
      const name = (v: Value, i: number) => (v.t === 'bus' ? busElement(v.name, i) : signal(v)!);
      const wl = width(l);
      const wr = width(r);
      if (wl === undefined || wr === undefined) return this.failAt(`a bus can only be compared with a bus or a signal, not a ${describe(wl === undefined ? l : r)}`, e);
      if (wl !== wr) return this.failAt(`cannot compare buses of widths ${wl} and ${wr}`, e);
      const bits: Formula[] = [];
      for (let i = 0; i < wl; i++) bits.push(iff(ap(name(l, i)), ap(name(r, i))));
      const same = connective('and', bits);
      return ltl(eq ? same : not(same));
    }
    if (l.t === 'ltl' || r.t === 'ltl') return this.failAt('== and != compare numbers or sets, not formulas (use <->)', e);
    return bool((keyOf(l) === keyOf(r)) === eq);
  }
}

/** The operands of a chain of one associative connective, left to right, without recursion. */
function chainOperands(e: Expr & { kind: 'binary' }): Expr[] {
  const out: Expr[] = [];
  const todo: Expr[] = [e];
  while (todo.length > 0) {
    const x = todo.pop()!;
    if (x.kind === 'binary' && x.op === e.op) {
      todo.push(x.right, x.left);
    } else out.push(x);
  }
  return out;
}

/** `lo < x < hi`, `lo <= x < hi`, `lo < x <= hi`, `lo <= x <= hi` as a binding of x. */
function rangeSugar(p: Expr): { name: string; lo: Expr; hi: Expr; strictLo: boolean; strictHi: boolean } | undefined {
  if (p.kind !== 'binary' || (p.op !== '<' && p.op !== '<=')) return undefined;
  const inner = p.left;
  if (inner.kind !== 'binary' || (inner.op !== '<' && inner.op !== '<=') || inner.right.kind !== 'id') return undefined;
  return { name: inner.right.name, lo: inner.left, hi: p.right, strictLo: inner.op === '<', strictHi: p.op === '<' };
}

export function busElement(bus: string, index: number): string {
  return `${bus}_${index}`;
}

function describe(v: Value): string {
  return v.t === 'num' ? 'number' : v.t === 'ltl' ? 'formula' : v.t === 'bus' ? 'bus' : v.t === 'enum' ? 'enum value' : 'set';
}

/** Whether a code over 0, 1, * matches the pattern whose bit i is line i. */
function codeMatches(code: string, bits: number): boolean {
  for (let i = 0; i < code.length; i++) {
    if (code[i] !== '*' && (code[i] === '1') !== (((bits >> i) & 1) === 1)) return false;
  }
  return true;
}
function patternText(bits: number, width: number): string {
  let s = '';
  for (let i = 0; i < width; i++) s += (bits >> i) & 1 ? '1' : '0';
  return s;
}

function showValue(v: Value | undefined): string {
  if (v === undefined) return '?';
  switch (v.t) {
    case 'num':
      return `${v.n}`;
    case 'bus':
      return v.name;
    case 'set':
      return v.items.length <= 8 ? `{${v.items.map(showValue).join(', ')}}` : `{… ${v.items.length} elements}`;
    case 'ltl':
      return v.f === TRUE ? 'true' : v.f === FALSE ? 'false' : v.f.kind === 'ap' ? v.f.name : 'a formula';
    case 'enum':
      return v.name;
  }
}
