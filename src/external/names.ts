/**
 * Safe proposition names for external tools. Spec propositions may be spelled anything (TSL
 * updates such as `[cell <- f x]`); ltlsynt's --ins/--outs are comma-separated and Strix's parser
 * is stricter than Spot's, so every proposition is renamed to `i<k>` / `o<k>` and mapped back
 * when the tool's HOA output is read. A name from the spec never reaches a command line.
 */
import { type Formula, ap, mapFormula } from '../ltl/formula.js';

export interface Renaming {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly toSafe: ReadonlyMap<string, string>;
  readonly fromSafe: ReadonlyMap<string, string>;
}

export function makeRenaming(inputs: readonly string[], outputs: readonly string[]): Renaming {
  const toSafe = new Map<string, string>();
  const fromSafe = new Map<string, string>();
  inputs.forEach((name, k) => {
    toSafe.set(name, `i${k}`);
    fromSafe.set(`i${k}`, name);
  });
  outputs.forEach((name, k) => {
    toSafe.set(name, `o${k}`);
    fromSafe.set(`o${k}`, name);
  });
  return { inputs: inputs.map((n) => toSafe.get(n)!), outputs: outputs.map((n) => toSafe.get(n)!), toSafe, fromSafe };
}

/** Rename every atom; an atom that is neither input nor output is an error in the spec. */
export function renameFormula(f: Formula, renaming: Renaming): Formula {
  return mapFormula(f, (node, rebuilt) => {
    if (node.kind !== 'ap') return rebuilt;
    const safe = renaming.toSafe.get(node.name);
    if (safe === undefined) throw new Error(`proposition '${node.name}' is neither an input nor an output of the spec`);
    return ap(safe);
  });
}
