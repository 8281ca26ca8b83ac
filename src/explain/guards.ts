/**
 * Guard simplification for diagrams: a set of input cubes (the union of parallel edges) rewritten
 * as a short sum of products. Exact (Quine–McCluskey primes + greedy cover) for up to 10 inputs
 * that the cubes actually mention; beyond that, only cubes differing in one literal are merged.
 */
import type { Cube } from '../game/mealy.js';
import { dict, mergeDicts, own } from '../../runtime/dict.js';

const EXACT_LIMIT = 10;

export function simplifyGuard(cubes: readonly Cube[]): Cube[] {
  if (cubes.length === 0) return [];
  if (cubes.some((c) => Object.keys(c).length === 0)) return [dict()];
  const vars = [...new Set(cubes.flatMap((c) => Object.keys(c)))].sort();
  if (vars.length > EXACT_LIMIT) return mergeAdjacent(cubes.map((c) => mergeDicts(c)));
  // Minterms as bit masks over `vars`.
  const minterms = new Set<number>();
  for (const c of cubes) {
    const free = vars.map((v, i) => (Object.hasOwn(c, v) ? -1 : i)).filter((i) => i >= 0);
    let base = 0;
    vars.forEach((v, i) => {
      if (own(c, v) === true) base |= 1 << i;
    });
    for (let k = 0; k < 1 << free.length; k++) {
      let m = base;
      free.forEach((bit, j) => {
        if (k & (1 << j)) m |= 1 << bit;
      });
      minterms.add(m);
    }
  }
  if (minterms.size === 1 << vars.length) return [dict()];
  // Implicants as (value, mask-of-cared-bits); combine pairs differing in one cared bit.
  const full = (1 << vars.length) - 1;
  let level = new Map<string, { value: number; care: number }>();
  for (const m of minterms) level.set(`${m}/${full}`, { value: m, care: full });
  const primes: { value: number; care: number }[] = [];
  while (level.size > 0) {
    const next = new Map<string, { value: number; care: number }>();
    const used = new Set<string>();
    const items = [...level.entries()];
    for (let i = 0; i < items.length; i++)
      for (let j = i + 1; j < items.length; j++) {
        const [ka, a] = items[i];
        const [kb, b] = items[j];
        if (a.care !== b.care) continue;
        const diff = a.value ^ b.value;
        if (diff === 0 || (diff & (diff - 1)) !== 0) continue;
        const care = a.care & ~diff;
        const value = a.value & care;
        next.set(`${value}/${care}`, { value, care });
        used.add(ka);
        used.add(kb);
      }
    for (const [k, imp] of items) if (!used.has(k)) primes.push(imp);
    level = next;
  }
  // Greedy cover: the prime covering most uncovered minterms first.
  const uncovered = new Set(minterms);
  const chosen: { value: number; care: number }[] = [];
  while (uncovered.size > 0) {
    let best = primes[0];
    let bestCount = -1;
    for (const p of primes) {
      let count = 0;
      for (const m of uncovered) if ((m & p.care) === p.value) count++;
      if (count > bestCount || (count === bestCount && popcount(p.care) < popcount(best.care))) {
        best = p;
        bestCount = count;
      }
    }
    chosen.push(best);
    for (const m of [...uncovered]) if ((m & best.care) === best.value) uncovered.delete(m);
  }
  return chosen.map((p) => {
    const cube = dict<boolean>();
    vars.forEach((v, i) => {
      if (p.care & (1 << i)) cube[v] = (p.value & (1 << i)) !== 0;
    });
    return cube;
  });
}

function popcount(n: number): number {
  let c = 0;
  while (n) {
    n &= n - 1;
    c++;
  }
  return c;
}

function mergeAdjacent(cubes: Record<string, boolean>[]): Cube[] {
  let merged = true;
  while (merged) {
    merged = false;
    outer: for (let i = 0; i < cubes.length; i++)
      for (let j = i + 1; j < cubes.length; j++) {
        const a = cubes[i];
        const b = cubes[j];
        const ka = Object.keys(a);
        if (ka.length !== Object.keys(b).length) continue;
        const differing = ka.filter((k) => !Object.hasOwn(b, k) || a[k] !== b[k]);
        if (differing.length !== 1 || !Object.hasOwn(b, differing[0])) continue;
        const rest = mergeDicts(a);
        delete rest[differing[0]];
        cubes.splice(j, 1);
        cubes[i] = rest;
        merged = true;
        break outer;
      }
  }
  return cubes;
}
