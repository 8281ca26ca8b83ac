/**
 * Rules for the MCP shield, read exactly as `tslc audit --spec` reads them (src/audit/rules.ts:
 * `name: formula` per line in Spot syntax, or an English pattern sentence; or the JSON form), so
 * the file that guards a server is also the file that audits its log. Errors come back as the
 * audit's diagnostics, at file:line:col.
 */
import { combineRules, parseRules } from '../audit/rules.js';
import type { ShieldRule } from '../../runtime/shield/shield.js';

export interface RulesSource {
  readonly path: string;
  readonly text: string;
}

export function shieldRulesFromFiles(sources: readonly RulesSource[]): ShieldRule[] {
  const set = combineRules(sources.map((s) => parseRules(s.text, s.path)));
  return set.properties.map((p) => ({ name: p.name, ltl: p.formula, ...(p.description !== undefined ? { description: p.description } : {}) }));
}
