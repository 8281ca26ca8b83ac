/**
 * The HOA reader and writer on hand-written automata: every HOA v1 feature we claim (aliases,
 * Acceptance/acc-name, several initial states, nested comments, escaped strings, state labels,
 * implicit labels, universal branching, streams), round trips, and clear errors.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type HoaAutomaton, type HoaLabel, parseHoa, parseHoaStream } from '../../src/automata/hoa.js';
import { hoaToMealy, hoaToTgba, mealyToHoa, tgbaToHoa } from '../../src/automata/hoa-convert.js';
import { aliasTable, evalLabel, labelCubes } from '../../src/automata/hoa-label.js';
import { printHoa } from '../../src/automata/hoa-print.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { cubeMatches, type MealyMachine } from '../../src/game/mealy.js';
import { evalPropositional } from '../../src/ltl/formula.js';

/** All valuations of n propositions as index → value functions. */
function valuations(n: number): ((i: number) => boolean)[] {
  return Array.from({ length: 2 ** n }, (_, k) => (i: number) => (k & (1 << i)) !== 0);
}

/** For each state, which (valuation, successor) pairs the automaton allows. */
function semantics(aut: HoaAutomaton): string[] {
  const aliases = aliasTable(aut.aliases);
  const out: string[] = [];
  for (const st of aut.states)
    for (const [k, v] of valuations(aut.aps.length).entries())
      for (const e of st.edges) {
        const label = st.label ?? e.label ?? { kind: 't' };
        if (evalLabel(label, v, aliases)) out.push(`${st.id}:${k}->${e.targets.join('&')}{${[...(st.marks ?? []), ...(e.marks ?? [])].sort().join(',')}}`);
      }
  return out.sort();
}

const FULL = `/* a header comment /* nested */ still comment */
HOA: v1
name: "quote \\" and backslash \\\\ inside"
tool: "hand" "1.0"
States: 3
Start: 0
Start: 2
AP: 3 "a" "b c" "d\\"e"
Alias: @x 0 & !1
Alias: @y @x | 2
acc-name: generalized-Buchi 2
Acceptance: 2 Inf(0)&Inf(1)
properties: trans-labels explicit-labels trans-acc
spot-extra: 1 "two" three
--BODY--
State: 0 "start"
[@x] 1 {0}
[!@x & t] 0
State: 1 {1}
[@y | (0 & 1)] 2
[!(@y | (0 & 1))] 1 {0}
State: 2
[f] 0
[t] 2 {0 1}
--END--
`;

describe('HOA reader', () => {
  test('parses headers, aliases, comments, escaped strings and marks', () => {
    const a = parseHoa(FULL);
    expect(a.name).toBe('quote " and backslash \\ inside');
    expect(a.tool).toEqual(['hand', '1.0']);
    expect(a.start).toEqual([[0], [2]]);
    expect(a.aps).toEqual(['a', 'b c', 'd"e']);
    expect(a.aliases.map((x) => x.name)).toEqual(['x', 'y']);
    expect(a.accName).toEqual({ name: 'generalized-Buchi', params: [{ kind: 'int', value: 2 }] });
    expect(a.acceptance).toEqual({
      kind: 'and',
      args: [
        { kind: 'Inf', set: 0, complemented: false },
        { kind: 'Inf', set: 1, complemented: false },
      ],
    });
    expect(a.otherHeaders).toEqual([
      { name: 'spot-extra', values: [{ kind: 'int', value: 1 }, { kind: 'string', value: 'two' }, { kind: 'identifier', value: 'three' }] },
    ]);
    expect(a.states.map((s) => [s.id, s.name, s.marks, s.edges.length])).toEqual([
      [0, 'start', undefined, 2],
      [1, undefined, [1], 2],
      [2, undefined, undefined, 2],
    ]);
    // @x = a & !b
    const x = a.states[0].edges[0].label!;
    const ev = (v: boolean[]) => evalLabel(x, (i) => v[i], aliasTable(a.aliases));
    expect(ev([true, false, false])).toBe(true);
    expect(ev([true, true, false])).toBe(false);
  });

  test('printing and re-reading keeps data and meaning', () => {
    const a = parseHoa(FULL);
    const b = parseHoa(printHoa(a));
    expect(b).toEqual(a);
    expect(semantics(b)).toEqual(semantics(a));
  });

  test('implicit labels follow the valuation order (AP 0 is the low bit)', () => {
    const a = parseHoa(`HOA: v1
States: 4
Start: 0
AP: 2 "p" "q"
Acceptance: 0 t
properties: implicit-labels
--BODY--
State: 0
0 1 2 3
State: 1
1 1 1 1
State: 2
2 2 2 2
State: 3
3 3 3 3
--END--`);
    const [, p_not_q] = valuations(2); // k = 1: p true, q false
    const targets = a.states[0].edges.filter((e) => evalLabel(e.label!, p_not_q)).map((e) => e.targets[0]);
    expect(targets).toEqual([1]);
    const both = valuations(2)[3];
    expect(a.states[0].edges.filter((e) => evalLabel(e.label!, both)).map((e) => e.targets[0])).toEqual([3]);
    expect(parseHoa(printHoa(a)).states).toEqual(a.states);
    expect(printHoa(a)).not.toContain('implicit-labels');
  });

  test('state labels, state-based marks, universal branching and conjunctive starts are kept', () => {
    const a = parseHoa(`HOA: v1
States: 2
Start: 0 & 1
AP: 1 "a"
Acceptance: 1 Fin(0) | Inf(!0)
--BODY--
State: [0] 0 {0}
1
0&1
State: [!0] 1
1
--END--`);
    expect(a.start).toEqual([[0, 1]]);
    expect(a.acceptance.kind).toBe('or');
    expect(a.states[0].label).toEqual({ kind: 'ap', index: 0 });
    expect(a.states[0].edges[1].targets).toEqual([0, 1]);
    expect(parseHoa(printHoa(a))).toEqual(a);
    expect(() => hoaToTgba(a)).toThrow(/generalized Büchi/);
    expect(() => hoaToTgba({ ...a, acceptance: { kind: 't' } })).toThrow(/universal/);
  });

  test('streams hold several automata', () => {
    const one = 'HOA: v1 AP: 0 Acceptance: 0 t --BODY-- State: 0 [t] 0 --END--';
    const auts = parseHoaStream(`${one}\n${one.replace('State: 0 [t] 0', 'State: 0 [f] 0')}\n`);
    expect(auts.map((x) => x.states[0].edges[0].label!.kind)).toEqual(['t', 'f']);
  });

  test('Mealy conversion splits each DNF cube into its input and output part', () => {
    // (i & o1) | (!i & o2) must not allow (i, o2).
    const a = parseHoa(`HOA: v1
States: 1
Start: 0
AP: 3 "i" "o1" "o2"
acc-name: all
Acceptance: 0 t
controllable-AP: 1 2
--BODY--
State: 0
[(0 & 1) | (!0 & 2)] 0
--END--`);
    const m = hoaToMealy(a);
    expect(m.inputs).toEqual(['i']);
    expect(m.outputs).toEqual(['o1', 'o2']);
    expect(m.transitions).toEqual([
      { from: 0, input: { i: true }, output: { o1: true }, to: 0 },
      { from: 0, input: { i: false }, output: { o2: true }, to: 0 },
    ]);
    const allowed = (v: Record<string, boolean>) =>
      m.transitions.some((t) => cubeMatches(t.input, (n) => v[n]) && cubeMatches(t.output, (n) => v[n]));
    expect(allowed({ i: true, o1: false, o2: true })).toBe(false);
    expect(allowed({ i: true, o1: true, o2: true })).toBe(true);
  });

  test('Mealy conversion is exact for arbitrary labels (property)', () => {
    const n = 4; // APs 0,1 inputs; 2,3 outputs
    const label: fc.Arbitrary<HoaLabel> = fc.letrec<{ l: HoaLabel }>((tie) => ({
      l: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.integer({ min: 0, max: n - 1 }).map((index): HoaLabel => ({ kind: 'ap', index })),
        fc.constantFrom<HoaLabel>({ kind: 't' }, { kind: 'f' }),
        tie('l').map((arg): HoaLabel => ({ kind: 'not', arg })),
        fc.array(tie('l'), { minLength: 2, maxLength: 3 }).map((args): HoaLabel => ({ kind: 'and', args })),
        fc.array(tie('l'), { minLength: 2, maxLength: 3 }).map((args): HoaLabel => ({ kind: 'or', args })),
      ),
    })).l;
    fc.assert(
      fc.property(label, (l) => {
        const aut: HoaAutomaton = {
          version: 'v1',
          start: [[0]],
          aps: ['i0', 'i1', 'o0', 'o1'],
          aliases: [],
          acceptanceSets: 0,
          acceptance: { kind: 't' },
          properties: [],
          controllableAps: [2, 3],
          otherHeaders: [],
          states: [{ id: 0, edges: [{ label: l, targets: [0] }] }],
        };
        const m = hoaToMealy(parseHoa(printHoa(aut)));
        for (const v of valuations(n)) {
          const byName = (name: string) => v(['i0', 'i1', 'o0', 'o1'].indexOf(name));
          const inMachine = m.transitions.some((t) => cubeMatches(t.input, byName) && cubeMatches(t.output, byName));
          expect(inMachine).toBe(evalLabel(l, v));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('labelCubes agrees with evaluation (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: -3, max: 3 }), { maxLength: 3 }), { maxLength: 4 }), (clauses) => {
        // A CNF over 3 APs (literal ±(k+1)); its DNF must have the same models.
        const lit = (x: number): HoaLabel =>
          x > 0 ? { kind: 'ap', index: x - 1 } : { kind: 'not', arg: { kind: 'ap', index: -x - 1 } };
        const l: HoaLabel = {
          kind: 'and',
          args: clauses.map((c) => ({ kind: 'or', args: c.filter((x) => x !== 0).map(lit) }) as HoaLabel),
        };
        const cubes = labelCubes(l, 3);
        for (const v of valuations(3)) {
          const byCube = cubes.some((c) => [...c].every((x, i) => x === 0 || (x === 1) === v(i)));
          expect(byCube).toBe(evalLabel(l, v));
        }
      }),
    );
  });

  test('generalized Büchi automata convert to Tgba and back', () => {
    const a = parseHoa(FULL);
    const t = hoaToTgba(a);
    expect(t.accSets).toBe(2);
    expect(t.initial).toEqual([0, 2]);
    expect(t.edges[1].map((e) => e.marks)).toEqual([[1], [0, 1]]); // state mark 1 on every edge
    const back = parseHoa(printHoa(tgbaToHoa(t)));
    const t2 = hoaToTgba(back);
    expect(t2.edges.map((es) => es.map((e) => [e.to, e.marks]))).toEqual(t.edges.map((es) => es.map((e) => [e.to, e.marks])));
    for (const [s, es] of t.edges.entries())
      for (const [j, e] of es.entries())
        for (const v of valuations(3)) {
          const byName = (n: string) => v(t.aps.indexOf(n));
          expect(evalPropositional(t2.edges[s][j].guard, byName)).toBe(evalPropositional(e.guard, byName));
        }
  });

  test('acceptance conditions other than generalized Büchi stay data', () => {
    const a = parseHoa(`HOA: v1 States: 1 Start: 0 AP: 0 acc-name: Rabin 1 Acceptance: 2 Fin(0) & Inf(1) --BODY-- State: 0 [t] 0 {1} --END--`);
    expect(a.accName?.name).toBe('Rabin');
    expect(() => hoaToTgba(a)).toThrow(/generalized Büchi/);
  });

  test('Mealy → HOA → Mealy is the identity', () => {
    const m: MealyMachine = {
      inputs: ['req', 'weird "name"'],
      outputs: ['grant'],
      stateCount: 2,
      initial: 1,
      transitions: [
        { from: 0, input: { req: true }, output: { grant: true }, to: 1 },
        { from: 0, input: { req: false }, output: {}, to: 0 },
        { from: 1, input: {}, output: { grant: false }, to: 0 },
      ],
    };
    const text = printHoa(mealyToHoa(m));
    expect(text).toContain('controllable-AP: 2');
    expect(hoaToMealy(parseHoa(text))).toEqual(m);
  });
});

describe('HOA reader errors', () => {
  const HEAD = 'HOA: v1\nStates: 2\nStart: 0\nAP: 1 "a"\nAcceptance: 1 Inf(0)\n--BODY--\n';
  const cases: [string, string, RegExp, number, number][] = [
    ['missing HOA', 'States: 1\n', /expected 'HOA: v1'/, 1, 1],
    ['bad version', 'HOA: v2\n', /unsupported HOA version 'v2'/, 1, 6],
    ['AP count', 'HOA: v1\nAP: 2 "a"\nAcceptance: 0 t\n--BODY--\n--END--', /declares 2 propositions but lists 1/, 2, 5],
    ['AP out of range', HEAD + 'State: 0\n[1] 1\n--END--', /atomic proposition 1 does not exist/, 8, 2],
    ['state out of range', HEAD + 'State: 0\n[0] 5\n--END--', /state 5 is out of range/, 8, 5],
    ['acc set out of range', HEAD + 'State: 0\n[0] 1 {3}\n--END--', /acceptance set 3 is out of range/, 8, 8],
    ['undefined alias', HEAD + 'State: 0\n[@nope] 1\n--END--', /alias @nope is used but not defined/, 8, 2],
    ['unterminated string', 'HOA: v1\nname: "abc\n', /unterminated string/, 2, 7],
    ['unterminated comment', 'HOA: v1 /* never closed', /unterminated comment/, 1, 9],
    ['missing --END--', HEAD + 'State: 0\n[0] 1\n', /expected 'State:' or --END--, found end of input/, 9, 1],
    ['unclosed label', HEAD + 'State: 0\n[0 & 1\n', /expected '\]'/, 9, 1],
    ['bad label token', HEAD + 'State: 0\n[0 & x] 1\n--END--', /expected a label/, 8, 6],
    ['mixed labels', HEAD + 'State: 0\n[0] 1\n0\n--END--', /mixes labelled and unlabelled edges/, 8, 1],
    ['implicit count', HEAD + 'State: 0\n1\n--END--', /implicit labels need exactly 2/, 8, 1],
    ['duplicate state', HEAD + 'State: 0\n[t] 1\nState: 0\n--END--', /state 0 is declared twice/, 9, 8],
    ['no acceptance', 'HOA: v1\nAP: 0\n--BODY--\n--END--', /missing 'Acceptance:'/, 1, 1],
    ['abort', HEAD + 'State: 0\n--ABORT--', /aborted/, 8, 1],
    ['trailing garbage', HEAD + '--END--\nhello', /unexpected text after --END--/, 8, 1],
    ['leading zero', 'HOA: v1\nStates: 01\n', /leading zero/, 2, 9],
  ];
  test.each(cases)('%s', (_name, text, message, line, col) => {
    let caught: unknown;
    try {
      parseHoa(text, { file: 'bad.hoa' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    const d = (caught as UserError).diagnostics[0];
    expect(d.message).toMatch(message);
    expect(d.span).toMatchObject({ file: 'bad.hoa', line, col });
  });

  test('Mealy conversion explains what is missing', () => {
    const noCtrl = parseHoa('HOA: v1 States: 1 Start: 0 AP: 1 "a" Acceptance: 0 t --BODY-- State: 0 [t] 0 --END--');
    expect(() => hoaToMealy(noCtrl)).toThrow(/controllable-AP/);
    const buchi = parseHoa('HOA: v1 States: 1 Start: 0 AP: 1 "a" Acceptance: 1 Inf(0) controllable-AP: 0 --BODY-- State: 0 [t] 0 --END--');
    expect(() => hoaToMealy(buchi)).toThrow(/acceptance condition is not 't'/);
    const twoStarts = parseHoa('HOA: v1 States: 2 Start: 0 Start: 1 AP: 1 "a" Acceptance: 0 t controllable-AP: 0 --BODY-- --END--');
    expect(() => hoaToMealy(twoStarts)).toThrow(/exactly one initial state/);
  });
});
