/**
 * Compiling an agent behavior to a deterministic automaton over agent states.
 *
 * The paper reads its operators as sequencing, not as literal LTL (`until` over a `next`-chain
 * would otherwise force Thought and Action to hold at once): `(next a b c)` is "a, then b, then
 * c", `(until a b)` is "a repeated zero or more times, then b", `(always a)` is "a repeated". So a
 * paper behavior denotes a regular language of state sequences; we build its DFA lazily with
 * Brzozowski derivatives (a DFA state is a canonical regular expression). A behavior given as
 * `{ ltl }` is read as LTLf over one-state-per-step traces and uses the shield's LTLf DFA.
 */
import { parseLtl } from '../ltl/parse.js';
import { LtlfDfa } from '../shield/dfa.js';
import { type AgentSpec, type Behavior, AgentSpecError, isLtlBehavior } from './spec.js';

export interface BehaviorAutomaton {
  readonly start: number;
  /** Successor after the agent enters `state`, or undefined when the behavior forbids it. */
  step(q: number, state: string): number | undefined;
  /** May the run stop after reaching q? */
  accepting(q: number): boolean;
  /** States that may come next from q (the behavior can still be completed after them), in spec order. */
  valid(q: number): string[];
}

type Re =
  | { readonly k: 'empty' }
  | { readonly k: 'eps' }
  | { readonly k: 'sym'; readonly s: string }
  | { readonly k: 'seq'; readonly a: Re; readonly b: Re }
  | { readonly k: 'alt'; readonly rs: readonly Re[] }
  | { readonly k: 'star'; readonly r: Re };

const EMPTY: Re = { k: 'empty' };
const EPS: Re = { k: 'eps' };

function key(r: Re): string {
  switch (r.k) {
    case 'empty':
      return '∅';
    case 'eps':
      return 'ε';
    case 'sym':
      return JSON.stringify(r.s);
    case 'seq':
      return `(${key(r.a)} ${key(r.b)})`;
    case 'alt':
      return `(${r.rs.map(key).join('|')})`;
    case 'star':
      return `${key(r.r)}*`;
  }
}

function seq(a: Re, b: Re): Re {
  if (a.k === 'empty' || b.k === 'empty') return EMPTY;
  if (a.k === 'eps') return b;
  if (b.k === 'eps') return a;
  // Right-associate so equal languages get equal keys more often.
  if (a.k === 'seq') return seq(a.a, seq(a.b, b));
  return { k: 'seq', a, b };
}

function alt(rs: readonly Re[]): Re {
  const flat = new Map<string, Re>();
  for (const r of rs) {
    if (r.k === 'empty') continue;
    for (const x of r.k === 'alt' ? r.rs : [r]) flat.set(key(x), x);
  }
  if (flat.size === 0) return EMPTY;
  const sorted = [...flat.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).map((e) => e[1]);
  return sorted.length === 1 ? sorted[0] : { k: 'alt', rs: sorted };
}

function star(r: Re): Re {
  if (r.k === 'empty' || r.k === 'eps') return EPS;
  if (r.k === 'star') return r;
  return { k: 'star', r };
}

function nullable(r: Re): boolean {
  switch (r.k) {
    case 'empty':
    case 'sym':
      return false;
    case 'eps':
    case 'star':
      return true;
    case 'seq':
      return nullable(r.a) && nullable(r.b);
    case 'alt':
      return r.rs.some(nullable);
  }
}

function deriv(r: Re, s: string): Re {
  switch (r.k) {
    case 'empty':
    case 'eps':
      return EMPTY;
    case 'sym':
      return r.s === s ? EPS : EMPTY;
    case 'seq': {
      const first = seq(deriv(r.a, s), r.b);
      return nullable(r.a) ? alt([first, deriv(r.b, s)]) : first;
    }
    case 'alt':
      return alt(r.rs.map((x) => deriv(x, s)));
    case 'star':
      return seq(deriv(r.r, s), r);
  }
}

function toRe(b: Behavior): Re {
  if (typeof b === 'string') return { k: 'sym', s: b };
  if ('next' in b) return b.next.map(toRe).reduceRight((acc, x) => seq(x, acc), EPS);
  if ('until' in b) return seq(star(toRe(b.until[0])), toRe(b.until[1]));
  if ('or' in b) return alt(b.or.map(toRe));
  return star(toRe(b.always));
}

/** Derivative-based DFA for a paper-style behavior. */
class RegexAutomaton implements BehaviorAutomaton {
  private readonly res: Re[] = [];
  private readonly index = new Map<string, number>();
  private readonly trans = new Map<string, number | undefined>();
  readonly start: number;
  constructor(
    behavior: Behavior,
    private readonly states: readonly string[],
  ) {
    this.start = this.intern(toRe(behavior));
  }
  private intern(r: Re): number {
    const k = key(r);
    let id = this.index.get(k);
    if (id === undefined) {
      id = this.res.length;
      this.res.push(r);
      this.index.set(k, id);
    }
    return id;
  }
  step(q: number, state: string): number | undefined {
    const tk = `${q}\u0000${state}`;
    if (this.trans.has(tk)) return this.trans.get(tk);
    const d = deriv(this.res[q], state);
    // Every language our constructors build is non-empty, so only ∅ is a dead state.
    const r = d.k === 'empty' ? undefined : this.intern(d);
    this.trans.set(tk, r);
    return r;
  }
  accepting(q: number): boolean {
    return nullable(this.res[q]);
  }
  valid(q: number): string[] {
    return this.states.filter((s) => this.step(q, s) !== undefined);
  }
}

/** LTLf behavior: one agent state per step; a state is valid when the rules stay satisfiable. */
class LtlAutomaton implements BehaviorAutomaton {
  private readonly dfa: LtlfDfa;
  readonly start: number;
  constructor(
    ltl: string,
    private readonly states: readonly string[],
  ) {
    let formula;
    try {
      formula = parseLtl(ltl);
    } catch (e) {
      throw new AgentSpecError(`behavior: ${(e as Error).message}`);
    }
    this.dfa = new LtlfDfa(formula, { alphabet: states.map((s) => new Set([s])) });
    this.start = this.dfa.start;
  }
  step(q: number, state: string): number | undefined {
    const r = this.dfa.step(q, new Set([state]));
    return this.dfa.live(r) ? r : undefined;
  }
  accepting(q: number): boolean {
    return this.dfa.accepting(q);
  }
  valid(q: number): string[] {
    return this.states.filter((s) => this.step(q, s) !== undefined);
  }
}

export function compileBehavior(spec: AgentSpec): BehaviorAutomaton {
  const names = spec.states.map((s) => s.name);
  return isLtlBehavior(spec.behavior) ? new LtlAutomaton(spec.behavior.ltl, names) : new RegexAutomaton(spec.behavior, names);
}

/** Does a whole sequence of agent states follow the behavior (and may it stop there)? */
export function acceptsSequence(a: BehaviorAutomaton, seqOfStates: readonly string[]): boolean {
  let q: number | undefined = a.start;
  for (const s of seqOfStates) {
    q = a.step(q, s);
    if (q === undefined) return false;
  }
  return a.accepting(q);
}
