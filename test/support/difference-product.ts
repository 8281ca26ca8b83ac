/**
 * The formula x ∧ ¬y, rearranged so our translator can decide its emptiness on whole specs.
 *
 * Negating a spec `S ∧ (A → G)` gives a disjunction of huge parts, which the translator handles
 * badly; but next to x most of it cancels. This module keeps x ∧ ¬y as a set of conjuncts and
 * applies only equivalence-preserving steps (each keeps the conjunction's meaning, given the
 * other conjuncts):
 *
 * - ¬(P → Q) is P ∧ ¬Q, and ¬(P ∨ Q) is ¬P ∧ ¬Q;
 * - ¬(Z₁ ∧ … ∧ Zₙ) next to a conjunct Zᵢ is ¬(the rest); with nothing left it is false;
 * - P → Q next to all of P's conjuncts is Q; next to ¬Q it is ¬P; next to Q it is dropped;
 * - c next to ¬c is false.
 *
 * The conjuncts are then grouped by shared atoms: the conjunction is satisfiable exactly when
 * every group is, and a lasso of each group combine into one (see `mergeLassos`).
 */
import * as ltl from '../../src/ltl/formula.js';

/** Conjuncts sharing atoms with each other (and none with other groups). */
export interface ProductGroup {
  readonly conjuncts: readonly ltl.Formula[];
  /** Where a lasso search should start: the negated conjunctions (see `differenceProduct`). */
  readonly seeds: readonly ltl.Formula[];
}

export type DifferenceProduct =
  | { readonly empty: true }
  | {
      readonly empty: false;
      /** Groups over pairwise disjoint atoms; those with parts of ¬y first. */
      readonly groups: readonly ProductGroup[];
    };

export function differenceProduct(x: ltl.Formula, y: ltl.Formula): DifferenceProduct {
  const pos = new Set<ltl.Formula>();
  // Negated conjunctions ¬(∧Z), each as its set Z.
  const negs: Set<ltl.Formula>[] = [];
  const fromNegation = new Set<ltl.Formula>();
  let contradiction = false;

  // Asserts f (a conjunction); `negated` marks what came from ¬y, to order the groups.
  const assert = (f: ltl.Formula, negated: boolean) => {
    const work = [f];
    while (work.length > 0 && !contradiction) {
      for (const c of ltl.conjuncts(work.pop()!)) {
        if (c === ltl.FALSE) contradiction = true;
        else if (c.kind === 'not' && c.arg.kind === 'implies') work.push(c.arg.left, ltl.not(c.arg.right));
        else if (c.kind === 'not' && c.arg.kind === 'or') work.push(...c.arg.args.map(ltl.not));
        else if (c.kind === 'not' && c.arg.kind !== 'ap') {
          const z = ltl.conjuncts(c.arg);
          if (z.length === 0) contradiction = true;
          else {
            negs.push(new Set(z));
            if (negated) z.forEach((g) => fromNegation.add(g));
          }
        } else {
          pos.add(c);
          if (negated) fromNegation.add(c);
        }
      }
    }
  };
  assert(x, false);
  assert(ltl.not(y), true);

  for (let changed = true; changed && !contradiction; ) {
    changed = false;
    for (const c of pos) {
      if (contradiction) break;
      if (pos.has(ltl.not(c))) contradiction = true;
      else if (c.kind === 'implies') {
        const q = c.right;
        if (pos.has(q)) pos.delete(c);
        else if (ltl.conjuncts(c.left).every((p) => pos.has(p))) {
          pos.delete(c);
          assert(q, fromNegation.has(c));
        } else if (pos.has(ltl.not(q)) || negs.some((z) => z.size === 1 && z.has(q))) {
          pos.delete(c);
          assert(ltl.not(c.left), fromNegation.has(c));
        } else continue;
        changed = true;
      }
    }
    for (let i = 0; i < negs.length && !contradiction; i++) {
      const z = negs[i];
      let shrunk = false;
      for (const g of z)
        if (pos.has(g)) {
          z.delete(g);
          shrunk = true;
        }
      if (z.size === 0) contradiction = true;
      else if (z.size === 1 && shrunk) {
        // ¬z alone may open up further (¬(P → Q), ¬(P ∨ Q)).
        negs.splice(i--, 1);
        const [only] = z;
        assert(ltl.not(only), fromNegation.has(only));
      }
      changed ||= shrunk;
    }
  }
  if (contradiction) return { empty: true };

  // The negated conjunctions are what sets x ∧ ¬y apart (everything else also holds of x or of
  // y's context): a lasso search starts from them, or from what ¬y contributed when there are none.
  const negated = negs.map((z) => ltl.not(ltl.and(...z)));
  const items: ltl.Formula[] = [...pos, ...negated];
  const seeds = new Set(negated.length > 0 ? negated : items.filter((f) => fromNegation.has(f)));
  const groups = atomGroups(items).map((members) => ({ conjuncts: members, seeds: members.filter((m) => seeds.has(m)) }));
  groups.sort((p, q) => Number(p.seeds.length === 0) - Number(q.seeds.length === 0) || p.conjuncts.length - q.conjuncts.length);
  return { empty: false, groups };
}

/** Partition by shared atoms (union-find over atom names); atom-free formulas form one group. */
export function atomGroups(items: readonly ltl.Formula[]): ltl.Formula[][] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    while (parent.get(r) !== r) r = parent.get(r)!;
    for (let c = k; c !== r; ) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  const names = items.map((f) => [...ltl.atoms(f)]);
  for (const ns of names) {
    for (const n of ns) if (!parent.has(n)) parent.set(n, n);
    for (const n of ns.slice(1)) parent.set(find(n), find(ns[0]));
  }
  const groups = new Map<string, ltl.Formula[]>();
  items.forEach((f, i) => {
    const key = names[i].length === 0 ? '' : find(names[i][0]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(f);
  });
  return [...groups.values()];
}
