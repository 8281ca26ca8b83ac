/**
 * Real ltlsynt controllers from the corpus must pass the independent check, and mutated copies
 * (one output bit flipped) must be rejected whenever the mutation matters — judged by the LTL
 * semantics on the reported lasso, not by the checker itself. Multi-MB controllers are left to
 * the HOA test suite; here we keep to the small ones so the area stays fast.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateOnLasso, type Lasso } from '../../src/automata/lasso.js';
import { parseHoa } from '../../src/automata/hoa.js';
import { hoaToMealy } from '../../src/automata/hoa-convert.js';
import type { MealyMachine } from '../../src/game/mealy.js';
import { type GameSpec, specFormula } from '../../src/game/spec.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { type ControllerStep, verifyController } from '../../src/verify/index.js';
import { prng } from '../automata/random-ltl.js';
import { corpusPath } from '../support/corpus.js';

const DIR = corpusPath('ltlsynt-hoa') + '/';
const SMALL = 40_000;
const files = existsSync(DIR)
  ? readdirSync(DIR)
      .filter((f) => f.endsWith('.hoa') && statSync(DIR + f).size < SMALL)
      .sort()
  : [];

function load(stem: string): { spec: GameSpec; m: MealyMachine } {
  const spec = loadTlsfGame(DIR + stem + '.tlsf', readFileSync(DIR + stem + '.tlsf', 'utf8'));
  const text = readFileSync(DIR + stem + '.hoa', 'utf8').replace(/^REALIZABLE\s*\n/, '');
  return { spec, m: hoaToMealy(parseHoa(text)) };
}

function wordOf(cx: { prefix: ControllerStep[]; cycle: ControllerStep[] }): Lasso {
  const letter = (s: ControllerStep) => new Set([...Object.entries(s.inputs), ...Object.entries(s.outputs)].filter(([, v]) => v).map(([k]) => k));
  return { prefix: cx.prefix.map(letter), cycle: cx.cycle.map(letter) };
}

describe.skipIf(files.length === 0)('corpus ltlsynt controllers', () => {
  it(`all ${files.length} small controllers pass the independent check`, () => {
    for (const f of files) {
      const { spec, m } = load(f.slice(0, -4));
      const res = verifyController(spec, m);
      expect(res.ok ? 'ok' : `${f}: ${res.kind}: ${res.message}`).toBe('ok');
    }
  });

  it('rejects mutated controllers with genuine counterexamples', () => {
    const rand = prng(31337);
    let rejected = 0;
    for (const f of files) {
      const { spec, m } = load(f.slice(0, -4));
      for (let k = 0; k < 2; k++) {
        const i = Math.floor(rand() * m.transitions.length);
        const t = m.transitions[i];
        const names = Object.keys(t.output);
        if (names.length === 0) continue;
        const flip = names[Math.floor(rand() * names.length)];
        const mutated: MealyMachine = {
          ...m,
          transitions: m.transitions.map((x, j) => (j === i ? { ...x, output: { ...x.output, [flip]: !x.output[flip] } } : x)),
        };
        const res = verifyController(spec, mutated);
        if (res.ok) continue; // the flipped output may be irrelevant
        expect(res.kind).toBe('violation');
        expect(evaluateOnLasso(specFormula(spec), wordOf(res.counterexample!))).toBe(false);
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(files.length / 2);
  });
});
