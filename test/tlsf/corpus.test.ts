import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exactlyOne, specFormula } from '../../src/game/spec.js';
import { and, ap, F, G, iff, implies, not, or } from '../../src/ltl/formula.js';
import { loadTlsfGame, readTlsfStatus as readTlsfStatusFor } from '../../src/tlsf/index.js';
import { decodeInput, decodeOutput } from '../../src/tlsf/tsltools.js';
import { CORPUS_DIR } from '../support/corpus.js';

const CORPUS = CORPUS_DIR;
const folders = ['syntcomp-tsl', 'syntcomp-tsl-paper', 'ltlsynt-hoa'];
const files = existsSync(CORPUS)
  ? folders.flatMap((d) => readdirSync(`${CORPUS}/${d}`).filter((f) => f.endsWith('.tlsf')).map((f) => `${CORPUS}/${d}/${f}`))
  : [];

describe.skipIf(files.length === 0)('the corpus', () => {
  it('parses every .tlsf and reads every //STATUS as the manifest says', () => {
    const manifest = new Map(
      readFileSync(`${CORPUS}/manifest.tsv`, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split('\t'))
        .map(([spec, , , status]) => [`${CORPUS}/${spec}.tlsf`, status]),
    );
    let withStatus = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const game = loadTlsfGame(file, text);
      expect(game.guarantees.length + game.assumptions.length).toBeGreaterThan(0);
      const status = readTlsfStatusFor(text);
      const expected = manifest.get(file);
      if (expected !== undefined) expect(status ?? 'unknown').toBe(expected);
      if (status) withStatus++;
    }
    expect(files.length).toBeGreaterThanOrEqual(331);
    expect(withStatus).toBeGreaterThanOrEqual(300);
  });

  it('recovers the signal groups of every tsltools file with outputs whose formula is not constant', () => {
    let recovered = 0;
    for (const file of files.filter((f) => f.includes('/syntcomp-tsl/'))) {
      const game = loadTlsfGame(file, readFileSync(file, 'utf8'));
      if (game.outputs.length === 0 || game.guarantees.every((g) => g.formula.kind === 'false')) continue;
      const grouped = game.signals.flatMap((s) => s.updates);
      expect(new Set(grouped).size).toBe(grouped.length);
      expect(new Set(grouped)).toEqual(new Set(game.outputs.map((o) => o.name)));
      for (const s of game.signals) {
        for (const u of s.updates) expect(decodeOutput(u)?.signal).toBe(s.signal);
        expect(s.selfUpdate && decodeOutput(s.selfUpdate)?.isSelfUpdate).toBe(true);
      }
      recovered++;
    }
    expect(recovered).toBeGreaterThan(150);
  });
});

describe('tsltools shape', () => {
  // Exactly-one written the way tsltools writes it (nested <->), plus a `G(u)` fact that must
  // stay a formula, and the `G(cells) && (A -> G)` top level.
  const text = `INFO { TITLE: "x" DESCRIPTION: "y" SEMANTICS: Mealy TARGET: Mealy }
MAIN {
  INPUTS { p0p0event0click; p0b0ready; }
  OUTPUTS { u0count0count; u0count0f1dincrement0count1b; u0pic0pic; u0pic0f1drender2button0count1b; u0pic0f1dclear1b; }
  GUARANTEE {
    (G ((! (((u0count0count) && (! (u0count0f1dincrement0count1b))) <-> ((u0count0f1dincrement0count1b) && (! (u0count0count))))) && (! (((u0pic0f1dclear1b) && (! ((u0pic0f1drender2button0count1b) || (u0pic0pic)))) <-> ((! (((u0pic0f1drender2button0count1b) && (! (u0pic0pic))) <-> ((u0pic0pic) && (! (u0pic0f1drender2button0count1b))))) && (! (u0pic0f1dclear1b))))))) && ((G (F p0b0ready)) -> ((G ((p0p0event0click) <-> (u0count0f1dincrement0count1b))) && (G (u0pic0f1drender2button0count1b))));
  }
}`;
  it('turns the exactly-one constraint into signals and splits assumptions from guarantees', () => {
    const game = loadTlsfGame('b.tlsf', text);
    expect(game.signals).toEqual([
      { signal: 'count', updates: ['u0count0count', 'u0count0f1dincrement0count1b'], selfUpdate: 'u0count0count' },
      {
        signal: 'pic',
        updates: ['u0pic0f1dclear1b', 'u0pic0f1drender2button0count1b', 'u0pic0pic'],
        selfUpdate: 'u0pic0pic',
      },
    ]);
    const ready = ap('p0b0ready');
    const click = ap('p0p0event0click');
    const inc = ap('u0count0f1dincrement0count1b');
    const render = ap('u0pic0f1drender2button0count1b');
    expect(game.assumptions.map((p) => p.formula)).toEqual([G(F(ready))]);
    expect(new Set(game.guarantees.map((p) => p.formula))).toEqual(new Set([G(iff(click, inc)), G(render)]));
    // The recovered game means exactly what the file says.
    const cells = and(...game.signals.map((s) => exactlyOne(s.updates)));
    expect(specFormula(game)).toBe(and(G(cells), implies(G(F(ready)), and(G(iff(click, inc)), G(render)))));
    // …and the dropped constraint really was "exactly one update per cell".
    const pic = ['u0pic0f1dclear1b', 'u0pic0f1drender2button0count1b', 'u0pic0pic'].map((n) => ap(n));
    expect(exactlyOne(game.signals[1].updates)).toBe(and(or(...pic), not(and(pic[0], pic[1])), not(and(pic[0], pic[2])), not(and(pic[1], pic[2]))));
  });
  it('decodes updates and predicates into TSL terms', () => {
    const game = loadTlsfGame('b.tlsf', text);
    expect(game.outputs.find((o) => o.name === 'u0pic0f1drender2button0count1b')).toEqual({
      name: 'u0pic0f1drender2button0count1b',
      term: '[pic <- renderButton count]',
      update: { signal: 'pic', term: { kind: 'call', fn: 'renderButton', args: [{ kind: 'signal', name: 'count' }] }, isSelfUpdate: false },
    });
    expect(game.inputs[0]).toMatchObject({ term: 'event click', predicate: { fn: 'event', args: [{ kind: 'signal', name: 'click' }] } });
    expect(decodeOutput('u02alarm29control0f1d2alarm29turn2on1b')).toEqual({
      signal: 'Alarm.control',
      term: { kind: 'call', fn: 'Alarm.turnOn', args: [] },
      isSelfUpdate: false,
    });
    expect(decodeInput('p0p0between0t29pm70t29pm8')).toEqual({
      fn: 'between',
      args: [{ kind: 'signal', name: 't.pm7' }, { kind: 'signal', name: 't.pm8' }],
    });
    expect(decodeOutput('x0a0b')).toBeUndefined();
  });
  it('leaves files without the constraint alone', () => {
    const plain = text.replace(/GUARANTEE \{[^}]*\}/, 'GUARANTEE { (G (F p0b0ready)) -> (G (u0pic0f1drender2button0count1b)); }');
    expect(plain).not.toBe(text);
    expect(loadTlsfGame('b.tlsf', plain).signals).toEqual([]);
    expect(loadTlsfGame('b.tlsf', text, { recoverSignals: false }).signals).toEqual([]);
  });
});
