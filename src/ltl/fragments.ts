/**
 * Syntactic fragment detection, so solvers can pick cheaper algorithms:
 *  - safety: in NNF, no U/F/M (violations have a finite bad prefix);
 *  - cosafety (guarantee): in NNF, no G/R/W (satisfaction has a finite good prefix);
 *  - obligation: a Boolean/X combination of safety and cosafety formulas;
 *  - gr1: the GR(1) shape (∧init ∧ G(step) ∧ ∧G F p) → (∧init ∧ G(step) ∧ ∧G F q), where init is
 *    propositional and step is propositional over the current and next letter (X depth ≤ 1).
 * All tests are syntactic: `false` means "not recognised", not "not in the class".
 */
import { children, type Formula, isPropositional } from './formula.js';
import { toNnf } from './nnf.js';

export interface FragmentInfo {
  readonly safety: boolean;
  readonly cosafety: boolean;
  readonly obligation: boolean;
  readonly gr1: boolean;
}

export function classify(f: Formula): FragmentInfo {
  const nnf = toNnf(f);
  const safety = isSyntacticSafety(nnf);
  const cosafety = isSyntacticCosafety(nnf);
  return { safety, cosafety, obligation: safety || cosafety || isObligation(nnf), gr1: isGr1(f) };
}

const LIVENESS_OPS = new Set(['U', 'F', 'M']);
const SAFETY_OPS = new Set(['G', 'R', 'W']);

function avoids(f: Formula, banned: ReadonlySet<string>, memo = new Map<number, boolean>()): boolean {
  const hit = memo.get(f.id);
  if (hit !== undefined) return hit;
  const r = !banned.has(f.kind) && children(f).every((c) => avoids(c, banned, memo));
  memo.set(f.id, r);
  return r;
}

/** NNF input expected. */
export function isSyntacticSafety(nnf: Formula): boolean {
  return avoids(nnf, LIVENESS_OPS);
}
/** NNF input expected. */
export function isSyntacticCosafety(nnf: Formula): boolean {
  return avoids(nnf, SAFETY_OPS);
}

function isObligation(nnf: Formula): boolean {
  if (isSyntacticSafety(nnf) || isSyntacticCosafety(nnf)) return true;
  switch (nnf.kind) {
    case 'and':
    case 'or':
      return nnf.args.every(isObligation);
    case 'X':
      return isObligation(nnf.arg);
    default:
      return false;
  }
}

/** Propositional, or propositional with X applied only to propositional formulas. */
function isStep(f: Formula): boolean {
  if (isPropositional(f)) return true;
  switch (f.kind) {
    case 'X':
      return isPropositional(f.arg);
    case 'not':
      return isStep(f.arg);
    case 'and':
    case 'or':
      return f.args.every(isStep);
    case 'implies':
    case 'iff':
    case 'xor':
      return isStep(f.left) && isStep(f.right);
    default:
      return false;
  }
}

function conjuncts(f: Formula): readonly Formula[] {
  return f.kind === 'and' ? f.args : [f];
}

/** One side of a GR(1) implication: initial conditions, G(step), G F p. */
function isGr1Side(f: Formula): boolean {
  return conjuncts(f).every(
    (c) =>
      isPropositional(c) ||
      (c.kind === 'G' && (isStep(c.arg) || (c.arg.kind === 'F' && isPropositional(c.arg.arg)) || isGr1Side(c.arg))),
  );
}

function isGr1(f: Formula): boolean {
  if (isGr1Side(f)) return true;
  if (f.kind === 'implies') return isGr1Side(f.left) && isGr1Rhs(f.right);
  if (f.kind === 'and') {
    // specFormula's shape: preset ∧ signal constraint ∧ (assumptions → guarantees).
    const imps = f.args.filter((c) => !isGr1Side(c));
    return imps.length <= 1 && imps.every(isGr1);
  }
  return false;
}

function isGr1Rhs(f: Formula): boolean {
  if (isGr1Side(f)) return true;
  if (f.kind === 'implies') return isGr1Side(f.left) && isGr1Side(f.right);
  if (f.kind === 'and') {
    const rest = f.args.filter((c) => !isGr1Side(c));
    return rest.length <= 1 && rest.every((c) => c.kind === 'implies' && isGr1Side(c.left) && isGr1Side(c.right));
  }
  return false;
}
