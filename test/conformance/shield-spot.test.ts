/**
 * Conformance of the tool-call shield's decisions with Spot 2.12.1 (how Spot decides them:
 * spot-monitor/shield.ts). On rule sets drawn from Spot's `genltl --dac-patterns` and `randltl`,
 * over three tools and one result event, after every prefix of every history:
 * - each proposed event (none, a call of each tool, the result) is allowed exactly when Spot finds
 *   a finite continuation of single events satisfying every rule (LTLf), and `check(tool)` decides
 *   as `checkEvent` of the call's proposition;
 * - `status().satisfied` is Spot's LTLf verdict on the trace so far.
 * A denial the rules do not force blocks an agent for nothing; an allowance they forbid breaks the
 * guarantee: both count. `SPOT_SHIELD_FIXTURES=write` (scripts/spot-shield-fixtures.mjs) records
 * test/fixtures/spot/shield-ltlf.jsonl again.
 */
import { describe, expect, it } from 'vitest';
import { parseLtl } from '../../runtime/ltl/parse.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import { Shield } from '../../runtime/shield/shield.js';
import {
  candidates,
  HISTORY_LENGTH,
  RANDLTL_RULES,
  readShieldRecords,
  recordShieldFixture,
  RULE_SETS,
  SHIELD_SEED,
  type ShieldRecord,
  writeShieldRecords,
} from './spot-monitor/shield.js';
import { spotVersion } from './spot-monitor/spot.js';

const records = readShieldRecords();
/** The recorded propositions as a shield sees them. */
const NAMES: Readonly<Record<string, string>> = { p0: 'call:t0', p1: 'call:t1', p2: 'call:t2', p3: 'result:r0' };
const TOOLS = ['t0', 't1', 't2'];

function renamed(n: LtlNode): LtlNode {
  switch (n.op) {
    case 'true':
    case 'false':
      return n;
    case 'ap':
      return { op: 'ap', name: NAMES[n.name] ?? n.name };
    case '!':
    case 'X':
    case 'F':
    case 'G':
      return { op: n.op, arg: renamed(n.arg) };
    case '&':
    case '|':
      return { op: n.op, args: n.args.map(renamed) };
    default:
      return { op: n.op, left: renamed(n.left), right: renamed(n.right) };
  }
}

const event = (letter: readonly string[]) => letter.map((p) => NAMES[p]);

/** Where the shield's decisions differ from `expected` (Spot's, unless a test says otherwise). */
function shieldProblems(subject: readonly ShieldRecord[], expectedAllowed: (allowed: boolean) => boolean = (a) => a): string[] {
  const problems: string[] = [];
  for (const r of subject) {
    for (const h of r.histories) {
      const shield = new Shield(
        r.rules.map((ltl, i) => ({ name: `r${i}`, ltl: renamed(parseLtl(ltl)) })),
        { tools: TOOLS },
      );
      const where = (k: number) => `rules ${JSON.stringify(r.rules)}, ${h.kind} history ${JSON.stringify(h.letters.slice(0, k))}`;
      for (let k = 0; k <= HISTORY_LENGTH; k++) {
        candidates().forEach((c, ci) => {
          const ours = shield.checkEvent(event(c)).allowed;
          const spot = expectedAllowed(h.allowed[k][ci]);
          if (ours !== spot) problems.push(`${where(k)}: event ${JSON.stringify(event(c))} Spot ${spot ? 'allowed' : 'denied'}, ours ${ours ? 'allowed' : 'denied'}`);
          const tool = c.length === 1 ? TOOLS[Number(c[0].slice(1))] : undefined;
          if (tool !== undefined && shield.check(tool).allowed !== ours) problems.push(`${where(k)}: check('${tool}') differs from checkEvent`);
        });
        if (k === HISTORY_LENGTH) break;
        shield.observe(event(h.letters[k]));
        const satisfied = shield.status().satisfied;
        if (satisfied !== h.satisfied[k]) problems.push(`${where(k + 1)}: status Spot ${h.satisfied[k] ? 'satisfied' : 'not satisfied'}, ours ${satisfied ? 'satisfied' : 'not satisfied'}`);
      }
    }
  }
  return problems;
}

describe.skipIf(records.length === 0)(`shield decisions against Spot's LTLf on ${records.length} rule sets`, () => {
  it('the fixture has live and dead sessions: both decisions occur often, at every depth', () => {
    const allowed = records.flatMap((r) => r.histories.flatMap((h) => h.allowed.flat()));
    expect(allowed.filter((a) => a).length).toBeGreaterThan(allowed.length / 4);
    expect(allowed.filter((a) => !a).length).toBeGreaterThan(allowed.length / 10);
    expect(records.filter((r) => r.histories.some((h) => h.kind === 'model')).length).toBeGreaterThan(records.length / 2);
    const satisfied = records.flatMap((r) => r.histories.flatMap((h) => h.satisfied));
    expect(satisfied.filter((s) => s).length).toBeGreaterThan(satisfied.length / 10);
  });

  it('every decision and every status after every prefix is Spot\'s', () => {
    expect(shieldProblems(records)).toEqual([]);
  }, 300_000);

  it('the comparison can fail: with Spot\'s decisions flipped it reports every one', () => {
    const sample = records.slice(0, 20);
    const decisions = sample.reduce((n, r) => n + r.histories.length * (HISTORY_LENGTH + 1) * candidates().length, 0);
    const flipped = shieldProblems(sample, (a) => !a).filter((p) => p.includes(' event '));
    expect(flipped).toHaveLength(decisions);
  }, 120_000);
});

describe('shield decisions: the reference records', () => {
  // Not a check: `SPOT_SHIELD_FIXTURES=write` (scripts/spot-shield-fixtures.mjs) records them again.
  it.runIf(process.env.SPOT_SHIELD_FIXTURES === 'write')('rewrites the fixture', () => {
    const version = spotVersion();
    if (!version) throw new Error('Spot (ltl2tgba, autfilt, ltlfilt, genltl, randltl) must be on PATH to record the fixture');
    writeShieldRecords(
      recordShieldFixture(),
      `Spot's LTLf shield decisions; recorded with ${version} (see README.md); ${RULE_SETS} rule sets, seed ${SHIELD_SEED}; randltl seed ${RANDLTL_RULES.seed}; histories of ${HISTORY_LENGTH} letters`,
    );
  }, 3_600_000);
});
