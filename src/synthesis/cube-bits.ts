/**
 * Cubes (partial assignments keyed by proposition name) packed into bit words, for tests of
 * whether two cubes can hold at once that run millions of times: exact minimization compares
 * every move of every state with every move of every other state (Coffee_d6376bf9: 700 moves,
 * 800,000 comparisons per candidate controller), and building a merged record per comparison
 * took most of a `tslc check`'s time there.
 *
 * Each cube becomes, per word of 32 propositions, a care mask (the propositions it fixes) and a
 * value mask (those it fixes true). Two cubes are compatible iff no proposition both fix has
 * different values: `(careA & careB & (valueA ^ valueB)) === 0` in every word.
 */
import type { Cube } from '../game/mealy.js';

export interface PackedCubes {
  /** Words per cube. */
  readonly words: number;
  /** Cube i's care mask is `care[i * words … (i + 1) * words)`, its value mask likewise. */
  readonly care: Int32Array;
  readonly value: Int32Array;
}

/** The cubes packed over one shared numbering of the propositions they mention. */
export function packCubes(cubes: readonly Cube[]): PackedCubes {
  const index = new Map<string, number>();
  for (const cube of cubes) for (const name in cube) if (!index.has(name)) index.set(name, index.size);
  const words = Math.max(1, Math.ceil(index.size / 32));
  const care = new Int32Array(cubes.length * words);
  const value = new Int32Array(cubes.length * words);
  cubes.forEach((cube, i) => {
    for (const name in cube) {
      const bit = index.get(name)!;
      const at = i * words + (bit >>> 5);
      care[at] |= 1 << (bit & 31);
      if (cube[name]) value[at] |= 1 << (bit & 31);
    }
  });
  return { words, care, value };
}

/** Whether packed cubes i and j (of the same `packCubes` call) can both hold. */
export function compatibleAt(p: PackedCubes, i: number, j: number): boolean {
  const { words, care, value } = p;
  for (let w = 0, a = i * words, b = j * words; w < words; w++, a++, b++) if ((care[a] & care[b] & (value[a] ^ value[b])) !== 0) return false;
  return true;
}
