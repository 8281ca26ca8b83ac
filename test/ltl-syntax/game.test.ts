import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { specFormula } from '../../src/game/spec.js';
import { ap, F, G, implies } from '../../src/ltl/formula.js';
import { ltlGame } from '../../src/frontend/game-from-ltl.js';

function diagnostics(run: () => unknown) {
  try {
    run();
  } catch (e) {
    if (e instanceof UserError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('ltlGame (plain LTL with --ins/--outs)', () => {
  it('builds a game with the formula as its one guarantee', () => {
    const g = ltlGame('G (req -> F grant)', ['req'], ['grant'], { name: 'arbiter', file: 'a.ltl', semantics: 'moore' });
    expect(g.inputs.map((p) => p.name)).toEqual(['req']);
    expect(g.outputs.map((p) => p.name)).toEqual(['grant']);
    expect(g.semantics).toBe('moore');
    expect(g.signals).toEqual([]);
    expect(g.guarantees).toHaveLength(1);
    expect(g.guarantees[0].span).toEqual({ file: 'a.ltl', line: 1, col: 1 });
    expect(specFormula(g)).toBe(G(implies(ap('req'), F(ap('grant')))));
  });
  it('reports an atom in neither list at its position', () => {
    const ds = diagnostics(() => ltlGame('G (req ->\n F gant)', ['req'], ['grant'], { file: 'a.ltl' }));
    expect(ds).toHaveLength(1);
    expect(ds[0].message).toBe("atomic proposition 'gant' is neither an input (--ins) nor an output (--outs)");
    expect(ds[0].span).toEqual({ file: 'a.ltl', line: 2, col: 4, length: 4 });
  });
  it('hints at Spot splitting GFa-style names', () => {
    const ds = diagnostics(() => ltlGame('Fire -> alarm', ['Fire'], ['alarm']));
    expect(ds[0].message).toContain("'ire'");
    expect(ds[0].message).toContain('quote');
    expect(ds[0].span?.col).toBe(2);
  });
  it('rejects a proposition that is both input and output', () => {
    const ds = diagnostics(() => ltlGame('a', ['a'], ['a']));
    expect(ds[0].message).toBe("'a' is listed both in --ins and in --outs");
  });
  it('passes syntax errors through as diagnostics', () => {
    const ds = diagnostics(() => ltlGame('G (a', ['a'], [], { file: 'f.ltl' }));
    expect(ds[0].span).toMatchObject({ file: 'f.ltl', line: 1, col: 5 });
  });
});
