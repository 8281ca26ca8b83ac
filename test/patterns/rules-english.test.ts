/**
 * Rules files (`tslc audit --spec`, `tslc shield mcp --rules`) read everyday English sentences
 * through the offline translator when their propositions are written as names, and refuse a
 * sentence that names things by words (a guessed name would make a rule that never fires).
 */
import { describe, expect, it } from 'vitest';
import { printLtl } from '../../runtime/ltl/print.js';
import { parseRuleJson, parseRuleText } from '../../src/audit/rules.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';

function userError(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('English rules in rules files', () => {
  it('reads everyday sentences over written proposition names', () => {
    const set = parseRuleText(
      [
        'no-early-refund: never call:refund before ok:verify_identity',
        'backup: if you call:delete_file, call:backup must happen in the next step',
        'one-refund: do not call:refund more than once',
        'G ("call:x" -> F "call:y")',
      ].join('\n'),
      'rules.ltl',
    );
    expect(set.properties.map((p) => [p.name, printLtl(p.formula)])).toEqual([
      ['no-early-refund', '!"call:refund" W "ok:verify_identity"'],
      ['backup', 'G ("call:delete_file" -> X "call:backup")'],
      ['one-refund', '!F ("call:refund" & X F "call:refund")'],
      ['rule4', 'G ("call:x" -> F "call:y")'],
    ]);
    expect(set.properties[0].description).toBe('never call:refund before ok:verify_identity');
    const json = parseRuleJson(JSON.stringify({ properties: { early: 'never call:refund before ok:verify_identity' } }), 'r.json');
    expect(printLtl(json.properties[0].formula)).toBe('!"call:refund" W "ok:verify_identity"');
  });

  it('refuses a sentence that names things by words, at its line', () => {
    const e = userError(() => parseRuleText('ok: G (a -> F b)\ngarage: never enter the garage\n', 'rules.ltl'));
    expect(e.diagnostics[0].span).toMatchObject({ file: 'rules.ltl', line: 2, col: 9 });
    expect(e.diagnostics[0].message).toMatch(/"enter the garage" by words, not by proposition; write the propositions \(e\.g\. garage\)/);
    const form = userError(() => parseRuleText('r: the robot may enter the kitchen\n', 'rules.ltl'));
    expect(form.diagnostics[0].message).toMatch(/grants a permission/);
    expect(() => parseRuleJson(JSON.stringify({ properties: { g: 'never enter the garage' } }), 'r.json')).toThrow(/property 'g': .*by words/);
  });
});
