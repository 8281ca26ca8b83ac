/**
 * Safety or liveness: how an audit rule can be broken, so the report counts the two apart.
 *
 * - `safety`: every violation shows at a step of the log (a bad prefix: "the cave before the
 *   market"). Recognised syntactically first: in negation normal form the formula uses no `F`,
 *   `U` or `M` (only `G`, `W`, `R`, `X` and Boolean connectives), which guarantees a safety
 *   property. Outside that fragment decided exactly on automata (src/automata/safety-closure.ts):
 *   Dwyer's "no q before p", `F p -> (!q U p)`, is safety too.
 * - `liveness`: no finite log violates it by a step; only the end of a run (LTLf) can, when an
 *   obligation was never met ("visits the town"). Decided exactly with the LTL3 monitor automaton:
 *   no prefix reaches the violated verdict.
 * - `other`: neither — typically a safety part and an eventuality together
 *   (`(!cut W takeKnife) & G (takeKnife -> F cut)`), or too large to decide (over 12 propositions,
 *   or automata too large).
 * A property that is both (only the always-true one) is reported as `safety` when the syntax shows
 * it, else as `liveness`. Both classes are checked against Spot's `ltlfilt --safety` and
 * `--liveness` (test/conformance/monitor-spot.test.ts).
 */
import type { LtlNode } from '../../runtime/ltl/syntax.js';

export type PropertyKind = 'safety' | 'liveness' | 'other';

/** In the syntactic safety fragment: after pushing negations inwards, no F, U or M. */
export function syntacticSafety(formula: LtlNode): boolean {
  // Iterative (rule formulas may nest deeply): (node, polarity) pairs; polarity false = under a
  // negation. Each pair is visited once: `<->` and `xor` put both polarities of both sides on the
  // stack, so a chain of n of them would otherwise be walked 2^n times.
  const stack: [LtlNode, boolean][] = [[formula, true]];
  const seen = new Map<LtlNode, number>();
  while (stack.length > 0) {
    const [n, pos] = stack.pop()!;
    const bit = pos ? 1 : 2;
    const mask = seen.get(n) ?? 0;
    if (mask & bit) continue;
    seen.set(n, mask | bit);
    switch (n.op) {
      case 'true':
      case 'false':
      case 'ap':
        break;
      case '!':
        stack.push([n.arg, !pos]);
        break;
      case 'X':
        stack.push([n.arg, pos]);
        break;
      // G is safe in positive position (under a negation it is F), F the other way round.
      case 'G':
        if (!pos) return false;
        stack.push([n.arg, pos]);
        break;
      case 'F':
        if (pos) return false;
        stack.push([n.arg, pos]);
        break;
      case '&':
      case '|':
        for (const a of n.args) stack.push([a, pos]);
        break;
      case '->':
        stack.push([n.left, !pos], [n.right, pos]);
        break;
      case '<->':
      case 'xor':
        // Both sides occur in both polarities.
        stack.push([n.left, true], [n.left, false], [n.right, true], [n.right, false]);
        break;
      // a W b and a R b are safe; their negations (!a U !b, !a M !b) are not. U and M the reverse.
      case 'W':
      case 'R':
        if (!pos) return false;
        stack.push([n.left, pos], [n.right, pos]);
        break;
      case 'U':
      case 'M':
        if (pos) return false;
        stack.push([n.left, pos], [n.right, pos]);
        break;
    }
  }
  return true;
}

/**
 * The kind of each formula. Automata are built (by the compiler's translation, loaded on first
 * need) only for formulas outside the syntactic safety fragment.
 */
export async function propertyKinds(formulas: readonly LtlNode[]): Promise<PropertyKind[]> {
  const kinds: (PropertyKind | undefined)[] = formulas.map((f) => (syntacticSafety(f) ? 'safety' : undefined));
  if (kinds.every((k) => k !== undefined)) return kinds as PropertyKind[];
  const [{ translateProperty }, { AutomatonMonitor }, { isSafetyLanguage }] = await Promise.all([
    import('./automaton.js'),
    import('../../runtime/monitor/automaton.js'),
    import('../automata/safety-closure.js'),
  ]);
  return formulas.map((f, i) => {
    const known = kinds[i];
    if (known) return known;
    // One translation of φ and ¬φ serves both tests: liveness on the monitor, safety on the automata.
    const { monitor, positive, negative } = translateProperty(f);
    if (new AutomatonMonitor(monitor).violable() === false) return 'liveness';
    return isSafetyLanguage(positive, negative) === true ? 'safety' : 'other';
  });
}
