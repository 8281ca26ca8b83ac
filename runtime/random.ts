/**
 * One seeded pseudo-random generator for the whole project (the simulated LLM, benchmarks,
 * generated example logs, property tests): mulberry32 — tiny, fast and reproducible from a
 * 32-bit seed, so a failing run can be replayed. Not for anything security-related.
 */

/** A generator of uniform numbers in [0, 1), fully determined by `seed`. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
