/**
 * `tslc explain-ltl '<formula>'`: plain English for an LTL formula (pattern sentences where the
 * formula has a known shape). With `--english`, the other direction: a pattern sentence to LTL,
 * with its back-translation. `--patterns` lists the pattern library.
 */
import { LtlSyntaxError, parseLtl } from '../../../runtime/ltl/parse.js';
import { printLtl } from '../../../runtime/ltl/print.js';
import { UserError } from '../../diagnostics/diagnostic.js';
import { compileEnglish, explainLtl, matchPattern, patternCatalogue, PatternError } from '../../patterns/index.js';
import { ExitCode } from '../exit-codes.js';
import { registerSource } from '../io.js';

const SOURCE = '<formula>';

export async function run(args: Record<string, unknown>): Promise<number> {
  const json = Boolean(args.json);
  const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
  if (args.patterns) {
    const cat = patternCatalogue();
    if (json) out(JSON.stringify(cat, null, 2));
    else for (const p of cat) out(`${p.id.padEnd(18)} ${p.english}${p.scopes.length > 1 ? `   [scopes: ${p.scopes.join(', ')}]` : ''}`);
    return ExitCode.ok;
  }
  const text = typeof args.text === 'string' ? args.text : undefined;
  if (text === undefined || text.trim() === '') {
    throw new UserError({ severity: 'error', message: 'give a formula (or a sentence with --english), e.g. tslc explain-ltl \'G(a -> F b)\'', code: 'usage' });
  }
  if (args.english) {
    let inst;
    try {
      inst = compileEnglish(text);
    } catch (e) {
      if (e instanceof PatternError) throw new UserError({ severity: 'error', message: e.message, code: 'pattern' });
      throw e;
    }
    const ltl = printLtl(inst.ltl);
    if (json) out(JSON.stringify({ ltl, english: inst.english, pattern: inst.pattern, scope: inst.scope }, null, 2));
    else out(`${ltl}\n  reads back as: ${inst.english}`);
    return ExitCode.ok;
  }
  let formula;
  try {
    formula = parseLtl(text);
  } catch (e) {
    if (e instanceof LtlSyntaxError) {
      registerSource(SOURCE, text);
      throw new UserError({ severity: 'error', message: e.message, code: 'parse', span: { file: SOURCE, line: e.line, col: e.col, length: e.length } });
    }
    throw e;
  }
  const english = explainLtl(formula);
  const pattern = matchPattern(formula);
  if (json) out(JSON.stringify({ ltl: printLtl(formula), english, pattern: pattern ? { id: pattern.pattern, scope: pattern.scope } : null }, null, 2));
  else out(english);
  return ExitCode.ok;
}
