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
  | { readonly k: 'star'; readonly r: Re }
  /** r repeated 0 to `max` times (a capped loop), kept as one node so its key stays small. */
  | { readonly k: 'rep'; readonly r: Re; readonly max: number };

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
    case 'rep':
      return `${key(r.r)}{${r.max}}`;
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

/** r repeated 0 to n times. */
function upTo(r: Re, n: number): Re {
  if (n <= 0 || r.k === 'empty' || r.k === 'eps') return EPS;
  return { k: 'rep', r, max: n };
}

function nullable(r: Re): boolean {
  switch (r.k) {
    case 'empty':
    case 'sym':
      return false;
    case 'eps':
    case 'star':
    case 'rep':
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
    case 'rep':
      return seq(deriv(r.r, s), upTo(r.r, r.max - 1));
  }
}


/** `cap`: the default bound on `until` loops (undefined: unbounded); a loop's own `max` wins. */
function toRe(b: Behavior, cap: number | undefined, unbounded: boolean): Re {
  const sub = (x: Behavior): Re => toRe(x, cap, unbounded);
  if (typeof b === 'string') return { k: 'sym', s: b };
  if ('next' in b) return b.next.map(sub).reduceRight((acc, x) => seq(x, acc), EPS);
  if ('until' in b) {
    if (b.max !== undefined && !(Number.isSafeInteger(b.max) && b.max >= 1)) throw new AgentSpecError(`(until … :max ${b.max}): a loop cap is a whole number of loops (1 or more)`);
    const body = sub(b.until[0]);
    const max = unbounded ? undefined : (b.max ?? cap);
    return seq(max === undefined ? star(body) : upTo(body, max), sub(b.until[1]));
  }
  if ('or' in b) return alt(b.or.map(sub));
  return star(sub(b.always));
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
    maxLoops: number | undefined,
    unbounded = false,
  ) {
    this.start = this.intern(toRe(behavior, maxLoops, unbounded));
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

export interface CompileOptions {
  /**
   * Bound every `until` loop (overrides the spec's `maxLoops`; a loop's own `max` still wins).
   * `null`: no default bound, whatever the spec says. LTL behaviors have no loops to bound.
   */
  readonly maxLoops?: number | null;
  /** No loop is bounded, not even by its own `max` (the behavior's plain language). */
  readonly unbounded?: boolean;
}

export function compileBehavior(spec: AgentSpec, options: CompileOptions = {}): BehaviorAutomaton {
  const names = spec.states.map((s) => s.name);
  if (isLtlBehavior(spec.behavior)) {
    if (typeof options.maxLoops === 'number') throw new AgentSpecError('maxLoops bounds (until …) loops; an LTL behavior has none');
    return new LtlAutomaton(spec.behavior.ltl, names);
  }
  if (options.unbounded) return new RegexAutomaton(spec.behavior, names, undefined, true);
  const cap = options.maxLoops === null ? undefined : (options.maxLoops ?? spec.maxLoops);
  if (cap !== undefined && !(Number.isSafeInteger(cap) && cap >= 1)) throw new AgentSpecError(`maxLoops must be a whole number of loops (1 or more), not ${cap}`);
  return new RegexAutomaton(spec.behavior, names, cap);
}

/**
 * The fewest states still to enter, from q, to stop in `final` with the behavior accepting, and
 * the first of them; undefined when no such path is found within `limit` automaton states.
 */
export function shortestToFinal(a: BehaviorAutomaton, q: number, final: string, limit = 10_000): { readonly length: number; readonly first: string } | undefined {
  // Breadth-first over automaton states; each entry remembers the first state entered on its path.
  const seen = new Set<number>([q]);
  let frontier: { q: number; first: string | undefined }[] = [{ q, first: undefined }];
  for (let length = 1; frontier.length > 0 && seen.size <= limit; length++) {
    const next: { q: number; first: string | undefined }[] = [];
    for (const node of frontier) {
      for (const s of a.valid(node.q)) {
        const r = a.step(node.q, s)!;
        const first = node.first ?? s;
        if (s === final && a.accepting(r)) return { length, first };
        if (seen.has(r)) continue;
        seen.add(r);
        next.push({ q: r, first });
      }
    }
    frontier = next;
  }
  return undefined;
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
