/**
 * runtime/shield — tool-call shields: temporal rules over tool calls and events, answered step by
 * step ("which tools may run next?", "may this call run?") and over whole plans, plus the offline
 * English ⇄ LTL pattern library the shields use to read and explain their rules.
 *
 * dfa.ts owns the finite-trace (LTLf) automaton every shield and agent spec runs on. It reuses the
 * monitor's hash-consed progression (runtime/monitor/terms.ts) instead of a second engine: a DFA
 * node is a normalised progressed formula plus "would the trace be accepted if it ended here", so
 * nodes are built lazily and only for letters that actually occur or that a liveness question needs.
 */
import type { LtlNode } from '../ltl/syntax.js';
import { type Term, TermStore, normalize, progress, progressLast, acceptsEmpty } from '../monitor/terms.js';

/** One step of a trace: the propositions that are true at that step. */
export type Letter = ReadonlySet<string>;

interface Node {
  readonly id: number;
  readonly term: Term;
  /** True when a trace that ends right after reaching this node satisfies the formula. */
  readonly accepting: boolean;
  readonly next: Map<string, number>;
  /** undefined = not yet known. */
  live: boolean | undefined;
}

export interface LtlfDfaOptions {
  /**
   * Letters a continuation may use when deciding liveness ("can the rules still be satisfied?").
   * Default: the empty letter plus each proposition of the formula on its own — one event per
   * step, which is what tool-call and agent-state traces look like.
   */
  readonly alphabet?: readonly Letter[];
  /** Give up exploring (and answer "live") beyond this many nodes; default 20 000. */
  readonly maxNodes?: number;
  /** Share a term store with other automata (shields put all rules in one store). */
  readonly store?: TermStore;
}

/** Lazily built DFA of an LTLf formula. Node 0 is the start (the empty trace). */
export class LtlfDfa {
  readonly store: TermStore;
  readonly alphabet: readonly Letter[];
  private readonly nodes: Node[] = [];
  private readonly index = new Map<string, number>();
  private readonly maxNodes: number;
  private readonly relevant: ReadonlySet<string>;
  /** The formula's initial term (for building products with other automata in the same store). */
  readonly term: Term;
  /** True once a liveness search hit `maxNodes` and answered optimistically. */
  truncated = false;

  constructor(formula: LtlNode | Term, options: LtlfDfaOptions = {}) {
    this.store = options.store ?? new TermStore();
    const term = isTerm(formula) ? formula : this.store.fromNode(formula);
    this.term = term;
    this.maxNodes = options.maxNodes ?? 20_000;
    const props = new Set<string>();
    collectAps(this.store, term, props);
    this.relevant = props;
    this.alphabet = options.alphabet ?? [new Set<string>(), ...[...props].sort().map((p) => new Set([p]))];
    this.intern(normalize(this.store, term), acceptsEmpty(term));
  }

  get start(): number {
    return 0;
  }
  get size(): number {
    return this.nodes.length;
  }

  accepting(node: number): boolean {
    return this.nodes[node].accepting;
  }

  /** The node's remaining obligation in Spot syntax (for explanations). */
  formula(node: number): string {
    return this.store.print(this.nodes[node].term);
  }

  /** True when the remaining obligation is `false`: every continuation fails. */
  violated(node: number): boolean {
    return this.nodes[node].term === this.store.FALSE;
  }

  step(node: number, letter: Letter): number {
    const n = this.nodes[node];
    const key = [...letter].filter((p) => this.relevant.has(p)).sort().join('\u0000');
    const hit = n.next.get(key);
    if (hit !== undefined) return hit;
    const value = (ap: number): boolean => letter.has(this.store.aps[ap]);
    const nextTerm = normalize(this.store, progress(this.store, n.term, value));
    const accepting = progressLast(this.store, n.term, value);
    const id = this.intern(nextTerm, accepting);
    n.next.set(key, id);
    return id;
  }

  /** Run a whole word from `from` (default: the start). */
  run(word: Iterable<Letter>, from = 0): number {
    let q = from;
    for (const l of word) q = this.step(q, l);
    return q;
  }

  /** Can some finite continuation over the alphabet (possibly empty) still satisfy the formula? */
  live(node: number): boolean {
    const n = this.nodes[node];
    if (n.live !== undefined) return n.live;
    if (n.accepting) return (n.live = true);
    if (n.term === this.store.FALSE) return (n.live = false);
    // Breadth-first search over the reachable graph. If no accepting node is found, every node
    // explored has its whole future explored too, so all of them are dead.
    const seen = new Set<number>([node]);
    const queue = [node];
    while (queue.length > 0) {
      const q = queue.shift()!;
      const qn = this.nodes[q];
      if (qn.live === true || qn.accepting) {
        n.live = true;
        return true;
      }
      if (qn.live === false || qn.term === this.store.FALSE) continue;
      if (this.nodes.length > this.maxNodes) {
        this.truncated = true;
        return true;
      }
      for (const l of this.alphabet) {
        const r = this.step(q, l);
        if (!seen.has(r)) {
          seen.add(r);
          queue.push(r);
        }
      }
    }
    for (const q of seen) this.nodes[q].live = false;
    return false;
  }

  /** A shortest accepted continuation from `node` (letters as sorted arrays), if one exists. */
  witness(node: number): string[][] | undefined {
    if (this.nodes[node].accepting) return [];
    const parent = new Map<number, { from: number; letter: Letter }>();
    const queue = [node];
    parent.set(node, { from: -1, letter: new Set() });
    while (queue.length > 0 && this.nodes.length <= this.maxNodes) {
      const q = queue.shift()!;
      if (this.nodes[q].term === this.store.FALSE) continue;
      for (const l of this.alphabet) {
        const r = this.step(q, l);
        if (parent.has(r)) continue;
        parent.set(r, { from: q, letter: l });
        if (this.nodes[r].accepting) {
          const out: string[][] = [];
          for (let c = r; c !== node; c = parent.get(c)!.from) out.unshift([...parent.get(c)!.letter].sort());
          return out;
        }
        queue.push(r);
      }
    }
    return undefined;
  }

  private intern(term: Term, accepting: boolean): number {
    const key = `${term.id}:${accepting ? 1 : 0}`;
    const found = this.index.get(key);
    if (found !== undefined) return found;
    const id = this.nodes.length;
    this.nodes.push({ id, term, accepting, next: new Map(), live: undefined });
    this.index.set(key, id);
    return id;
  }
}

function isTerm(x: LtlNode | Term): x is Term {
  return typeof (x as Term).kind === 'number';
}

function collectAps(store: TermStore, t: Term, out: Set<string>): void {
  const seen = new Set<number>();
  const walk = (u: Term): void => {
    if (seen.has(u.id)) return;
    seen.add(u.id);
    if (u.ap >= 0) out.add(store.aps[u.ap]);
    for (const a of u.args) walk(a);
  };
  walk(t);
}

/** Every subset of `props` (for exhaustive alphabets over a few propositions). */
export function allLetters(props: readonly string[]): Letter[] {
  if (props.length > 16) throw new Error(`too many propositions (${props.length}) for an exhaustive alphabet`);
  const out: Letter[] = [];
  for (let m = 0; m < 1 << props.length; m++) out.push(new Set(props.filter((_, i) => (m >> i) & 1)));
  return out;
}

/** LTLf satisfiability: is there a finite trace (over `alphabet`, default all subsets) satisfying it? */
export function satisfiableLtlf(formula: LtlNode, alphabet?: readonly Letter[]): boolean {
  const store = new TermStore();
  const term = store.fromNode(formula);
  const props = new Set<string>();
  collectAps(store, term, props);
  // Beyond 12 propositions fall back to single-event letters rather than 2^n of them.
  const letters = alphabet ?? (props.size <= 12 ? allLetters([...props]) : undefined);
  const dfa = new LtlfDfa(term, { store, ...(letters ? { alphabet: letters } : {}) });
  return dfa.live(dfa.start);
}
