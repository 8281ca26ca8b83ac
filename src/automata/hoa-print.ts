/**
 * HOA v1 writer: prints `HoaAutomaton` data so that `parseHoa(printHoa(a))` equals `a` (labels,
 * marks, headers and state names included). Strings are escaped, so AP names from a spec cannot
 * break the file's structure.
 */
import type { HoaAcceptance, HoaAutomaton, HoaValue } from './hoa.js';
import { printLabel } from './hoa-label.js';

export function quoteHoa(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function printValue(v: HoaValue): string {
  return v.kind === 'string' ? quoteHoa(v.value) : String(v.value);
}

export function printAcceptance(cond: HoaAcceptance): string {
  const go = (c: HoaAcceptance, context: 0 | 1 | 2): string => {
    switch (c.kind) {
      case 't':
      case 'f':
        return c.kind;
      case 'Inf':
      case 'Fin':
        return `${c.kind}(${c.complemented ? '!' : ''}${c.set})`;
      case 'and': {
        const s = c.args.map((a) => go(a, 2)).join(' & ');
        return context > 1 ? `(${s})` : s;
      }
      case 'or': {
        const s = c.args.map((a) => go(a, 1)).join(' | ');
        return context > 0 ? `(${s})` : s;
      }
    }
  };
  return go(cond, 0);
}

function printMarks(marks: readonly number[] | undefined): string {
  return marks ? ` {${marks.join(' ')}}` : '';
}

export function printHoa(aut: HoaAutomaton): string {
  const lines: string[] = [`HOA: ${aut.version}`];
  if (aut.name !== undefined) lines.push(`name: ${quoteHoa(aut.name)}`);
  if (aut.tool) lines.push(`tool: ${aut.tool.map(quoteHoa).join(' ')}`);
  if (aut.stateCount !== undefined) lines.push(`States: ${aut.stateCount}`);
  for (const conj of aut.start) lines.push(`Start: ${conj.join(' & ')}`);
  lines.push(`AP: ${aut.aps.length}${aut.aps.map((a) => ' ' + quoteHoa(a)).join('')}`);
  for (const a of aut.aliases) lines.push(`Alias: @${a.name} ${printLabel(a.label)}`);
  if (aut.accName) lines.push(`acc-name: ${[aut.accName.name, ...aut.accName.params.map(printValue)].join(' ')}`);
  lines.push(`Acceptance: ${aut.acceptanceSets} ${printAcceptance(aut.acceptance)}`);
  // Labels are always printed explicitly (implicit ones were expanded by the reader).
  const properties = aut.properties.filter((p) => p !== 'implicit-labels');
  if (properties.length > 0) lines.push(`properties: ${properties.join(' ')}`);
  if (aut.controllableAps) lines.push(`controllable-AP:${aut.controllableAps.map((i) => ' ' + i).join('')}`);
  for (const h of aut.otherHeaders) lines.push(`${h.name}:${h.values.map((v) => ' ' + printValue(v)).join('')}`);
  lines.push('--BODY--');
  for (const st of aut.states) {
    const label = st.label ? ` [${printLabel(st.label)}]` : '';
    const name = st.name !== undefined ? ` ${quoteHoa(st.name)}` : '';
    lines.push(`State:${label} ${st.id}${name}${printMarks(st.marks)}`);
    for (const e of st.edges) {
      const edgeLabel = e.label ? `[${printLabel(e.label)}] ` : '';
      lines.push(`${edgeLabel}${e.targets.join('&')}${printMarks(e.marks)}`);
    }
  }
  lines.push('--END--');
  return lines.join('\n') + '\n';
}
