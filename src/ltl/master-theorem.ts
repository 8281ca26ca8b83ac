/**
 * The Master Theorem of Esparza, Křetínský and Sickert ("One Theorem to Rule Them All", LICS
 * 2018): the language of an LTL formula as a positive Boolean combination of languages with
 * simple deterministic automata. This file owns the purely logical part — the two rewritings
 * and the choice of guesses; src/synthesis/components.ts builds the automata.
 *
 * For a formula φ in negation normal form, μ(φ) are its subformulas with a least-fixpoint
 * operator (F, U, M) and ν(φ) those with a greatest-fixpoint one (G, W, R). A word w satisfies φ
 * iff for some X ⊆ μ(φ) and Y ⊆ ν(φ):
 *
 * 1. for some i, the suffix wᵢ satisfies `af(φ, w₀…wᵢ₋₁)[X]ν` (af: formula progression);
 * 2. for every ψ ∈ X, w satisfies `G F (ψ[Y]μ)`;
 * 3. for every ψ ∈ Y, w satisfies `F G (ψ[X]ν)`.
 *
 * `ψ[X]ν` guesses that the μ-subformulas in X hold infinitely often and the others finitely
 * often: each μ-subformula outside X becomes `false`, `F χ ∈ X` becomes `true`, `a U b ∈ X`
 * becomes `a W b` and `a M b ∈ X` becomes `a R b` — a safety formula. `ψ[Y]μ` guesses that the
 * ν-subformulas in Y hold from some point on: those in Y become `true`, `G χ ∉ Y` becomes
 * `false`, `a W b ∉ Y` becomes `a U b` and `a R b ∉ Y` becomes `a M b` — a co-safety formula.
 * So (2) is a `G c` with c co-safety and (3) an `F s` with s safety, both already components of
 * the parity route, and (1) is a co-Büchi condition on the progression of φ (the restart
 * component in components.ts).
 *
 * Only Y's members inside some ψ ∈ X change (2), and any member changes (3) only by adding a
 * requirement, so Y ranges over the ν-subformulas of X's members: the disjunction is the same.
 */
import { children, F, type Formula, FALSE, M, R, TRUE, U, W, X, and, or, G } from './formula.js';

/** One disjunct of the theorem: X's restart condition (1) and the alternatives for Y. */
export interface MasterGuess {
  /** X ⊆ μ(φ), as formulas of φ (identity by the interned formula). */
  readonly mu: readonly Formula[];
  /** For each Y: what (2) and (3) require, as `G F c` and `F G s` arguments; never `true`/`false`. */
  readonly alternatives: readonly MasterAlternative[];
}

export interface MasterAlternative {
  /** Co-safety formulas c, each required infinitely often (`G F c`). */
  readonly recurrent: readonly Formula[];
  /** Safety formulas s, each required from some point on (`F G s`). */
  readonly persistent: readonly Formula[];
}

export interface MasterLimits {
  /** At most this many μ-subformulas (2^n guesses for X). */
  readonly maxMu: number;
  /** At most this many (X, Y) pairs in all. */
  readonly maxPairs: number;
}

const MU_KINDS = new Set(['F', 'U', 'M']);
const NU_KINDS = new Set(['G', 'W', 'R']);

/** The subformulas of an NNF formula whose operator is in `kinds`, each once, outermost first. */
function subformulasOfKind(f: Formula, kinds: ReadonlySet<string>, proper = false): Formula[] {
  const seen = new Set<number>();
  const out: Formula[] = [];
  const visit = (g: Formula, top: boolean): void => {
    if (seen.has(g.id)) return;
    seen.add(g.id);
    if (!(top && proper) && kinds.has(g.kind)) out.push(g);
    for (const c of children(g)) visit(c, false);
  };
  visit(f, true);
  return out;
}

export const muSubformulas = (f: Formula): Formula[] => subformulasOfKind(f, MU_KINDS);
export const nuSubformulas = (f: Formula): Formula[] => subformulasOfKind(f, NU_KINDS);

/** `f[X]ν`: a safety formula (NNF in, NNF out). `inX`: the ids of X's members. */
export function nuRewrite(f: Formula, inX: ReadonlySet<number>, memo = new Map<number, Formula>()): Formula {
  return rewriteGuess(f, 'mu', inX, memo);
}

/** `f[Y]μ`: a co-safety formula (NNF in, NNF out). `inY`: the ids of Y's members. */
export function muRewrite(f: Formula, inY: ReadonlySet<number>, memo = new Map<number, Formula>()): Formula {
  return rewriteGuess(f, 'nu', inY, memo);
}

/**
 * The two rewritings are dual: the guessed family's operators (μ for `[X]ν`, ν for `[Y]μ`) are
 * replaced — a member by its weak form (`true` for `F`/`G`), any other by `false` or its strong
 * form — and everything else is kept.
 */
function rewriteGuess(f: Formula, guessed: 'mu' | 'nu', members: ReadonlySet<number>, memo: Map<number, Formula>): Formula {
  const hit = memo.get(f.id);
  if (hit !== undefined) return hit;
  const rec = (g: Formula) => rewriteGuess(g, guessed, members, memo);
  const inGuess = members.has(f.id);
  const mu = guessed === 'mu';
  let r: Formula;
  switch (f.kind) {
    case 'true':
    case 'false':
    case 'ap':
    case 'not':
      r = f;
      break;
    case 'and':
      r = and(...f.args.map(rec));
      break;
    case 'or':
      r = or(...f.args.map(rec));
      break;
    case 'X':
      r = X(rec(f.arg));
      break;
    case 'F':
      r = !mu ? F(rec(f.arg)) : inGuess ? TRUE : FALSE;
      break;
    case 'U':
      r = !mu ? U(rec(f.left), rec(f.right)) : inGuess ? W(rec(f.left), rec(f.right)) : FALSE;
      break;
    case 'M':
      r = !mu ? M(rec(f.left), rec(f.right)) : inGuess ? R(rec(f.left), rec(f.right)) : FALSE;
      break;
    case 'G':
      r = mu ? G(rec(f.arg)) : inGuess ? TRUE : FALSE;
      break;
    case 'W':
      r = mu ? W(rec(f.left), rec(f.right)) : inGuess ? TRUE : U(rec(f.left), rec(f.right));
      break;
    case 'R':
      r = mu ? R(rec(f.left), rec(f.right)) : inGuess ? TRUE : M(rec(f.left), rec(f.right));
      break;
    default:
      throw new Error(`master theorem: formula not in negation normal form (${f.kind})`);
  }
  memo.set(f.id, r);
  return r;
}

/** Every subset of `xs` (as arrays, in a fixed order). */
function subsets<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 0; mask < 1 << xs.length; mask++) out.push(xs.filter((_, i) => (mask >> i) & 1));
  return out;
}

/**
 * The theorem's disjuncts for an NNF formula, or undefined past the limits. An alternative whose
 * requirements include `false` is dropped, a `true` requirement left out; a guess with no
 * alternative left is dropped.
 */
export function masterGuesses(f: Formula, limits: MasterLimits): MasterGuess[] | undefined {
  const mu = muSubformulas(f);
  if (mu.length > limits.maxMu) return undefined;
  const guesses: MasterGuess[] = [];
  let pairs = 0;
  for (const xs of subsets(mu)) {
    const inX = new Set(xs.map((g) => g.id));
    const nuMemo = new Map<number, Formula>();
    // Y ranges over the ν-subformulas of X's members (see the file comment).
    const yCandidates = [...new Map(xs.flatMap((g) => nuSubformulas(g)).map((g) => [g.id, g] as const)).values()];
    pairs += 1 << yCandidates.length;
    if (yCandidates.length > 16 || pairs > limits.maxPairs) return undefined;
    const alternatives: MasterAlternative[] = [];
    for (const ys of subsets(yCandidates)) {
      const inY = new Set(ys.map((g) => g.id));
      const muMemo = new Map<number, Formula>();
      const recurrent = xs.map((g) => muRewrite(g, inY, muMemo));
      const persistent = ys.map((g) => nuRewrite(g, inX, nuMemo));
      if (recurrent.includes(FALSE) || persistent.includes(FALSE)) continue;
      alternatives.push({ recurrent: recurrent.filter((c) => c !== TRUE), persistent: persistent.filter((s) => s !== TRUE) });
    }
    if (alternatives.length > 0) guesses.push({ mu: xs, alternatives });
  }
  return guesses;
}
