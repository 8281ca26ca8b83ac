/**
 * The fuzzer's source of randomness: one seeded mulberry32 stream (runtime/random.ts) with the
 * few choices every generator needs. Everything a campaign produces follows from its seed, so a
 * failing input can be regenerated from the seed and its index alone.
 */
import { mulberry32 } from '../../runtime/random.js';

export class Rand {
  readonly #next: () => number;
  /**
   * The largest size `size()` returns: the seeded sample in `npm test` caps nesting depths, chain
   * lengths and token sizes (20,000) to stay within its time; a large run has no cap.
   */
  readonly cap: number;
  constructor(seed: number, cap = Number.POSITIVE_INFINITY) {
    this.#next = mulberry32(seed);
    this.cap = cap;
  }
  /** One of `sizes`, at most `cap`. */
  size(sizes: readonly number[]): number {
    return Math.min(this.pick(sizes), this.cap);
  }
  /** Uniform in [0, 1). */
  float(): number {
    return this.#next();
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.#next() * n);
  }
  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.#next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(options: readonly (readonly [number, T])[]): T {
    const total = options.reduce((s, [w]) => s + w, 0);
    let x = this.#next() * total;
    for (const [w, v] of options) {
      x -= w;
      if (x < 0) return v;
    }
    return options[options.length - 1][1];
  }
  /** A size that is usually small and sometimes huge: 1…max on a log scale. */
  logSize(max: number): number {
    return Math.max(1, Math.floor(Math.exp(this.#next() * Math.log(max))));
  }
  /** A fresh seed for a sub-generator. */
  seed(): number {
    return this.int(2 ** 32);
  }
}
