/**
 * The bench runner's command line: section names and the options the chosen sections declare.
 * Strict on purpose: an unknown section or option is an error rather than silently ignored
 * (`npm run bench -- corpsu` used to run every section; a flag's value could be taken for a name).
 */
import type { BenchOption, BenchSection } from './sections.js';

export type ParsedBenchArgs =
  | { readonly kind: 'run'; readonly chosen: readonly BenchSection[]; readonly args: readonly string[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/**
 * `args` given back is the command line with `--name=value` split in two, which is the form the
 * sections read (`option(args, name)`).
 */
export function parseBenchArgs(argv: readonly string[], sections: readonly BenchSection[]): ParsedBenchArgs {
  const declared = new Map<string, { option: BenchOption; owners: string[] }>();
  for (const section of sections) {
    for (const option of section.options ?? []) {
      const entry = declared.get(option.name) ?? { option, owners: [] };
      entry.owners.push(section.name);
      declared.set(option.name, entry);
    }
  }
  const args = argv.flatMap((a) => (a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a]));
  const names: string[] = [];
  const given: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (!arg.startsWith('-')) {
      if (!sections.some((s) => s.name === arg)) return { kind: 'error', message: `no section named "${arg}"; known: ${sections.map((s) => s.name).join(', ')}` };
      names.push(arg);
      continue;
    }
    const name = arg.replace(/^--?/, '');
    const entry = declared.get(name);
    if (!entry) return { kind: 'error', message: `unknown option ${arg}` };
    given.push(name);
    if (entry.option.kind === 'flag') continue;
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) return { kind: 'error', message: `${arg} needs a value` };
    const wantsNumber = entry.option.kind === 'number' && sections.filter((s) => entry.owners.includes(s.name)).every((s) => s.options?.find((o) => o.name === name)?.kind === 'number');
    if (wantsNumber && !Number.isFinite(Number(value))) return { kind: 'error', message: `${arg} needs a number, not "${value}"` };
    i++;
  }
  const chosen = names.length > 0 ? sections.filter((s) => names.includes(s.name)) : sections;
  for (const name of given) {
    const owners = declared.get(name)?.owners ?? [];
    if (!chosen.some((s) => owners.includes(s.name))) {
      return { kind: 'error', message: `--${name} is an option of ${owners.join(', ')}, not of ${chosen.map((s) => s.name).join(', ')}` };
    }
  }
  return { kind: 'run', chosen, args };
}

/** The `--help` text: every section with what it measures and the options it reads. */
export function usage(sections: readonly BenchSection[]): string {
  const lines = [
    'npm run bench [-- <section>…] [--option value…]',
    '',
    'Runs the named benchmark sections (all when none is named), prints their tables and writes',
    'bench/results/<section>.md and bench/results.md. Timings of tslc and a reference tool are taken',
    'side by side in the same run, so compare the ratios, not absolute seconds across runs.',
    '',
    'Sections:',
  ];
  for (const section of sections) {
    lines.push(`  ${section.name}  ${section.describe}`);
    for (const o of section.options ?? []) {
      const shape = o.kind === 'flag' ? `--${o.name}` : `--${o.name} <${o.kind === 'number' ? 'n' : 'value'}>`;
      lines.push(`      ${shape.padEnd(22)} ${o.describe}`);
    }
  }
  lines.push('', 'Example: npm run bench -- syntcomp --sample 60 --seed 1 --timeout 10 --states', '');
  return lines.join('\n');
}
