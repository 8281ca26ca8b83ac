/**
 * What expanding a formula's definitions will cost, known before anything is expanded.
 *
 * Definitions are macros: each use copies the body with the arguments in place of the
 * parameters. `f1 x = f0 (f0 x)`, `f2 x = f1 (f1 x)`, … doubles at every level, so a few lines can
 * stand for a formula of 2^20 nodes (or 2^(2^20), when a body repeats a parameter), and even an
 * identity `g0 x = x` doubled twenty times takes 2^20 steps to expand into something small. The
 * checker asks here first and refuses, at the use, what would not fit its budget.
 *
 * Each definition gets a profile once: the size of its expansion as an affine function of its
 * arguments' sizes (`base + Σ perParam[i] · size(argument i)`), and the steps its body's
 * expansion takes (arguments are expanded once, before they are substituted, so that part does
 * not depend on them). The step count mirrors `Checker.expand` call for call. Values saturate at
 * COST_CAP, so a bomb costs one number, never an overflow or a long loop.
 */
import type { Definition, Expr } from './ast.js';

/** The definitions visible in one file: its own, and each import's under its alias. */
export interface Scope {
  readonly file: string;
  readonly definitions: ReadonlyMap<string, Definition>;
  readonly imports: ReadonlyMap<string, Scope>;
}

/** The definition a (possibly qualified: `Lib.x`, `Lib.Sub.x`) name refers to; reports nothing. */
export function findDefinition(scope: Scope, name: string): { def: Definition; scope: Scope } | undefined {
  const local = scope.definitions.get(name);
  if (local) return { def: local, scope };
  const dot = name.indexOf('.');
  if (dot < 0) return undefined;
  const inner = scope.imports.get(name.slice(0, dot));
  return inner ? findDefinition(inner, name.slice(dot + 1)) : undefined;
}

/** Costs are exact below this and reported as "more than" it above. */
export const COST_CAP = 1e12;

export interface ExpansionCost {
  /** Nodes of the expanded formula. */
  readonly size: number;
  /** Steps (visited nodes) the expansion takes. */
  readonly steps: number;
}

/** size = base + Σ perParam[i] · (size of argument i). */
interface Affine {
  readonly base: number;
  readonly perParam: readonly number[];
}

interface Profile {
  readonly size: Affine;
  readonly steps: number;
}

const add = (a: number, b: number): number => Math.min(COST_CAP, a + b);
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : Math.min(COST_CAP, a * b));

export class ExpansionCosts {
  private readonly profiles = new Map<Definition, Profile>();
  private readonly active = new Set<Definition>();

  /** The cost of expanding `e`, a formula in which no parameter is bound. */
  of(e: Expr, scope: Scope): ExpansionCost {
    const { size, steps } = this.walk(e, scope, new Map());
    return { size: size.base, steps };
  }

  /**
   * The use of a definition in `e` that costs most (the outermost of equals), with its cost: where
   * to point when `e` is too expensive.
   */
  costliestUse(e: Expr, scope: Scope): { use: Expr & { kind: 'name' | 'app' }; name: string; cost: ExpansionCost } | undefined {
    let best: { use: Expr & { kind: 'name' | 'app' }; name: string; cost: ExpansionCost } | undefined;
    const visit = (x: Expr): void => {
      if (x.kind === 'name' || x.kind === 'app') {
        const name = x.kind === 'name' ? x.name : x.fn;
        if (findDefinition(scope, name)) {
          const cost = this.of(x, scope);
          if (!best || Math.max(cost.size, cost.steps) > Math.max(best.cost.size, best.cost.steps)) best = { use: x, name, cost };
        }
      }
      if (x.kind === 'app') x.args.forEach(visit);
      else if (x.kind === 'update') visit(x.value);
      else if (x.kind === 'unary') visit(x.arg);
      else if (x.kind === 'binary' || x.kind === 'arith' || x.kind === 'compare') (visit(x.left), visit(x.right));
    };
    visit(e);
    return best;
  }

  /** A definition's profile; undefined while it is being profiled (a recursive use, which the checker reports). */
  private profile(def: Definition, scope: Scope): Profile | undefined {
    const known = this.profiles.get(def);
    if (known) return known;
    if (this.active.has(def)) return undefined;
    this.active.add(def);
    const profile = this.walk(def.body, scope, new Map(def.params.map((p, i) => [p, i] as const)));
    this.active.delete(def);
    this.profiles.set(def, profile);
    return profile;
  }

  /** Size (affine in the enclosing definition's parameters) and steps of expanding `e`. */
  private walk(e: Expr, scope: Scope, params: ReadonlyMap<string, number>): Profile {
    const arity = params.size;
    const constant = (n: number): Affine => ({ base: n, perParam: new Array<number>(arity).fill(0) });
    const plus = (a: Affine, b: Affine): Affine => ({ base: add(a.base, b.base), perParam: a.perParam.map((m, i) => add(m, b.perParam[i])) });
    const node = (...children: Profile[]): Profile =>
      children.reduce((acc, c) => ({ size: plus(acc.size, c.size), steps: add(acc.steps, c.steps) }), { size: constant(1), steps: 1 });
    /** A use of `name` with these (already walked) arguments: its body's profile applied to them. */
    const use = (name: string, args: readonly Profile[]): Profile | undefined => {
      const found = findDefinition(scope, name);
      if (!found) return undefined;
      const callee = found.def.params.length === args.length ? this.profile(found.def, found.scope) : undefined;
      // A wrong arity or a recursive use is an error; the checker puts a `true` in its place.
      if (!callee) return { size: constant(1), steps: args.reduce((s, a) => add(s, a.steps), 1) };
      let size = constant(callee.size.base);
      args.forEach((a, j) => {
        const m = callee.size.perParam[j];
        size = plus(size, { base: mul(m, a.size.base), perParam: a.size.perParam.map((p) => mul(m, p)) });
      });
      return { size, steps: args.reduce((s, a) => add(s, a.steps), add(1, callee.steps)) };
    };
    switch (e.kind) {
      case 'bool':
      case 'num':
        return node();
      case 'name': {
        const bound = params.get(e.name);
        if (bound !== undefined) {
          const perParam = new Array<number>(arity).fill(0);
          perParam[bound] = 1;
          return { size: { base: 0, perParam }, steps: 1 };
        }
        return use(e.name, []) ?? node();
      }
      case 'app': {
        const args = e.args.map((a) => this.walk(a, scope, params));
        if (params.has(e.fn)) return node(...args);
        return use(e.fn, args) ?? node(...args);
      }
      case 'update':
        return node(this.walk(e.value, scope, params));
      case 'unary':
        return node(this.walk(e.arg, scope, params));
      default:
        return node(this.walk(e.left, scope, params), this.walk(e.right, scope, params));
    }
  }
}
