/**
 * Recovery (restart after a violation, the papers' TRAC_R) applies to invariants only: a one-shot
 * rule (no top-level G) speaks about the run from its first step, so it is violated at most once
 * per run instead of once more at every later step.
 */
import { describe, expect, it } from 'vitest';
import { auditLog } from '../../src/audit/audit.js';
import type { LogItem } from '../../src/audit/logs.js';
import { parseRuleText } from '../../src/audit/rules.js';

function items(run: string, rows: readonly Record<string, boolean>[]): LogItem[] {
  return rows.map((r, i) => ({ kind: 'event', line: i + 1, event: { run, ...r } }));
}

async function violations(rules: string, rows: readonly Record<string, boolean>[]): Promise<Record<string, number>> {
  const { properties } = parseRuleText(rules, 'rules.ltl');
  const report = await auditLog(items('r1', rows), { properties, groupBy: 'run', semantics: 'ltlf' });
  return Object.fromEntries(report.runs[0].properties.map((p) => [p.name, p.violations]));
}

describe('audit recovery counts one-shot rules once per run', () => {
  const rows = [
    { inForest: false, inCave: true, inMarket: false, ok: false },
    { inForest: false, inCave: true, inMarket: false, ok: true },
    { inForest: false, inCave: true, inMarket: false, ok: false },
    { inForest: false, inCave: false, inMarket: true, ok: true },
    { inForest: false, inCave: true, inMarket: false, ok: false },
  ];

  it('an initial condition violated at the first step counts once, not once per later step', async () => {
    expect(await violations('starts-in-forest: inForest\n', rows)).toEqual({ 'starts-in-forest': 1 });
  });

  it('an ordering rule (W) counts once', async () => {
    expect(await violations('cave-after-market: !inCave W inMarket\n', rows)).toEqual({ 'cave-after-market': 1 });
  });

  it('an invariant still counts every violation (restarted after each)', async () => {
    expect(await violations('always-ok: G ok\n', rows)).toEqual({ 'always-ok': 3 });
  });

  it('a conjunction of invariants is an invariant; a conjunction with a one-shot part is not', async () => {
    expect(await violations('both: G ok & G !inMarket\n', rows)).toEqual({ both: 4 }); // steps 1, 3, 5 and 4
    expect(await violations('mixed: inForest & G ok\n', rows)).toEqual({ mixed: 1 });
  });
});
