/**
 * Deterministic randomness for the simulated model: a small PRNG (mulberry32) seeded from a
 * SHA-256 of the call's inputs, so the simulation is a pure function of (seed, prompt, call seed).
 */
import { createHash } from 'node:crypto';

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
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
  };
}
