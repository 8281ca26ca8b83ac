/**
 * `#UF`: equality with uninterpreted functions and predicates, decided by congruence closure.
 *
 * A conjunction of literals is satisfiable iff, after merging the two sides of every positive
 * `eq` and closing under congruence (equal arguments give equal results, for functions and
 * predicates alike), no negative `eq` joins two merged terms, no predicate application is merged
 * with both true and false, and no two distinct literal values (`3`, `4`, `true`) are merged. The
 * last rule is what the runtime gives: literals are values, and distinct values are never `===`.
 * Complete for conjunctions of ground literals (Nelson–Oppen, Downey–Sethi–Tarjan); the inputs
 * here have tens of terms, so a simple fixpoint replaces the signature table.
 */
import { type TAtom, type TLiteral, type TTerm, termKey } from './terms.js';

const TRUE_KEY = '#true';
const FALSE_KEY = '#false';

export function ufUnsat(literals: readonly TLiteral[]): boolean {
  const parent = new Map<string, string>();
  const apps = new Map<string, { fn: string; args: string[] }>();
  const literalKeys = new Set<string>([TRUE_KEY, FALSE_KEY]);
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let y = x;
    while (y !== r) {
      const next = parent.get(y)!;
      parent.set(y, r);
      y = next;
    }
    return r;
  };
  const union = (a: string, b: string): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  const add = (t: TTerm): string => {
    const key = termKey(t);
    if (parent.has(key)) return key;
    parent.set(key, key);
    if (t.kind === 'lit') literalKeys.add(key);
    if (t.kind === 'app') apps.set(key, { fn: t.fn, args: t.args.map(add) });
    return key;
  };
  parent.set(TRUE_KEY, TRUE_KEY);
  parent.set(FALSE_KEY, FALSE_KEY);
  /** A predicate application is a term of the boolean sort: `p(x)` = true or false. */
  const predicateTerm = (a: TAtom): string => add({ kind: 'app', fn: `?${a.fn}`, args: a.args });

  const disequal: Array<[string, string]> = [];
  for (const { atom, positive } of literals) {
    if (atom.fn === 'eq' && atom.args.length === 2) {
      const l = add(atom.args[0]);
      const r = add(atom.args[1]);
      if (positive) union(l, r);
      else disequal.push([l, r]);
    } else {
      union(predicateTerm(atom), positive ? TRUE_KEY : FALSE_KEY);
    }
  }
  // Congruence closure: merge applications of one symbol whose arguments are merged, to a fixpoint.
  for (let changed = true; changed; ) {
    changed = false;
    const bySignature = new Map<string, string>();
    for (const [key, app] of apps) {
      const signature = `${app.fn}(${app.args.map(find).join(',')})`;
      const other = bySignature.get(signature);
      if (other === undefined) bySignature.set(signature, key);
      else if (find(other) !== find(key)) {
        union(other, key);
        changed = true;
      }
    }
  }
  for (const [l, r] of disequal) if (find(l) === find(r)) return true;
  const literalRoots = new Map<string, string>();
  for (const key of literalKeys) {
    const root = find(key);
    const seen = literalRoots.get(root);
    if (seen !== undefined && seen !== key) return true;
    literalRoots.set(root, key);
  }
  return false;
}
