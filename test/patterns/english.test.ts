/**
 * The offline English translator beyond the sentence set: grounding (phrasal variants,
 * inflections, multi-word names, closest-match errors, ambiguity), errors that name the closest
 * form, the weak reading of order constraints, and `tslc explain-ltl --english` with `--props`,
 * `--rules`, `--json` and `--model`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { printLtl } from '../../runtime/ltl/print.js';
import { EnglishError, translateConstraint } from '../../runtime/shield/index.js';
import { run as explainLtl } from '../../src/cli/commands/explain-ltl.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { scriptedModel } from '../agent/helpers.js';
import { equivalentInfinite } from './equivalence.js';
import { holds } from './ltlf.js';

const HOME = ['living_room', 'bathroom', 'kitchen', 'bedroom', 'garage', 'dining_room'];
const ltl = (s: string, vocabulary?: readonly string[]) => translateConstraint(s, vocabulary ? { vocabulary } : {}).ltl;
const error = (s: string, vocabulary?: readonly string[]) => {
  try {
    translateConstraint(s, vocabulary ? { vocabulary } : {});
  } catch (e) {
    if (e instanceof EnglishError) return e;
    throw e;
  }
  throw new Error(`"${s}" translated`);
};

describe('grounding', () => {
  it('reads phrasal variants and inflections of going somewhere as the place', () => {
    for (const phrase of ['go to the garage', 'enter the garage', 'walk into the garage', 'entering garage', 'head over to the garage', 'the garage']) {
      expect(ltl(`never ${phrase}`, HOME), phrase).toBe('G !garage');
    }
    expect(ltl('you must not have gone to the garage', HOME)).toBe('G !garage');
    expect(ltl('if you turned off the oven, you must wash your hands later', ['turn_off_oven', 'wash_hands'])).toBe('G (turn_off_oven -> F wash_hands)');
  });

  it('grounds multi-word names to any spelling of them', () => {
    expect(ltl('never walk into the dining room', HOME)).toBe('G !dining_room');
    expect(ltl('never walk into the living room', ['livingroom', 'kitchen'])).toBe('G !livingroom');
    expect(ltl('never walk into the living room', ['at:living_room', 'at:kitchen'])).toBe('G !"at:living_room"');
    expect(ltl('never walk into the living room', ['agent_at(living_room)'])).toBe('G !"agent_at(living_room)"');
    expect(ltl('never turn off the oven', ['turnOffOven', 'turnOnOven'])).toBe('G !turnOffOven');
  });

  it('names the closest propositions when a phrase does not ground, and refuses to guess between two', () => {
    const e = error('never walk into the dinning room', HOME);
    expect(e.suggestions[0]).toBe('dining_room');
    expect(e.message).toMatch(/"walk into the dinning room" does not name a known proposition; closest: 'dining_room'/);
    expect(e.closestForm).toBeUndefined();
    const two = error('verify the identity before refunding', ['call:verify_identity', 'ok:verify_identity', 'call:refund']);
    expect(two.message).toMatch(/ambiguous: it could be 'call:verify_identity' or 'ok:verify_identity'/);
  });

  it('without a vocabulary, names propositions after the words (tool calls as call:…)', () => {
    expect(ltl('never turn off the oven')).toBe('G !turn_off_oven');
    expect(ltl('never walk into the living room')).toBe('G !living_room');
    expect(ltl('you must not call refund')).toBe('G !"call:refund"');
    expect(ltl('never call:delete_file before call:backup')).toBe('!"call:delete_file" W "call:backup"');
  });
});

describe('forms and errors', () => {
  it('reads several sentences as one conjunction, each with its form', () => {
    const t = translateConstraint('Never enter the garage. Always stay in the kitchen; visit the bedroom at least once.', { vocabulary: HOME });
    expect(t.forms).toEqual(['prohibition', 'obligation', 'counting']);
    expect(equivalentInfinite(t.formula, parseLtl('G !garage & G kitchen & F bedroom'))).toBe(true);
    expect(t.english).toBe('garage never happens; and kitchen always holds; and bedroom eventually happens');
  });

  it('a leading condition governs every consequence joined by "and"', () => {
    const t = translateConstraint('if you enter the kitchen then never enter the garage and always stay in the bedroom', { vocabulary: HOME });
    expect(equivalentInfinite(t.formula, parseLtl('G (kitchen -> G !garage) & G (kitchen -> G bedroom)'))).toBe(true);
    expect(ltl('the garage must never be entered', HOME)).toBe('G !garage');
    expect(ltl('you should wash your hands immediately after entering the bathroom', ['wash_hands', 'bathroom'])).toBe('G (bathroom -> X wash_hands)');
    expect(ltl('never enter the garage right after the kitchen', HOME)).toBe('G (kitchen -> !X garage)');
  });

  it('keeps pattern-library sentences and their documented meaning', () => {
    const t = translateConstraint('call:refund only after result:verified');
    expect(t.via).toBe('pattern');
    expect(t.ltl).toBe('!"call:refund" W "result:verified"');
    // Dwyer's "before R" scope stays as documented (only traces where R comes are constrained).
    expect(ltl('p never happens before r')).toBe('F r -> !p U r');
  });

  it('reads "A before B" without obliging A or B (weak until), as the paper does', () => {
    const f = translateConstraint('you have to enter the living room before the bathroom', { vocabulary: HOME }).formula;
    expect(printLtl(f)).toBe('!bathroom W living_room');
    expect(holds(f, [['kitchen'], ['bedroom']])).toBe(true); // neither: satisfied
    expect(holds(f, [['bathroom'], ['living_room']])).toBe(false);
    expect(holds(f, [['living_room'], ['bathroom']])).toBe(true);
  });

  it('fails with the closest supported form, never with a guess', () => {
    const cases: [string, string][] = [
      ['you may enter the kitchen', 'obligation'],
      ['go to the kitchen twice', 'counting'],
      ['if you have not been to the kitchen, you must go to the garage', 'response'],
      ['never go to the kitchen at most twice', 'counting'],
    ];
    for (const [s, form] of cases) {
      const e = error(s, HOME);
      expect(e.closestForm, s).toBe(form);
      expect(e.message).toContain(`Closest supported form: ${form}`);
    }
    expect(error('the robot should sing while cooking dinner').message).toMatch(/contains "while"/);
    expect(error('payment forever and not forever').message).toMatch(/cannot translate/);
    expect(error('   ').message).toMatch(/empty/);
  });
});

describe('tslc explain-ltl --english', () => {
  const out: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    out.length = 0;
  });
  const capture = () =>
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });

  it('prints { ltl, english } with --json, grounded to --props', async () => {
    capture();
    expect(await explainLtl({ text: 'you have to enter living room before bathroom', english: true, props: ['living_room,bathroom', 'kitchen'], json: true })).toBe(0);
    const j = JSON.parse(out.join('')) as { ltl: string; english: string; via: string };
    expect(j).toMatchObject({ ltl: '!bathroom W living_room', english: 'bathroom only after living_room', via: 'english' });
  });

  it('grounds to the propositions of a rules file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tslc-english-'));
    const rules = join(dir, 'rules.ltl');
    writeFileSync(rules, 'one-refund: call:refund happens at most 1 times\nverified: G ("call:refund" -> "ok:verify_identity")\n');
    capture();
    expect(await explainLtl({ text: 'never refund before verify identity succeeds', english: true, rules: [rules] })).toBe(0);
    expect(out.join('')).toContain('!"call:refund" W "ok:verify_identity"');
    await expect(explainLtl({ text: 'never send emails', english: true, rules: [rules] })).rejects.toThrow(/does not name a known proposition/);
  });

  it('uses --model only for what the offline translator cannot read, and says so', async () => {
    capture();
    const model = scriptedModel(['kitchen\nbathroom', 'G (p1 -> F p2)']);
    expect(await explainLtl({ text: 'kitchen visits call for a bathroom trip', english: true, props: ['kitchen,bathroom'], model: 'scripted' }, { createModel: () => model })).toBe(0);
    expect(out.join('')).toContain('G (kitchen -> F bathroom)\n  reads back as: every kitchen is followed by bathroom\n  translated by the model test:scripted (simulated): check it before use');
    out.length = 0;
    const unused = scriptedModel([]);
    expect(await explainLtl({ text: 'never enter the kitchen', english: true, model: '' }, { createModel: () => unused })).toBe(0);
    expect(unused.requests).toHaveLength(0);
  });

  it('reports model and usage errors as diagnostics', async () => {
    // The simulated model plays the adventure world; it cannot translate, and says so.
    const sim = await explainLtl({ text: 'kitchen visits call for a bathroom trip', english: true, model: 'sim' }).catch((e: unknown) => e);
    expect(sim).toBeInstanceOf(UserError);
    expect((sim as UserError).message).toMatch(/the model could not translate/);
    await expect(explainLtl({ text: 'x', english: true, model: 'nonsense:' })).rejects.toThrow(/invalid model/);
    await expect(explainLtl({ text: 'G a', props: ['a'] })).rejects.toThrow(/go with --english/);
    // A phrase that does not ground is pointed at, like a formula's syntax error.
    const e = await explainLtl({ text: 'Never walk into the dinning room', english: true, props: ['dining_room'] }).catch((x: unknown) => x);
    expect((e as UserError).diagnostics[0].span).toEqual({ file: '<sentence>', line: 1, col: 7, length: 26 });
  });
});
