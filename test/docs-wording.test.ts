/**
 * User docs must make sense to someone who has never seen the papers or this project's working
 * notes: papers are cited by title and authors (README "The papers behind tslc"), never by an
 * internal file number, and no doc points at a path on the machine it was written on or at who
 * will do what next.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return files(path, keep);
    return keep(name) ? [path] : [];
  });
}

const docs = [
  'README.md',
  ...files('docs', (n) => n.endsWith('.md')),
  ...files('specs', (n) => n === 'README.md'),
  ...files('examples', (n) => n === 'README.md' || n.endsWith('.sexp')),
];

/** Internal notes: paper file numbers, machine paths, hand-offs between the people writing tslc. */
const INTERNAL = [
  /papers?\/0\d\d/i,
  /\bpapers? 0\d\d\b/i,
  /\bpapers? 0\d\d\/0\d\d\b/i,
  /\b0\d\d (Sec\.|Appendix|Figure|Table)/,
  /\bpaper 0\d\d\b/i,
  /\/work\//,
  /\bthe lead\b/i,
];

describe('docs use the reader’s terms', () => {
  it('finds the docs', () => expect(docs.length).toBeGreaterThan(10));

  for (const file of docs)
    it(relative(root, join(root, file)), () => {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      const found = lines.flatMap((line, i) => INTERNAL.filter((re) => re.test(line)).map(() => `${file}:${i + 1}: ${line.trim()}`));
      expect(found).toEqual([]);
    });

  it('the README lists the papers the docs refer to, by title', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const title of [
      'Enforcing Temporal Constraints on Generative Agent Behavior with Reactive Synthesis',
      'Procedural Adherence and Interpretability Through Neuro-Symbolic Generative Agents',
      'Auditing, Monitoring, and Intervention for Compliance of Advanced AI Systems',
      'Formally Specifying the High-Level Behavior of LLM-Based Agents',
    ])
      expect(readme).toContain(title);
  });
});
