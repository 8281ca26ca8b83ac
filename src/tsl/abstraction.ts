/**
 * The TSL → LTL abstraction (as in tsltools' tsl2tlsf): every distinct predicate check becomes
 * an input proposition, every distinct update an output proposition; each updated signal also
 * gets its self-update `[x <- x]`, and exactly one update per signal holds at each step. The
 * signal groups are kept in the GameSpec so solvers can exploit the exactly-one structure.
 */
import type { SignalData } from '../../runtime/table.js';
import type { GameSpec, PropositionInfo, SignalGroup, SpecPart } from '../game/spec.js';
import * as ltl from '../ltl/formula.js';
import type { CheckedTsl, CoreFormula } from './check.js';
import {
  type Check,
  checkText,
  NameAllocator,
  readableCheckName,
  readableUpdateName,
  termData,
  tsltoolsCheckName,
  tsltoolsUpdateName,
  type Update,
  updateText,
} from './terms.js';

export type NamingScheme = 'readable' | 'tsltools';

export function abstractTsl(checked: CheckedTsl, name: string, naming: NamingScheme = 'readable'): GameSpec {
  const allocator = new NameAllocator();
  const inputByKey = new Map<string, PropositionInfo>();
  const outputByKey = new Map<string, PropositionInfo>();
  const updatesBySignal = new Map<string, string[]>(checked.updatedSignals.map((s) => [s, []]));
  const selfUpdateOf = new Map<string, string>();

  const inputFor = (check: Check): string => {
    const key = tsltoolsCheckName(check, checked.booleanSignals);
    let info = inputByKey.get(key);
    if (!info) {
      const propName = naming === 'tsltools' ? key : allocator.claim(readableCheckName(check));
      info =
        check.kind === 'signal'
          ? { name: propName, term: checkText(check), booleanSignal: check.name }
          : { name: propName, term: checkText(check), predicate: { fn: check.fn, args: check.args.map(termData) } };
      inputByKey.set(key, info);
    }
    return info.name;
  };
  const outputFor = (update: Update): string => {
    const key = tsltoolsUpdateName(update, checked.booleanSignals);
    let info = outputByKey.get(key);
    if (!info) {
      const propName = naming === 'tsltools' ? key : allocator.claim(readableUpdateName(update));
      const isSelfUpdate = update.term.kind === 'signal' && update.term.name === update.signal;
      info = {
        name: propName,
        term: updateText(update),
        update: { signal: update.signal, term: termData(update.term), isSelfUpdate },
      };
      outputByKey.set(key, info);
      updatesBySignal.get(update.signal)?.push(propName);
      if (isSelfUpdate) selfUpdateOf.set(update.signal, propName);
    }
    return info.name;
  };

  const translate = (f: CoreFormula): ltl.Formula => {
    switch (f.kind) {
      case 'bool':
        return f.value ? ltl.TRUE : ltl.FALSE;
      case 'check':
        return ltl.ap(inputFor(f.check));
      case 'update':
        return ltl.ap(outputFor(f.update));
      case 'unary':
        return f.op === '!' ? ltl.not(translate(f.arg)) : ltl[f.op](translate(f.arg));
      case 'binary': {
        const l = translate(f.left);
        const r = translate(f.right);
        switch (f.op) {
          case '&&':
            return ltl.and(l, r);
          case '||':
            return ltl.or(l, r);
          case '->':
            return ltl.implies(l, r);
          case '<->':
            return ltl.iff(l, r);
          default:
            return ltl[f.op](l, r);
        }
      }
    }
  };

  const assumptions: SpecPart[] = [];
  const guarantees: SpecPart[] = [];
  for (const part of checked.formulas) {
    const body = translate(part.formula);
    const formula = part.always ? ltl.G(body) : body;
    (part.kind === 'assume' ? assumptions : guarantees).push({ formula, span: part.span, text: part.text });
  }
  // Self-updates last, so explicit updates keep their readable names when they collide.
  for (const signal of checked.updatedSignals) {
    outputFor({ signal, term: { kind: 'signal', name: signal, loc: { line: 0, col: 0, offset: 0, endOffset: 0 } } });
  }

  const signals: SignalGroup[] = checked.updatedSignals.map((signal) => ({
    signal,
    updates: updatesBySignal.get(signal) ?? [],
    selfUpdate: selfUpdateOf.get(signal),
  }));
  const outputByName = new Map([...outputByKey.values()].map((o) => [o.name, o]));
  const { inputs, cells, outputs } = checked.symbols;
  const tslSignals: SignalData[] = [
    ...inputs.map((n) => ({ name: n, role: 'input' as const })),
    ...cells.map((n) => ({ name: n, role: 'cell' as const })),
    ...outputs.map((n) => ({ name: n, role: 'output' as const })),
  ];
  return {
    name,
    file: checked.file,
    semantics: 'mealy',
    inputs: [...inputByKey.values()],
    outputs: signals.flatMap((g) => g.updates.map((u) => outputByName.get(u)!)),
    signals,
    initially: [],
    preset: [],
    assumptions,
    guarantees,
    tslSignals,
  };
}
