/**
 * Plan questions (issue 21 item 3): a bare "will you …?" means at some point in the plan, names
 * of several words ground to the plan's steps, and every question form answers as the direct
 * LTLf semantics of its hand-written formula says, on every short plan.
 */
import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import { askAboutPlan } from '../../runtime/shield/index.js';
import { holds } from '../patterns/ltlf.js';

const labelCall = (c: { tool: string }) => [c.tool];

describe('askAboutPlan', () => {
  it('reads "will you go to X?" as "at some point", not "at the first step"', () => {
    const r = askAboutPlan('Will you go to the bedroom?', ['kitchen', 'bedroom'], { labelCall });
    expect(r.answer).toBe(true);
    expect(r.ltl).toBe('F bedroom');
    expect(askAboutPlan('Will you go to the bedroom?', ['kitchen', 'bathroom'], { labelCall }).answer).toBe(false);
    // Without a labeler the steps are tool calls: the question grounds to `call:bedroom`.
    expect(askAboutPlan('Will you go to the bedroom?', ['kitchen', 'bedroom']).answer).toBe(true);
  });

  it('grounds unquoted multi-word places to the plan steps', () => {
    const plan = ['kitchen', 'living room', 'bathroom'];
    expect(askAboutPlan('Will you go to the living room?', plan, { labelCall })).toMatchObject({ answer: true, ltl: 'F "living room"' });
    expect(askAboutPlan('will you walk into the living room before the bathroom', plan, { labelCall }).answer).toBe(true);
    expect(askAboutPlan('Will you enter the bathroom before the living room?', plan, { labelCall }).answer).toBe(false);
    const snake = ['kitchen', 'living_room'];
    expect(askAboutPlan('Are you going to visit the living room?', snake, { labelCall })).toMatchObject({ answer: true, ltl: 'F living_room' });
  });

  it('says when a place is not in the plan, with the closest names', () => {
    const r = askAboutPlan('Will you go to the bathrom?', ['kitchen', 'bathroom'], { labelCall });
    expect(r.answer).toBe(false);
    expect(r.explanation).toContain('"go to the bathrom" is not in the plan; closest: bathroom');
    expect(askAboutPlan('Will you never go to the garage?', ['kitchen'], { labelCall }).answer).toBe(true);
  });

  // [question, hand-written formula over rooms a, b]
  const FORMS: [string, string][] = [
    ['Will you go to the attic?', 'F attic'],
    ['Will you ever visit the attic?', 'F attic'],
    ['Will you go to the attic first?', 'attic'],
    ['Will you go to the attic at the end?', 'F (attic & !X true)'],
    ['Will you never enter the attic?', 'G !attic'],
    ['Will you avoid the attic?', 'G !attic'],
    ['Will you go to the attic before the cellar?', '!cellar U (attic & !cellar)'],
    ['Will you go to the attic after the cellar?', 'F (cellar & X F attic)'],
    ['Will you go to the cellar and then the attic?', 'F (cellar & X F attic)'],
    ['Will you visit the attic and the cellar?', 'F attic & F cellar'],
    ['Will you visit the attic or the cellar?', 'F (attic | cellar)'],
    ['Will you go to the attic twice?', 'F (attic & X F attic)'],
    ['Will you go to the attic at most once?', '!F (attic & X F attic)'],
    ['Will you go to the attic exactly once?', 'F attic & !F (attic & X F attic)'],
  ];
  const rooms = ['attic', 'cellar', 'hall'];
  const plans: string[][] = [[]];
  for (let len = 1; len <= 3; len++) {
    for (let k = 0; k < rooms.length ** len; k++) plans.push(Array.from({ length: len }, (_, i) => rooms[Math.floor(k / rooms.length ** i) % rooms.length]));
  }
  for (const [question, ltl] of FORMS) {
    it(`answers "${question}" on every plan as ${ltl} says`, () => {
      const f = parseLtl(ltl);
      for (const plan of plans.filter((p) => p.length > 0)) {
        const r = askAboutPlan(question, plan, { labelCall, tools: rooms });
        expect(r.answer, `${question} on [${plan.join(', ')}]`).toBe(holds(f, plan.map((s) => [s])));
      }
    });
  }

  it('reads constraint sentences and LTL too, and rejects what it cannot read', () => {
    expect(askAboutPlan('Will you not go to the cellar until you have been to the attic?', ['attic', 'cellar'], { labelCall }).answer).toBe(true);
    expect(askAboutPlan('Will you not go to the cellar until you have been to the attic?', ['cellar', 'attic'], { labelCall }).answer).toBe(false);
    expect(askAboutPlan('G !cellar', ['attic'], { labelCall }).answer).toBe(true);
    expect(() => askAboutPlan('Will you?', ['attic'], { labelCall })).toThrow(/question/);
  });
});
