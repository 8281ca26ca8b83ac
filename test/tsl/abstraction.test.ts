/**
 * The TSL → LTL abstraction and the checker's symbol inference, on the shipped specs and on
 * small inline specs: propositions, signal groups, roles, structured terms, sugar, imports,
 * definitions, precedence and its warnings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specFormula } from '../../src/game/spec.js';
import { toSpot } from '../../src/ltl/print.js';
import { and, ap, G, iff, not, X } from '../../src/ltl/formula.js';
import { loadTslGame, tslSymbols } from '../../src/tsl/index.js';

const specs = join(import.meta.dirname, '../../specs');
const loadSpec = (name: string, names: 'readable' | 'tsltools' = 'readable') =>
  loadTslGame(join(specs, name), readFileSync(join(specs, name), 'utf8'), { names });
const load = (text: string, readFile?: (p: string) => string) => loadTslGame('/t/spec.tsl', text, { readFile });

describe('adventure.tsl', () => {
  const { game, symbols, diagnostics } = loadSpec('adventure.tsl');

  it('has one input per predicate term and one output per update, plus the self-update', () => {
    expect(game.inputs.map((p) => [p.name, p.term])).toEqual([
      ['inCave_s', 'inCave s'],
      ['inMarket_s', 'inMarket s'],
      ['inTown_s', 'inTown s'],
    ]);
    expect(game.outputs.map((p) => [p.name, p.term])).toEqual([
      ['u_storyPassage_toCave_s', '[storyPassage <- toCave s]'],
      ['u_storyPassage_toMarket_s', '[storyPassage <- toMarket s]'],
      ['u_storyPassage_toTown_s', '[storyPassage <- toTown s]'],
      ['u_storyPassage_storyPassage', '[storyPassage <- storyPassage]'],
    ]);
    expect(game.signals).toEqual([
      {
        signal: 'storyPassage',
        updates: game.outputs.map((p) => p.name),
        selfUpdate: 'u_storyPassage_storyPassage',
      },
    ]);
  });

  it('structures predicates and updates for code generation', () => {
    expect(game.inputs[0].predicate).toEqual({ fn: 'inCave', args: [{ kind: 'signal', name: 's' }] });
    expect(game.outputs[0].update).toEqual({
      signal: 'storyPassage',
      term: { kind: 'call', fn: 'toCave', args: [{ kind: 'signal', name: 's' }] },
      isSelfUpdate: false,
    });
    expect(game.outputs[3].update?.isSelfUpdate).toBe(true);
    expect(game.tslSignals).toEqual([
      { name: 's', role: 'input' },
      { name: 'storyPassage', role: 'output' },
    ]);
    expect(symbols.predicates).toEqual([
      { name: 'inCave', arity: 1 },
      { name: 'inMarket', arity: 1 },
      { name: 'inTown', arity: 1 },
    ]);
  });

  it('keeps assumptions and guarantees apart, G-wrapping `always` ones, with source lines', () => {
    expect(game.semantics).toBe('mealy');
    expect(game.initially).toEqual([]);
    expect(game.preset).toEqual([]);
    expect(game.assumptions.map((p) => toSpot(p.formula))).toEqual([
      '!inCave_s',
      '!inMarket_s',
      '!inTown_s',
      // ↔ prints its operands in canonical (structural) order.
      toSpot(G(iff(ap('u_storyPassage_toCave_s'), X(ap('inCave_s'))))),
      'G(u_storyPassage_toMarket_s -> (F inMarket_s))',
      'G(u_storyPassage_toTown_s -> (F inTown_s))',
    ]);
    expect(game.guarantees.map((p) => toSpot(p.formula))).toEqual([
      '!inCave_s W inMarket_s',
      '!inCave_s W inTown_s',
      'G(F inCave_s)',
      'G(F inMarket_s)',
      'G(F inTown_s)',
    ]);
    const source = readFileSync(join(specs, 'adventure.tsl'), 'utf8').split('\n');
    for (const part of [...game.assumptions, ...game.guarantees]) {
      expect(source[part.span!.line - 1].slice(part.span!.col - 1)).toContain(part.text!.split('\n')[0]);
    }
    expect(diagnostics).toEqual([]);
  });

  it('means G(exactly one update) ∧ (assumptions → guarantees)', () => {
    const whole = specFormula(game);
    expect(whole.kind).toBe('and');
    const parts = whole.kind === 'and' ? whole.args : [];
    expect(parts).toHaveLength(2);
    const always = parts.find((p) => p.kind === 'G');
    expect(toSpot(always!)).toContain(toSpot(not(and(ap('u_storyPassage_toCave_s'), ap('u_storyPassage_toMarket_s')))));
    expect(parts.find((p) => p.kind === 'implies')).toBeDefined();
  });
});

describe('the other shipped specs', () => {
  it('choices.tsl: safeCount is a cell incremented with the built-in add', () => {
    const { game, symbols } = loadSpec('choices.tsl');
    expect(symbols.cells).toEqual(['safeCount']);
    expect(symbols.functions).toEqual([{ name: 'add', arity: 2, builtin: true }]);
    const inc = game.outputs.find((o) => !o.update?.isSelfUpdate);
    expect(inc?.update?.term).toEqual({
      kind: 'call',
      fn: 'add',
      args: [
        { kind: 'signal', name: 'safeCount' },
        { kind: 'literal', value: 1 },
      ],
    });
  });

  it('tutor.tsl: hintCount = 3 is the predicate eq hintCount 3', () => {
    const { game } = loadSpec('tutor.tsl');
    const eq = game.inputs.find((p) => p.predicate?.fn === 'eq' && p.predicate.args[1]?.kind === 'literal' && p.predicate.args[1].value === 3);
    expect(eq?.predicate?.args).toEqual([
      { kind: 'signal', name: 'hintCount' },
      { kind: 'literal', value: 3 },
    ]);
    expect(eq?.name).toBe('eq_hintCount_3');
  });

  it('tutor.tsl keeps every guarantee of the paper text (unrealizable/tutor-as-printed.tsl) and adds assumptions', () => {
    const printed = loadSpec('unrealizable/tutor-as-printed.tsl').game;
    const { game } = loadSpec('tutor.tsl');
    // The paper's version has nothing linking updates to predicates: that is why it is unrealizable.
    expect(printed.assumptions).toHaveLength(0);
    expect(printed.initially).toHaveLength(0);
    expect(game.assumptions.length).toBeGreaterThan(0);
    // Formulas are hash-consed, so identity is formula equality.
    const kept = new Set(game.guarantees.map((g) => g.formula));
    expect(printed.guarantees.map((g) => g.text).filter((_, i) => !kept.has(printed.guarantees[i].formula))).toEqual([]);
    expect(printed.guarantees).toHaveLength(4);
  });

  it('forest.tsl and conversation.tsl load', () => {
    expect(loadSpec('forest.tsl').game.outputs.map((o) => o.name)).toEqual(['u_storyPassage_toForest_s', 'u_storyPassage_storyPassage']);
    expect(loadSpec('conversation.tsl').game.signals[0].updates).toHaveLength(4);
  });

  it('tsltools naming of adventure.tsl', () => {
    const { game } = loadSpec('adventure.tsl', 'tsltools');
    expect(game.inputs.map((p) => p.name)).toEqual(['p0p0in2cave0s', 'p0p0in2market0s', 'p0p0in2town0s']);
    expect(game.outputs.map((p) => p.name)).toContain('u0story2passage0f1dto2cave0s1b');
    expect(game.outputs.map((p) => p.name)).toContain('u0story2passage0story2passage');
  });
});

describe('syntax and sugar', () => {
  it('p(x, y) and p x y are the same proposition; (f x) y flattens', () => {
    const { game } = load('guarantee { p(x, y) -> p x y; (q x) y; q(x)(y); }');
    expect(game.inputs.map((p) => p.term)).toEqual(['p x y', 'q x y']);
  });

  it('desugars arithmetic and comparisons the way tsltools does', () => {
    const { game } = load('guarantee { [n <- n + 1]; [n <- n * 2.5 - m / -2]; x <= 3; y > z; }', undefined);
    const tsltools = loadTslGame('/t/spec.tsl', 'guarantee { [n <- n + 1]; }', { names: 'tsltools' }).game;
    expect(tsltools.outputs.map((o) => o.name)).toContain('u0n0f1dadd0n0f1dint241b1b');
    expect(game.outputs.map((o) => o.term)).toEqual(['[n <- add n 1]', '[n <- sub (mul n 2.5) (div m -2)]', '[n <- n]']);
    expect(game.inputs.map((p) => p.term)).toEqual(['lte x 3', 'gt y z']);
    expect(game.outputs[1].update?.term).toEqual({
      kind: 'call',
      fn: 'sub',
      args: [
        { kind: 'call', fn: 'mul', args: [{ kind: 'signal', name: 'n' }, { kind: 'literal', value: 2.5 }] },
        { kind: 'call', fn: 'div', args: [{ kind: 'signal', name: 'm' }, { kind: 'literal', value: -2 }] },
      ],
    });
  });

  it('accepts comments, nested comments, a header, bare sections and a missing final ;', () => {
    const { game } = load('#LIA\n// line\n/* outer /* inner */ still */\nassume { a }\nguarantee { b; c }');
    expect(game.assumptions).toHaveLength(1);
    expect(game.guarantees.map((g) => toSpot(g.formula))).toEqual(['b', 'c']);
  });

  it('binary temporal operators bind loosest (tsltools), with a warning', () => {
    const { game, diagnostics } = load('guarantee {\n  a -> b W c;\n  (a -> b) W c;\n  a -> (b W c);\n}');
    expect(toSpot(game.guarantees[0].formula)).toBe('(a -> b) W c');
    expect(game.guarantees[0].formula).toBe(game.guarantees[1].formula);
    expect(toSpot(game.guarantees[2].formula)).toBe('a -> (b W c)');
    expect(diagnostics.map((d) => [d.severity, d.span?.line, d.span?.col, d.code])).toEqual([['warning', 2, 3, 'precedence']]);
    expect(diagnostics[0].message).toContain('"W" mixed with "->"');
  });

  it('identifiers with dots, nullary constants next to a same-named signal', () => {
    const { symbols } = load('guarantee { room.light.on -> [room.light <- off()]; off; }');
    expect(symbols.inputs).toEqual(['room.light.on', 'off']);
    expect(symbols.outputs).toEqual(['room.light']);
    expect(symbols.functions).toEqual([{ name: 'off', arity: 0 }]);
  });
});

describe('roles (like tslsym)', () => {
  it('input: only read; cell: read and updated; output: only updated (explicit [x <- x] is no read)', () => {
    const { symbols } = load('always guarantee { p i c -> [c <- f c]; [o <- g i] || [o <- o]; }');
    expect(symbols).toMatchObject({ inputs: ['i'], cells: ['c'], outputs: ['o'] });
    expect(symbols.predicates).toEqual([{ name: 'p', arity: 2 }]);
    expect(symbols.functions).toEqual([
      { name: 'f', arity: 1 },
      { name: 'g', arity: 1 },
    ]);
  });

  it('tslSymbols gives the same table without building the game', () => {
    expect(tslSymbols('/t/a.tsl', 'guarantee { p x -> [y <- x]; }').symbols).toEqual({
      inputs: ['x'],
      cells: [],
      outputs: ['y'],
      predicates: [{ name: 'p', arity: 1 }],
      functions: [],
    });
  });
});

describe('definitions and imports', () => {
  const files: Record<string, string> = {
    '/t/lib.tsl': 'import "sub/more.tsl" as M\nready = M.flag && p s;\nmove x = [pos <- step x];',
    '/t/sub/more.tsl': 'flag = q s;\nguarantee { ignored }',
  };
  const readFile = (path: string) => {
    const text = files[path];
    if (text === undefined) throw new Error(`ENOENT ${path}`);
    return text;
  };

  it('expands qualified and parametric definitions, resolving nested imports relative to the importer', () => {
    const { game, diagnostics } = load('import "lib.tsl" as L\nnear = pos;\nalways guarantee { L.ready -> L.move near; }', readFile);
    expect(game.inputs.map((p) => p.term)).toEqual(['q s', 'p s']);
    expect(game.outputs.map((p) => p.term)).toEqual(['[pos <- step pos]', '[pos <- pos]']);
    // more.tsl (imported by lib.tsl) has a section, which an import ignores.
    expect(diagnostics.map((d) => [d.code, d.span?.file])).toEqual([['import-sections', '/t/lib.tsl']]);
  });

  it('a definition may stand for an update, even with the target as a parameter', () => {
    const { game, symbols } = load('set x v = [x <- v];\nguarantee { set light (dim level); }');
    expect(game.outputs.map((p) => p.term)).toEqual(['[light <- dim level]', '[light <- light]']);
    expect(symbols.outputs).toEqual(['light']);
  });

  it('warns that an imported file’s sections are ignored', () => {
    const { diagnostics } = load('import "sub/more.tsl" as M\nguarantee { M.flag }', readFile);
    expect(diagnostics.map((d) => d.code)).toEqual(['import-sections']);
  });
});

describe('readable names', () => {
  it('never look like an operator to Spot or TLSF', () => {
    const { game } = load('guarantee { M && S && GF1 && M2 && 3 = x; }');
    expect(game.inputs.map((p) => p.name)).toEqual(['p_M', 'p_S', 'p_GF1', 'M2', 'eq_3_x']);
  });

  it('stay unique when two terms read alike', () => {
    const { game } = load('guarantee { p x_y; p_x y; [o <- u_o]; }');
    expect(game.inputs.map((p) => p.name)).toEqual(['p_x_y', 'p_x_y_2']);
    const outs = game.outputs.map((p) => p.name);
    expect(new Set(outs).size).toBe(outs.length);
  });
});
