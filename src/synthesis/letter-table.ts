/**
 * Letters as numbers, for games with few propositions: a letter is a valuation of BDD variables
 * 0 … width − 1 read as a binary number (variable 0 the most significant bit), a set of letters a
 * sorted list of them. Splitting a set of letters by a handful of disjoint guards is then one
 * table lookup per letter, where on BDD guards it is a conjunction per class and guard: the
 * parity route's positions of full_arbiter_enc (7 propositions, 17 components) made 4.4 million
 * conjunctions that way. Sets go back to BDDs once, at the end (`guardOf`).
 */
import type { BddManager, BddNode } from '../automata/bdd.js';

export class LetterTable {
  private readonly lettersMemo = new Map<BddNode, readonly number[]>();

  constructor(
    private readonly bdd: BddManager,
    /** Number of letter variables (the first `width` of the manager). */
    readonly width: number,
  ) {}

  /** The letters inside a guard over the letter variables, ascending. */
  lettersOf(guard: BddNode): readonly number[] {
    let letters = this.lettersMemo.get(guard);
    if (letters === undefined) {
      const found = this.bdd.mintermsOf(guard, this.width);
      if (found === undefined) throw new Error('LetterTable: a guard over more than the letter variables');
      this.lettersMemo.set(guard, (letters = found));
    }
    return letters;
  }

  /** For disjoint guards: which guard (index) holds each letter, −1 where none does. */
  indexOf(guards: readonly BddNode[]): Int32Array {
    const table = new Int32Array(2 ** this.width).fill(-1);
    for (let j = 0; j < guards.length; j++) for (const letter of this.lettersOf(guards[j])) table[letter] = j;
    return table;
  }

  /** The guard of a set of letters (any order; duplicates are not allowed). */
  guardOf(letters: readonly number[]): BddNode {
    let ascending = true;
    for (let i = 1; i < letters.length && ascending; i++) ascending = letters[i - 1] < letters[i];
    return this.bdd.fromMinterms(ascending ? letters : [...letters].sort((a, b) => a - b), this.width);
  }
}
