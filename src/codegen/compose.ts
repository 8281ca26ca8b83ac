/**
 * Composing several TSL games into one controller (`tslc compile a.tsl b.tsl --as both`).
 *
 * Composition merges the specs section by section, as the TSL papers compose `adventure.tsl` with
 * `forest.tsl`: the assumptions of all specs together must imply the guarantees of all specs
 * together. Propositions with the same name denote the same predicate or update (the front end
 * names them after their terms), and a signal's updates are the union of every spec's updates.
 */
import type { SignalData } from '../../runtime/table.js';
import { error, UserError } from '../diagnostics/diagnostic.js';
import type { GameSpec, PropositionInfo, SignalGroup, TheoryName } from '../game/spec.js';
import { withTheory } from '../theory/index.js';

export function composeGames(name: string, specs: readonly GameSpec[]): GameSpec {
  if (specs.length === 1) return { ...specs[0], name };
  const semantics = specs[0].semantics;
  for (const s of specs)
    if (s.semantics !== semantics) throw new UserError(error(`cannot compose ${s.name} (${s.semantics}) with ${specs[0].name} (${semantics})`, undefined, 'compose'));

  const unionByName = (lists: readonly (readonly PropositionInfo[])[]): PropositionInfo[] => {
    const byName = new Map<string, PropositionInfo>();
    for (const list of lists) for (const p of list) if (!byName.has(p.name)) byName.set(p.name, p);
    return [...byName.values()];
  };
  const inputs = unionByName(specs.map((s) => s.inputs));
  const outputs = unionByName(specs.map((s) => s.outputs));
  const inputNames = new Set(inputs.map((p) => p.name));
  for (const o of outputs)
    if (inputNames.has(o.name)) throw new UserError(error(`${o.name} is an input in one spec and an output in another`, undefined, 'compose'));

  const groups = new Map<string, { updates: string[]; selfUpdate?: string }>();
  for (const s of specs)
    for (const g of s.signals) {
      const merged = groups.get(g.signal) ?? { updates: [] };
      for (const u of g.updates) if (!merged.updates.includes(u)) merged.updates.push(u);
      merged.selfUpdate ??= g.selfUpdate;
      groups.set(g.signal, merged);
    }
  const signals: SignalGroup[] = [...groups].map(([signal, g]) =>
    g.selfUpdate === undefined ? { signal, updates: g.updates } : { signal, updates: g.updates, selfUpdate: g.selfUpdate },
  );

  const roles = new Map<string, SignalData>();
  for (const s of specs)
    for (const sig of s.tslSignals ?? []) {
      const known = roles.get(sig.name);
      if (!known) roles.set(sig.name, sig);
      else if (known.role !== sig.role) {
        // A signal that is only read in one spec (output) but kept in another (cell) is a cell.
        const roleSet = new Set([known.role, sig.role]);
        if (roleSet.has('input'))
          throw new UserError(error(`signal ${sig.name} is an input in one spec and a ${roleSet.has('cell') ? 'cell' : 'output'} in another`, undefined, 'compose'));
        roles.set(sig.name, { name: sig.name, role: 'cell' });
      }
    }

  // A composition is read in the theory of its parts, and the theory's facts are derived again
  // over all predicates together (a fact may relate predicates of different files).
  const theories = new Set(specs.flatMap((s) => (s.theory ? [s.theory] : [])));
  if (theories.size > 1) throw new UserError(error(`cannot compose specs read in different theories (${[...theories].map((t) => `#${t}`).join(', ')})`, undefined, 'compose'));
  const theory: TheoryName | undefined = [...theories][0];
  const composed: GameSpec = {
    name,
    file: specs.map((s) => s.file ?? s.name).join(' + '),
    semantics,
    inputs,
    outputs,
    signals,
    initially: specs.flatMap((s) => s.initially),
    preset: specs.flatMap((s) => s.preset),
    assumptions: specs.flatMap((s) => s.assumptions),
    guarantees: specs.flatMap((s) => s.guarantees),
    tslSignals: specs.some((s) => s.tslSignals) ? [...roles.values()] : undefined,
  };
  if (theory === undefined) return composed;
  const span = specs.flatMap((s) => s.assumptions).find((p) => p.theory !== undefined)?.span;
  return withTheory(composed, theory, { span }).game;
}
