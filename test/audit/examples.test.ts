import { describe, expect, it } from 'vitest';
import { environments, generateLogs, ruleFiles } from '../../examples/audit/generate.js';
import { auditLog } from '../../src/audit/audit.js';
import { parseLabelsFile, parseRuleText } from '../../src/audit/rules.js';
import { symbolicLabeler } from '../../runtime/monitor/label.js';
import { evalFinite } from '../monitor/helpers.js';
import type { LogItem } from '../../src/audit/logs.js';

const names = ['household', 'recipe', 'textworld'] as const;
/**
 * Rules that oblige the agent to do something (next, or eventually): a log cut short may rightly
 * leave them unmet. Every other rule forbids something, and a log that stops breaks no prohibition.
 */
const obligations = new Set([
  'lights-on-entering-bathroom', // X switchOn: entering obliges switching on
  'crust-baked', 'crust-two-steps', 'bake-after-pour', 'cake-two-steps', 'fridge-two-steps', 'serve-after-fridge',
  'eggs-returned', 'cream-returned', 'butter-returned',
  'examine-after-take', 'knife-only-for-cutting',
]);

function load(name: (typeof names)[number]) {
  const files = ruleFiles(name);
  const rules = parseRuleText(files.rulesText, files.rules);
  const cfg = parseLabelsFile(JSON.stringify(files.labelsJson), files.labels);
  return { rules, cfg, labeler: symbolicLabeler(cfg.labels ?? {}) };
}

function violatedRules(name: (typeof names)[number], plan: readonly Record<string, string>[]): string[] {
  const { rules, labeler } = load(name);
  const trace = plan.map((e) => new Set(Object.entries(labeler(e)).filter(([, v]) => v).map(([k]) => k)));
  return rules.properties.filter((p) => !evalFinite(p.formula, trace)).map((p) => p.name);
}

describe('Appendix D rule sets and the synthetic log generator', () => {
  const rulesPerEnv = { household: 6, recipe: 15, textworld: 4 };
  for (const name of names) {
    it(`${name}: every rule is written, the base plan complies, and each seeded edit violates exactly its rule`, () => {
      const env = environments[name];
      const { rules } = load(name);
      expect(rules.properties).toHaveLength(rulesPerEnv[name]);
      expect(Object.keys(env.violations).sort()).toEqual(rules.properties.map((p) => p.name).sort());
      let seed = 1;
      const r = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
      const base = env.base(r);
      expect(violatedRules(name, base)).toEqual([]);
      for (const [rule, edit] of Object.entries(env.violations)) {
        expect(violatedRules(name, edit(base)), rule).toEqual([rule]);
      }
    });

    it(`${name}: a log that ends right after any step of the compliant plan violates no prohibition under LTLf`, () => {
      // A prohibition about "the next step" must use the weak next (`!X !p`): a log that ends there
      // did not do the forbidden thing.
      const env = environments[name];
      let seed = 7;
      const r = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
      const base = env.base(r);
      for (let end = 1; end <= base.length; end++) {
        expect(violatedRules(name, base.slice(0, end)).filter((rule) => !obligations.has(rule)), `cut after step ${end}`).toEqual([]);
      }
    });

    it(`${name}: the auditor finds exactly the seeded violations (F1 = 1 with symbolic labels)`, async () => {
      const env = environments[name];
      const { rules, cfg } = load(name);
      const log = generateLogs(env, 80, 42);
      const items: LogItem[] = log.events.map((event, i) => ({ kind: 'event', line: i + 1, event }));
      const report = await auditLog(items, { properties: rules.properties, labels: cfg.labels, groupBy: 'run', semantics: 'ltlf' });
      expect(report.runs).toHaveLength(80);
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const run of report.runs) {
        const found = run.properties.filter((p) => p.violations > 0).map((p) => p.name);
        const seeded = log.truth.get(run.run);
        expect(found, run.run).toEqual(seeded ? [seeded] : []);
        for (const f of found) (f === seeded ? tp++ : fp++);
        if (seeded && !found.includes(seeded)) fn++;
      }
      expect(tp).toBeGreaterThan(20);
      expect(fp + fn).toBe(0);
    });
  }

  it('under LTL3 an unmet "must eventually" rule stays pending instead of violated', async () => {
    const env = environments.recipe;
    const { rules, cfg } = load('recipe');
    const plan = env.violations['eggs-returned'](env.base(() => 0.5));
    const items: LogItem[] = plan.map((event, i) => ({ kind: 'event', line: i + 1, event }));
    const l3 = await auditLog(items, { properties: rules.properties, labels: cfg.labels, semantics: 'ltl3' });
    const p = l3.runs[0].properties.find((x) => x.name === 'eggs-returned')!;
    expect(p.verdict).toBe('pending');
    const lf = await auditLog(items, { properties: rules.properties, labels: cfg.labels, semantics: 'ltlf' });
    expect(lf.runs[0].properties.find((x) => x.name === 'eggs-returned')!.verdict).toBe('violated');
  });
});
