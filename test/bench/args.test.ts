import { describe, expect, it } from 'vitest';
import { parseBenchArgs, usage } from '../../bench/args.js';
import { sections } from '../../bench/sections.js';

const names = (r: ReturnType<typeof parseBenchArgs>) => (r.kind === 'run' ? r.chosen.map((s) => s.name) : r.kind);
const message = (r: ReturnType<typeof parseBenchArgs>) => (r.kind === 'error' ? r.message : '');

describe('npm run bench arguments', () => {
  it('runs the named sections, every section when none is named', () => {
    expect(names(parseBenchArgs(['syntcomp', '--timeout', '10'], sections))).toEqual(['syntcomp']);
    expect(names(parseBenchArgs([], sections))).toEqual(sections.map((s) => s.name));
  });

  it('answers --help with the usage, listing every section and its options', () => {
    expect(parseBenchArgs(['--help'], sections).kind).toBe('help');
    expect(parseBenchArgs(['syntcomp', '-h'], sections).kind).toBe('help');
    const text = usage(sections);
    for (const s of sections) expect(text).toContain(`  ${s.name}  `);
    expect(text).toContain('--no-states');
  });

  it('refuses an unknown section name instead of running everything', () => {
    expect(message(parseBenchArgs(['corpsu'], sections))).toMatch(/no section named "corpsu"/);
  });

  it('takes a flag for a flag, so the name after it is still a section', () => {
    // `--states` takes no value: `syntcomp` after it is the section, not its value.
    expect(names(parseBenchArgs(['--states', 'syntcomp'], sections))).toEqual(['syntcomp']);
  });

  it('refuses unknown options, missing values, non-numbers and options of sections not chosen', () => {
    expect(message(parseBenchArgs(['syntcomp', '--timout', '10'], sections))).toMatch(/unknown option --timout/);
    expect(message(parseBenchArgs(['syntcomp', '--timeout'], sections))).toMatch(/--timeout needs a value/);
    expect(message(parseBenchArgs(['syntcomp', '--timeout', 'ten'], sections))).toMatch(/needs a number, not "ten"/);
    expect(message(parseBenchArgs(['corpus', '--quick'], sections))).toMatch(/--quick is an option of monitor, not of corpus/);
  });

  it('splits --name=value into the two-word form the sections read', () => {
    const r = parseBenchArgs(['startup', '--runs=3'], sections);
    expect(r.kind === 'run' ? r.args : []).toEqual(['startup', '--runs', '3']);
  });

  it('accepts --sample all for startup, which reads it as a word', () => {
    expect(names(parseBenchArgs(['startup', '--sample', 'all'], sections))).toEqual(['startup']);
  });
});
