/**
 * What a theory header forbids in a spec: `#LIA` is linear integer arithmetic, so division,
 * the product of two non-constant terms and numbers that are not (safe) integers are errors at
 * the term that uses them — the solver could not reason about them and the runtime could not
 * keep their values integers. `#UF` reads every function as uninterpreted and forbids nothing.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { TheoryName } from '../game/spec.js';
import type { CheckedTsl, CoreFormula } from './check.js';
import { spanOf } from './check.js';
import type { CoreTerm } from './terms.js';

export function theoryErrors(checked: CheckedTsl, theory: TheoryName, header: string): Diagnostic[] {
  if (theory !== 'LIA') return [];
  const errors: Diagnostic[] = [];
  const seen = new Set<number>();
  const report = (t: CoreTerm, message: string): void => {
    if (seen.has(t.loc.offset)) return;
    seen.add(t.loc.offset);
    errors.push({ severity: 'error', message, span: spanOf(checked.file, t.loc), code: 'theory' });
  };
  const constant = (t: CoreTerm): boolean =>
    t.kind === 'number' || (t.kind === 'call' && ['add', 'sub', 'mul'].includes(t.fn) && t.args.every(constant));
  const term = (t: CoreTerm): void => {
    if (t.kind === 'number') {
      if (!/^-?\d+$/.test(t.text)) report(t, `${header} is integer arithmetic: ${t.text} is not an integer`);
      else if (!Number.isSafeInteger(Number(t.text))) report(t, `${header}: ${t.text} is too large (integers up to ±${Number.MAX_SAFE_INTEGER})`);
      return;
    }
    if (t.kind !== 'call') return;
    if (t.fn === 'div') report(t, `${header} has no division: write a function of your own (e.g. half(x)) or compare multiples`);
    else if (t.fn === 'mul' && t.args.length === 2 && !constant(t.args[0]) && !constant(t.args[1]))
      report(t, `${header} is linear: one side of "*" must be a constant`);
    t.args.forEach(term);
  };
  const formula = (f: CoreFormula): void => {
    switch (f.kind) {
      case 'check':
        if (f.check.kind === 'predicate') f.check.args.forEach(term);
        return;
      case 'update':
        term(f.update.term);
        return;
      case 'unary':
        return formula(f.arg);
      case 'binary':
        formula(f.left);
        formula(f.right);
        return;
      case 'bool':
        return;
    }
  };
  for (const part of checked.formulas) formula(part.formula);
  return errors;
}
