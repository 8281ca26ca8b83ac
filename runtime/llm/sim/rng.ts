/**
 * Deterministic randomness for the simulated model: the project's PRNG (runtime/random.ts) seeded from a
 * SHA-256 of the call's inputs, so the simulation is a pure function of (seed, prompt, call seed).
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../../random.js';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A uniformly chosen element; `items` must be non-empty. */
  pick<T>(items: readonly T[]): T;
}

export function seedFrom(...parts: readonly unknown[]): number {
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  return digest.readUInt32LE(0);
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  return {
    next,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}
