/**
 * Ultimately periodic words ("lassos") and two independent ways to judge them: the direct LTL
 * semantics (`evaluateOnLasso`, no automata involved — the oracle for translator tests) and
 * acceptance by a TGBA (`tgbaAcceptsLasso`).
 */
import { evalPropositional, type Formula } from '../ltl/formula.js';
import { acceptingComponents, stronglyConnectedComponents } from './scc.js';
import type { Tgba } from './types.js';

/** The atoms that are true in one letter. */
export type Valuation = ReadonlySet<string>;

/** The word prefix · cycle^ω; `cycle` must be non-empty. */
export interface Lasso {
  readonly prefix: readonly Valuation[];
  readonly cycle: readonly Valuation[];
}

function letters(w: Lasso): { word: Valuation[]; succ: (i: number) => number } {
  if (w.cycle.length === 0) throw new Error('lasso cycle must be non-empty');
  const word = [...w.prefix, ...w.cycle];
  const loopStart = w.prefix.length;
  return { word, succ: (i) => (i + 1 < word.length ? i + 1 : loopStart) };
}

/**
 * Truth of f at position 0 of the lasso, by the textbook fixpoint semantics over the finitely
 * many distinct positions: U/M/F are least fixpoints, R/W/G greatest.
 */
export function evaluateOnLasso(f: Formula, w: Lasso): boolean {
  const { word, succ } = letters(w);
  const n = word.length;
  const memo = new Map<number, boolean[]>();
  const values = (g: Formula): boolean[] => {
    const hit = memo.get(g.id);
    if (hit) return hit;
    let out: boolean[];
    switch (g.kind) {
      case 'true':
      case 'false':
      case 'ap':
        out = word.map((letter) => evalPropositional(g, (name) => letter.has(name)));
        break;
      case 'not': {
        const a = values(g.arg);
        out = a.map((v) => !v);
        break;
      }
      case 'and': {
        const as = g.args.map(values);
        out = word.map((_, i) => as.every((a) => a[i]));
        break;
      }
      case 'or': {
        const as = g.args.map(values);
        out = word.map((_, i) => as.some((a) => a[i]));
        break;
      }
      case 'implies':
      case 'iff':
      case 'xor': {
        const l = values(g.left);
        const r = values(g.right);
        out = word.map((_, i) => (g.kind === 'implies' ? !l[i] || r[i] : g.kind === 'iff' ? l[i] === r[i] : l[i] !== r[i]));
        break;
      }
      case 'X': {
        const a = values(g.arg);
        out = word.map((_, i) => a[succ(i)]);
        break;
      }
      case 'F':
        out = fixpoint(n, succ, values(g.arg), null, false);
        break;
      case 'G':
        out = fixpoint(n, succ, null, values(g.arg), true);
        break;
      // a U b = b ∨ (a ∧ X(a U b)), least; a W b the same, greatest.
      case 'U':
      case 'W':
        out = fixpoint(n, succ, values(g.right), values(g.left), g.kind === 'W');
        break;
      // a R b = b ∧ (a ∨ X(a R b)), greatest; a M b the same, least.
      case 'R':
      case 'M': {
        const a = values(g.left);
        const b = values(g.right);
        const greatest = g.kind === 'R';
        const cur = new Array<boolean>(n).fill(greatest);
        for (let round = 0; round <= n; round++)
          for (let i = n - 1; i >= 0; i--) cur[i] = b[i] && (a[i] || cur[succ(i)]);
        out = cur;
        break;
      }
    }
    memo.set(g.id, out);
    return out;
  };
  return values(f)[0];
}

/**
 * Iterate v[i] = now[i] ∨ (stay[i] ∧ v[succ i]) from all-`init`; n+1 sweeps reach the fixpoint on
 * a lasso of n positions. `now` null = false, `stay` null = true.
 */
function fixpoint(
  n: number,
  succ: (i: number) => number,
  now: boolean[] | null,
  stay: boolean[] | null,
  greatest: boolean,
): boolean[] {
  const cur = new Array<boolean>(n).fill(greatest);
  for (let round = 0; round <= n; round++)
    for (let i = n - 1; i >= 0; i--) cur[i] = (now !== null && now[i]) || ((stay === null || stay[i]) && cur[succ(i)]);
  return cur;
}

/** Does the automaton accept the lasso? (Product with the lasso's positions, then SCC check.) */
export function tgbaAcceptsLasso(a: Tgba, w: Lasso): boolean {
  const { word, succ } = letters(w);
  const n = word.length;
  const guardMemo = new Map<string, boolean>();
  const holds = (guard: Formula, i: number) => {
    const key = `${guard.id}@${i}`;
    let v = guardMemo.get(key);
    if (v === undefined) guardMemo.set(key, (v = evalPropositional(guard, (name) => word[i].has(name))));
    return v;
  };
  // Product state = q * n + position.
  const total = a.stateCount * n;
  const succs: number[][] = Array.from({ length: total }, () => []);
  const marksOf: (readonly number[])[][] = Array.from({ length: total }, () => []);
  const built = new Uint8Array(total);
  const build = (p: number) => {
    if (built[p]) return;
    built[p] = 1;
    const q = Math.floor(p / n);
    const i = p % n;
    for (const e of a.edges[q]) {
      if (!holds(e.guard, i)) continue;
      succs[p].push(e.to * n + succ(i));
      marksOf[p].push(e.marks);
    }
  };
  const roots = a.initial.map((q) => q * n);
  const components = stronglyConnectedComponents(total, roots, (p) => {
    build(p);
    return succs[p];
  });
  const edgesOf = (p: number) => succs[p].map((to, k) => ({ to, marks: marksOf[p][k] }));
  return acceptingComponents(total, components, edgesOf, a.accSets).includes(true);
}
