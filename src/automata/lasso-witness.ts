/**
 * Satisfying lassos of a fixed shape, found symbolically: the cheap half of a satisfiability
 * check. On a word u·v^ω with |u| = m and |v| = p there are only m + p distinct positions, and on
 * the cycle every temporal operator is a Boolean combination of its operands at the p cycle
 * positions (`F a` holds there iff `a` holds at one of them; `a U b` iff some `b` comes within one
 * period, with `a` before it); before the cycle the usual expansion laws (`F a = a ∨ X F a`, …)
 * apply. So "is there such a word satisfying f" is a BDD over m + p copies of the atoms, and a
 * satisfying assignment is the word. The answer is one-sided: a witness proves satisfiability
 * (and is checked against `evaluateOnLasso`, the direct semantics, before it is returned); no
 * witness of the shapes tried proves nothing. The work is bounded by a node count, never a clock,
 * so the answer is the same on every machine.
 */
import { BDD_FALSE, BDD_TRUE, type BddManager, type BddNode } from './bdd.js';
import { evaluateOnLasso, type Lasso } from './lasso.js';
import { atoms, type Formula } from '../ltl/formula.js';

/**
 * The lasso shapes tried, smallest first: (prefix length, cycle length). On the corpus's
 * satisfiable assumptions one letter repeated is a witness for 169 specs and a cycle of two for
 * 35 more; three positions cost a contradiction (the Felix* specs, which find none) 50–100 ms.
 */
export const WITNESS_SHAPES: ReadonlyArray<readonly [number, number]> = [
  [0, 1],
  [1, 1],
  [0, 2],
];

class NodeBudgetExceeded extends Error {}

/**
 * A lasso of one of `shapes` on which `f` holds, or undefined if there is none of those shapes or
 * the BDDs would exceed `maxNodes` nodes (counted per shape in the manager given).
 */
export function satisfyingLasso(
  f: Formula,
  manager: () => BddManager,
  options: { readonly maxNodes?: number; readonly shapes?: ReadonlyArray<readonly [number, number]> } = {},
): Lasso | undefined {
  for (const [m, p] of options.shapes ?? WITNESS_SHAPES) {
    const word = lassoOfShape(f, manager(), m, p, options.maxNodes ?? 200_000);
    if (word === null) continue;
    // The construction is a proof; the direct semantics confirms it (a bug here must not become
    // a wrong "satisfiable").
    if (evaluateOnLasso(f, word)) return word;
  }
  return undefined;
}

/** A word of shape (m, p) satisfying f, or null (none, or over the node budget). */
function lassoOfShape(f: Formula, bdd: BddManager, m: number, p: number, maxNodes: number): Lasso | null {
  const n = m + p;
  // Position i's successor: the next one, and from the last back to the cycle's start.
  const next = (i: number) => (i + 1 < n ? i + 1 : m);
  const start = bdd.nodeCount;
  const guard = () => {
    if (bdd.nodeCount - start > maxNodes) throw new NodeBudgetExceeded();
  };
  // Also inside one operation: a single conjunction can blow up (the manager polls every 256 new nodes).
  bdd.poll = guard;
  const memo = new Map<number, BddNode[]>();
  const atPositions = (make: (i: number) => BddNode) => {
    const out: BddNode[] = [];
    for (let i = 0; i < n; i++) out.push(make(i));
    guard();
    return out;
  };
  /** Least (or greatest) solution of v = now ∨ (stay ∧ X v): on the cycle by unrolling one period, then backwards through the prefix. */
  const untilLike = (now: BddNode[], stay: BddNode[], greatest: boolean): BddNode[] => {
    const out = new Array<BddNode>(n);
    for (let i = m; i < n; i++) {
      // Some `now` within one period, `stay` at every position before it; or (greatest) `stay` all round.
      let acc: BddNode = BDD_FALSE;
      let prefix: BddNode = BDD_TRUE;
      for (let k = 0; k < p; k++) {
        const j = m + ((i - m + k) % p);
        acc = bdd.or(acc, bdd.and(prefix, now[j]));
        prefix = bdd.and(prefix, stay[j]);
      }
      out[i] = greatest ? bdd.or(acc, prefix) : acc;
    }
    for (let i = m - 1; i >= 0; i--) out[i] = bdd.or(now[i], bdd.and(stay[i], out[i + 1]));
    guard();
    return out;
  };
  const ALL_TRUE = new Array<BddNode>(n).fill(BDD_TRUE);
  const ALL_FALSE = new Array<BddNode>(n).fill(BDD_FALSE);
  const values = (g: Formula): BddNode[] => {
    const hit = memo.get(g.id);
    if (hit) return hit;
    let out: BddNode[];
    switch (g.kind) {
      case 'true':
        out = ALL_TRUE;
        break;
      case 'false':
        out = ALL_FALSE;
        break;
      case 'ap':
        out = atPositions((i) => bdd.variable(letterVar(g.name, i)));
        break;
      case 'not': {
        const a = values(g.arg);
        out = atPositions((i) => bdd.not(a[i]));
        break;
      }
      case 'and':
      case 'or': {
        const as = g.args.map(values);
        const op = g.kind === 'and' ? (x: BddNode, y: BddNode) => bdd.and(x, y) : (x: BddNode, y: BddNode) => bdd.or(x, y);
        out = atPositions((i) => as.reduce((acc, a) => op(acc, a[i]), g.kind === 'and' ? BDD_TRUE : BDD_FALSE));
        break;
      }
      case 'implies':
      case 'iff':
      case 'xor': {
        const l = values(g.left);
        const r = values(g.right);
        out = atPositions((i) => {
          if (g.kind === 'implies') return bdd.or(bdd.not(l[i]), r[i]);
          const same = bdd.or(bdd.and(l[i], r[i]), bdd.and(bdd.not(l[i]), bdd.not(r[i])));
          return g.kind === 'iff' ? same : bdd.not(same);
        });
        break;
      }
      case 'X': {
        const a = values(g.arg);
        out = atPositions((i) => a[next(i)]);
        break;
      }
      case 'F':
        out = untilLike(values(g.arg), ALL_TRUE, false);
        break;
      case 'G':
        out = untilLike(ALL_FALSE, values(g.arg), true);
        break;
      // a U b = b ∨ (a ∧ X(a U b)), least; a W b the same, greatest.
      case 'U':
      case 'W':
        out = untilLike(values(g.right), values(g.left), g.kind === 'W');
        break;
      // a M b = (a ∧ b) ∨ (b ∧ X(a M b)), least; a R b the same, greatest.
      case 'M':
      case 'R': {
        const a = values(g.left);
        const b = values(g.right);
        out = untilLike(
          atPositions((i) => bdd.and(a[i], b[i])),
          b,
          g.kind === 'R',
        );
        break;
      }
    }
    memo.set(g.id, out);
    return out;
  };
  let root: BddNode;
  try {
    root = values(f)[0];
  } catch (err) {
    if (err instanceof NodeBudgetExceeded) return null;
    throw err;
  }
  const assignment = bdd.satisfyingAssignment(root);
  if (assignment === null) return null;
  const names = [...atoms(f)];
  // Atoms the assignment leaves free are false, like every atom f does not mention.
  const letter = (i: number) => new Set(names.filter((a) => assignment.get(letterVar(a, i)) === true));
  const word: Set<string>[] = [];
  for (let i = 0; i < n; i++) word.push(letter(i));
  return { prefix: word.slice(0, m), cycle: word.slice(m) };
}

/** The BDD variable for atom `a` at lasso position i (a separate manager, so no clash with real atoms). */
const letterVar = (a: string, i: number) => `${i}\u0000${a}`;
