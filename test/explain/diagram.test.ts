import { describe, expect, it } from 'vitest';
import { buildDiagram, guardText, toDot, toMermaid } from '../../src/explain/diagram.js';
import { simplifyGuard } from '../../src/explain/guards.js';
import type { Cube, MealyMachine } from '../../src/game/mealy.js';
import type { GameSpec } from '../../src/game/spec.js';
import { ap } from '../../src/ltl/formula.js';

const spec: GameSpec = {
  name: 'door',
  semantics: 'mealy',
  inputs: [{ name: 'p_open', term: 'isOpen door' }, { name: 'p_bell', term: 'rang bell' }],
  outputs: [
    { name: 'u_close', term: '[door <- close door]', update: { signal: 'door', term: { kind: 'call', fn: 'close', args: [] }, isSelfUpdate: false } },
    { name: 'u_keep', term: '[door <- door]', update: { signal: 'door', term: { kind: 'signal', name: 'door' }, isSelfUpdate: true } },
  ],
  signals: [{ signal: 'door', updates: ['u_close', 'u_keep'], selfUpdate: 'u_keep' }],
  initially: [],
  preset: [],
  assumptions: [],
  guarantees: [{ formula: ap('u_close') }],
};
const close = { u_close: true, u_keep: false };
const keep = { u_close: false, u_keep: true };
// Four transitions from state 0, three of them parallel (same target and update).
const machine: MealyMachine = {
  inputs: ['p_open', 'p_bell'],
  outputs: ['u_close', 'u_keep'],
  stateCount: 2,
  initial: 0,
  transitions: [
    { from: 0, input: { p_open: true, p_bell: true }, output: close, to: 1 },
    { from: 0, input: { p_open: true, p_bell: false }, output: close, to: 1 },
    { from: 0, input: { p_open: false, p_bell: true }, output: close, to: 1 },
    { from: 0, input: { p_open: false, p_bell: false }, output: keep, to: 0 },
    { from: 1, input: {}, output: {}, to: 1 },
  ],
};

describe('controller diagrams', () => {
  it('merges parallel edges, simplifies guards and names things in the user terms', () => {
    const d = buildDiagram(machine, spec);
    expect(d.edges).toHaveLength(3);
    const merged = d.edges.find((e) => e.from === 0 && e.to === 1)!;
    expect(merged.updates).toEqual(['[door <- close door]']);
    expect(guardText(merged.guard)).toBe('isOpen door ∨ rang bell');
    const stay = d.edges.find((e) => e.from === 0 && e.to === 0)!;
    expect(stay.updates).toEqual([]); // self-update = keep
    expect(guardText(stay.guard)).toBe('¬isOpen door ∧ ¬rang bell');
    // An open output cube is completed with the self-update, as code generation does.
    expect(guardText(d.edges.find((e) => e.from === 1)!.guard)).toBe('true');
    const dot = toDot(d);
    expect(dot).toContain('s0 -> s1 [label="isOpen door ∨ rang bell / [door <- close door]"]');
    expect(dot).toContain('__start -> s0');
    const mermaid = toMermaid(d);
    expect(mermaid).toMatch(/^stateDiagram-v2/);
    expect(mermaid).toContain('[*] --> s0');
    expect(mermaid).toContain('s0 --> s1 : isOpen door ∨ rang bell / [door #60;- close door]');
  });

  it('escapes hostile names in DOT and Mermaid', () => {
    const evil = 'x"] ; evil [label="pwned\n<b>|#`';
    const hostile: GameSpec = { ...spec, name: evil, inputs: [{ name: 'p_open', term: evil }, { name: 'p_bell' }] };
    const d = buildDiagram(machine, hostile);
    const dot = toDot(d);
    // Every quote inside a label is escaped: the only unescaped quotes delimit strings.
    for (const line of dot.split('\n')) {
      const unescaped = line.replace(/\\\\/g, '').replace(/\\"/g, '').match(/"/g) ?? [];
      expect(unescaped.length % 2, line).toBe(0);
    }
    expect(dot).not.toMatch(/\n\s*evil \[/);
    const mermaid = toMermaid(d);
    const labels = mermaid.split('\n').filter((l) => l.includes(' : ')).map((l) => l.slice(l.indexOf(' : ') + 3));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label.replace(/#\d+;/g, "")).not.toMatch(/[<>"`:;#]/);
    expect(labels.join()).toContain('#34;');
  });
});

describe('guard simplification', () => {
  const vars = ['a', 'b', 'c', 'd'];
  const holds = (cubes: readonly Cube[], v: Record<string, boolean>) => cubes.some((c) => Object.entries(c).every(([k, x]) => v[k] === x));
  it('is equivalent to the input and never larger (random cube sets)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
    for (let round = 0; round < 300; round++) {
      const cubes: Cube[] = [];
      const n = 1 + Math.floor(random() * 5);
      for (let i = 0; i < n; i++) {
        const c: Record<string, boolean> = {};
        for (const v of vars) if (random() < 0.6) c[v] = random() < 0.5;
        cubes.push(c);
      }
      const simple = simplifyGuard(cubes);
      expect(simple.length).toBeLessThanOrEqual(cubes.length);
      for (let m = 0; m < 16; m++) {
        const v = Object.fromEntries(vars.map((x, i) => [x, (m & (1 << i)) !== 0]));
        expect(holds(simple, v), JSON.stringify({ cubes, simple, v })).toBe(holds(cubes, v));
      }
    }
  });
  it('turns a full cover into true', () => {
    expect(simplifyGuard([{ a: true }, { a: false, b: true }, { a: false, b: false }])).toEqual([{}]);
  });
});
