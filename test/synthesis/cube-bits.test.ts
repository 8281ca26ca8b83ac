/**
 * Packed cubes (src/synthesis/cube-bits.ts) answer "can both hold?" exactly as the cubes
 * themselves do, across word boundaries (more than 32 propositions) and for names that would be
 * special on a plain object.
 */
import { describe, expect, it } from 'vitest';
import type { Cube } from '../../src/game/mealy.js';
import { dict } from '../../runtime/dict.js';
import { mulberry32 } from '../../runtime/random.js';
import { compatibleAt, packCubes } from '../../src/synthesis/cube-bits.js';

/** The definition: no proposition both fix has different values. */
const compatible = (a: Cube, b: Cube) => Object.keys(a).every((k) => !Object.hasOwn(b, k) || a[k] === b[k]);

describe('packed cubes', () => {
  it.each([3, 31, 32, 33, 70])('agree with the cubes on random pairs over %i propositions', (props) => {
    const next = mulberry32(props);
    const names = Array.from({ length: props }, (_, i) => (i === 0 ? '__proto__' : i === 1 ? 'constructor' : `p${i}`));
    const cubes = Array.from({ length: 60 }, () => {
      const cube = dict<boolean>();
      // Sparse cubes, so that many pairs are compatible and many are not.
      for (const name of names) if (next() < 4 / props + 0.05) cube[name] = next() < 0.5;
      return cube as Cube;
    });
    const packed = packCubes(cubes);
    let both = 0;
    for (let i = 0; i < cubes.length; i++)
      for (let j = 0; j < cubes.length; j++) {
        expect(compatibleAt(packed, i, j)).toBe(compatible(cubes[i], cubes[j]));
        if (compatible(cubes[i], cubes[j])) both++;
      }
    expect(both).toBeGreaterThan(cubes.length);
    expect(both).toBeLessThan(cubes.length ** 2);
  });

  it('the empty cube is compatible with every cube', () => {
    const packed = packCubes([dict(), { a: true }, { a: false, b: true }]);
    expect([0, 1, 2].every((j) => compatibleAt(packed, 0, j))).toBe(true);
    expect(compatibleAt(packed, 1, 2)).toBe(false);
  });
});
