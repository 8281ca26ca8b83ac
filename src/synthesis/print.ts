/**
 * Printing synthesized machines: HOA with the `controllable-AP` header (what ltlsynt prints, via
 * the shared HOA writer), Graphviz DOT, and JSON.
 */
import { mealyToHoa } from '../automata/hoa-convert.js';
import { printHoa } from '../automata/hoa-print.js';
import type { Counterstrategy } from '../game/counterstrategy.js';
import type { Cube, MealyMachine } from '../game/mealy.js';

export function controllerToHoa(m: MealyMachine, name: string): string {
  return printHoa(mealyToHoa(m, { name, tool: ['tslc'] }));
}

function cubeText(c: Cube, onlyTrue: boolean): string {
  const names = Object.keys(c);
  const shown = onlyTrue ? names.filter((n) => c[n]) : names;
  if (shown.length === 0) return onlyTrue ? '-' : 'true';
  return shown.map((n) => (c[n] ? n : `!${n}`)).join(' & ');
}

const dotString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** DOT: one edge per transition labelled `inputs / outputs set to true`. */
export function controllerToDot(m: MealyMachine, name: string): string {
  const lines = [`digraph ${dotString(name)} {`, '  rankdir=LR;', '  node [shape=circle];', '  init [shape=point];'];
  lines.push(`  init -> ${m.initial};`);
  for (let s = 0; s < m.stateCount; s++) lines.push(`  ${s} [label=${dotString(String(s))}];`);
  for (const t of m.transitions)
    lines.push(`  ${t.from} -> ${t.to} [label=${dotString(`${cubeText(t.input, false)} / ${cubeText(t.output, true)}`)}];`);
  lines.push('}');
  return lines.join('\n') + '\n';
}

export function controllerToJson(m: MealyMachine, name: string): string {
  return JSON.stringify({ name, ...m }, null, 2) + '\n';
}

export function counterstrategyToJson(cs: Counterstrategy, name: string): string {
  return JSON.stringify({ name, ...cs }, null, 2) + '\n';
}
