/**
 * The architecture as documented: every import between folders of the product code (src/, runtime/)
 * must be one docs/architecture.md allows, every allowed import must exist (the document shows the
 * graph as it is), the allowed graph has no cycle, nothing below the CLI imports it, and no product
 * code imports examples, benchmarks or tests. The checker itself is tested on imports it must reject.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkArchitecture, findCycle, type ImportGraph, importGraph, productUnits, rulesFromDoc, type Rules } from './support/architecture.js';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

describe('the folder graph', () => {
  const graph = importGraph(root);
  const rules = rulesFromDoc(doc);

  it('is the one docs/architecture.md describes, without cycles', () => {
    const problems = checkArchitecture(graph, rules, productUnits(root));
    expect(problems.unlisted).toEqual([]);
    expect(problems.forbidden).toEqual([]);
    expect(problems.unused).toEqual([]);
    expect(problems.cycle).toBeUndefined();
  });

  it('has the CLI on top: nothing else imports src/cli, and runtime imports nothing of src', () => {
    for (const [from, edges] of graph) if (from !== 'src/cli') expect([...edges.keys()]).not.toContain('src/cli');
    expect([...(graph.get('runtime')?.keys() ?? [])].filter((u) => u.startsWith('src'))).toEqual([]);
    // The data flows one way: the front ends and the solver do not import what comes after them.
    for (const low of ['src/ltl', 'src/game', 'src/automata', 'src/synthesis', 'src/verify'])
      expect([...(graph.get(low)?.keys() ?? [])].filter((u) => ['src/codegen', 'src/explain', 'src/api', 'src/cli', 'src/plugin'].includes(u))).toEqual([]);
  });
});

describe('the checker', () => {
  const rules: Rules = new Map([
    ['src/ltl', new Set<string>()],
    ['src/game', new Set(['src/ltl'])],
    ['src/cli', new Set(['src/game'])],
  ]);
  const units = ['src/ltl', 'src/game', 'src/cli'];
  const edge = (from: string, to: string, site = `${from}/x.ts → ../y.js`): ImportGraph => new Map([[from, new Map([[to, [site]]])]]);
  const allUsed: ImportGraph = new Map([
    ['src/game', new Map([['src/ltl', ['a']]])],
    ['src/cli', new Map([['src/game', ['b']]])],
  ]);

  it('rejects an import the rules do not allow, naming the file', () => {
    const graph: ImportGraph = new Map([...allUsed, ['src/ltl', new Map([['src/cli', ['src/ltl/parse.ts → ../cli/io.js']]])]]);
    const { forbidden } = checkArchitecture(graph, rules, units);
    expect(forbidden).toEqual(['src/ltl → src/cli: src/ltl/parse.ts → ../cli/io.js']);
  });

  it('rejects product code importing the examples, even where a rule would allow it', () => {
    const lenient: Rules = new Map([...rules, ['src/cli', new Set(['src/game', 'examples'])]]);
    const graph: ImportGraph = new Map([...allUsed, ['src/cli', new Map([['src/game', ['b']], ['examples', ['src/cli/commands/demo.ts → ../../../examples/cyoa/demo.js']]])]]);
    expect(checkArchitecture(graph, lenient, units).forbidden).toEqual([
      'src/cli → examples (not product code): src/cli/commands/demo.ts → ../../../examples/cyoa/demo.js',
    ]);
  });

  it('reports allowed imports nobody makes, folders without a rule, and rules without a folder', () => {
    const problems = checkArchitecture(edge('src/game', 'src/ltl'), rules, ['src/ltl', 'src/game', 'src/cli', 'src/new']);
    expect(problems.unused).toEqual(['src/cli → src/game']);
    expect(problems.unlisted).toEqual(['src/new has no row in the rules']);
    expect(checkArchitecture(allUsed, rules, ['src/ltl', 'src/game']).unlisted).toEqual(['src/cli is in the rules but does not exist']);
  });

  it('finds a cycle such as automata ↔ game ↔ ltl', () => {
    const cyclic: Rules = new Map([
      ['src/automata', new Set(['src/game'])],
      ['src/game', new Set(['src/ltl'])],
      ['src/ltl', new Set(['src/automata'])],
    ]);
    expect(findCycle(cyclic)).toBe('src/automata → src/game → src/ltl → src/automata');
    expect(findCycle(rules)).toBeUndefined();
  });

  it('reads the rules table of the document', () => {
    const parsed = rulesFromDoc('# x\n## The rules\n| folder | job | may import |\n| --- | --- | --- |\n| `src/a` | one | `src/b`, `runtime` |\n| `src/b` | two | — |\n## Next\n| `src/c` | no | — |\n');
    expect(parsed).toEqual(new Map([
      ['src/a', new Set(['src/b', 'runtime'])],
      ['src/b', new Set()],
    ]));
  });
});
