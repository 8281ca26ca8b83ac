/**
 * Controller diagrams: a Mealy machine compacted into a readable graph — one edge per
 * (source, target, chosen updates), guards simplified, labels in the user's terms — and printed as
 * Graphviz DOT or Mermaid. The same `Diagram` feeds the HTML report's SVG.
 *
 * Every label passes through an escaper for its target syntax: spec names and strings must never
 * break out of a DOT string or a Mermaid label.
 */
import type { Cube, MealyMachine } from '../game/mealy.js';
import { own } from '../../runtime/dict.js';
import type { GameSpec } from '../game/spec.js';
import { completeOutput } from './counterplay.js';
import { simplifyGuard } from './guards.js';
import { type Vocabulary, vocabulary } from './words.js';

export interface DiagramEdge {
  readonly from: number;
  readonly to: number;
  /** Guard as a list of alternatives, each a list of literals (`inCave s`, `¬inTown s`). */
  readonly guard: readonly (readonly string[])[];
  /** Chosen updates in the user's terms; empty when every signal keeps its value. */
  readonly updates: readonly string[];
}

export interface Diagram {
  readonly name: string;
  readonly stateCount: number;
  readonly initial: number;
  readonly edges: readonly DiagramEdge[];
}

export function buildDiagram(machine: MealyMachine, spec: GameSpec): Diagram {
  const vocab = vocabulary(spec);
  const groups = new Map<string, { from: number; to: number; updates: string[]; cubes: Cube[] }>();
  for (const t of machine.transitions) {
    const updates = chosenUpdates(completeOutput(spec, t.output), machine.outputs, vocab);
    const key = `${t.from}|${t.to}|${updates.join('\u0000')}`;
    const g = groups.get(key);
    if (g) g.cubes.push(t.input);
    else groups.set(key, { from: t.from, to: t.to, updates, cubes: [t.input] });
  }
  const edges: DiagramEdge[] = [...groups.values()].map((g) => ({
    from: g.from,
    to: g.to,
    updates: g.updates,
    guard: simplifyGuard(g.cubes).map((cube) =>
      machine.inputs.filter((n) => Object.hasOwn(cube, n)).map((n) => (cube[n] ? vocab.term(n) : `¬${vocab.term(n)}`)),
    ),
  }));
  edges.sort((a, b) => a.from - b.from || a.to - b.to);
  return { name: spec.name, stateCount: machine.stateCount, initial: machine.initial, edges };
}

function chosenUpdates(output: Readonly<Record<string, boolean>>, names: readonly string[], vocab: Vocabulary): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (own(output, n) !== true) continue;
    if (vocab.signalOf(n) !== undefined && vocab.isSelfUpdate(n)) continue;
    out.push(vocab.term(n));
  }
  return out;
}

export function guardText(guard: readonly (readonly string[])[]): string {
  if (guard.length === 0) return 'false';
  if (guard.some((alt) => alt.length === 0)) return 'true';
  const alts = guard.map((alt) => alt.join(' ∧ '));
  return alts.length === 1 ? alts[0] : alts.map((a) => (a.includes(' ∧ ') ? `(${a})` : a)).join(' ∨ ');
}

export function edgeLabel(e: DiagramEdge): string {
  const guard = guardText(e.guard);
  return `${guard} / ${e.updates.length === 0 ? 'keep' : e.updates.join(', ')}`;
}

const dotString = (s: string) =>
  '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n').replace(/[\u0000-\u001f]/g, ' ') + '"';

export function toDot(d: Diagram): string {
  const lines = [`digraph ${dotString(d.name)} {`, '  rankdir=LR;', '  node [shape=circle, fontname="Helvetica"];', '  edge [fontname="Helvetica", fontsize=10];'];
  lines.push('  __start [shape=point, label=""];');
  for (let s = 0; s < d.stateCount; s++) lines.push(`  s${s} [label=${dotString(String(s))}];`);
  lines.push(`  __start -> s${d.initial};`);
  for (const e of d.edges) lines.push(`  s${e.from} -> s${e.to} [label=${dotString(edgeLabel(e))}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

/** Mermaid labels are quoted; quotes and markup characters become HTML entities Mermaid renders. */
const mermaidString = (s: string) =>
  '"' +
  s.replace(/[&"<>#|`\\]/g, (c) => `#${c.charCodeAt(0)};`).replace(/\r?\n/g, ' ').replace(/[\u0000-\u001f]/g, ' ') +
  '"';

export function toMermaid(d: Diagram): string {
  const lines = ['stateDiagram-v2'];
  for (let s = 0; s < d.stateCount; s++) lines.push(`  state ${mermaidString(String(s))} as s${s}`);
  lines.push(`  [*] --> s${d.initial}`);
  for (const e of d.edges) lines.push(`  s${e.from} --> s${e.to} : ${mermaidLabel(edgeLabel(e))}`);
  return lines.join('\n') + '\n';
}

/** Transition labels in stateDiagram are unquoted text to the end of the line: escape, no quotes. */
function mermaidLabel(s: string): string {
  return s.replace(/[&"<>#|`\\:;{}]/g, (c) => `#${c.charCodeAt(0)};`).replace(/[\r\n\u0000-\u001f]/g, ' ');
}
