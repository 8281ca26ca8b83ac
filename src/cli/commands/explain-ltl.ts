/**
 * `tslc explain-ltl '<formula>'`: plain English for an LTL formula (pattern sentences where the
 * formula has a known shape). With `--english`, the other direction: a constraint sentence to LTL
 * (offline: the pattern library, then the everyday-English forms), grounded to `--props` or to the
 * propositions of a `--rules` file, always with its paraphrase; `--model` lets an LLM try what the
 * offline translator cannot read. `--patterns` lists the pattern library.
 */
import { LlmError } from '../../../runtime/llm/errors.js';
import { createModel, modelFromEnv } from '../../../runtime/llm/config.js';
import type { Model } from '../../../runtime/llm/model.js';
import { LtlSyntaxError, parseLtl } from '../../../runtime/ltl/parse.js';
import { printLtl } from '../../../runtime/ltl/print.js';
import type { LtlNode } from '../../../runtime/ltl/syntax.js';
import { parseRules } from '../../audit/rules.js';
import { UserError } from '../../diagnostics/diagnostic.js';
import { TranslationError, explainLtl, matchPattern, patternCatalogue, translateEnglish } from '../../patterns/index.js';
import { ExitCode } from '../exit-codes.js';
import { readUserFile, registerSource } from '../io.js';
import { ltlAtoms } from '../../../runtime/ltl/atoms.js';

const SOURCE = '<formula>';
const SENTENCE = '<sentence>';

/** Seams for tests: where a model comes from (the CLI builds one from `--model` / `TSLC_MODEL`). */
export interface ExplainLtlDeps {
  readonly createModel?: (spec: string | undefined) => Model;
}

function usage(message: string): UserError {
  return new UserError({ severity: 'error', message, code: 'usage' });
}

/** The vocabulary: `--props a,b,…` (repeatable) and the propositions and labels of `--rules` files. */
function vocabularyOf(args: Record<string, unknown>): string[] | undefined {
  const out = new Set<string>();
  const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  for (const p of list(args.props)) for (const name of String(p).split(',')) if (name.trim() !== '') out.add(name.trim());
  for (const file of list(args.rules)) {
    const path = String(file);
    const text = readUserFile(path);
    registerSource(path, text);
    const set = parseRules(text, path);
    for (const p of set.properties) ltlAtoms(p.formula, out);
    for (const name of Object.keys(set.labels ?? {})) out.add(name);
  }
  return out.size > 0 ? [...out] : undefined;
}

function modelFor(args: Record<string, unknown>, deps: ExplainLtlDeps): Model | undefined {
  if (args.model === undefined || args.model === false) return undefined;
  const spec = typeof args.model === 'string' && args.model.trim() !== '' ? args.model.trim() : undefined;
  try {
    if (deps.createModel) return deps.createModel(spec);
    return spec ? createModel(spec) : modelFromEnv();
  } catch (e) {
    if (e instanceof LlmError) throw usage(e.message);
    throw e;
  }
}

async function english(text: string, args: Record<string, unknown>, deps: ExplainLtlDeps, out: (s: string) => void): Promise<number> {
  const json = Boolean(args.json);
  const propositions = vocabularyOf(args);
  const model = modelFor(args, deps);
  let t;
  try {
    t = await translateEnglish(text, { ...(model ? { model } : {}), ...(propositions ? { propositions } : {}) });
  } catch (e) {
    if (e instanceof TranslationError) {
      const message = e.message + (e.ltl !== undefined ? ` (the model answered: ${e.ltl})` : '');
      // Point at the phrase (or sentence) the error is about, like a formula's syntax error.
      const at = e.phrase ? text.toLowerCase().indexOf(e.phrase.toLowerCase()) : -1;
      if (at < 0) throw new UserError({ severity: 'error', message, code: 'english' });
      registerSource(SENTENCE, text);
      throw new UserError({ severity: 'error', message, code: 'english', span: { file: SENTENCE, line: 1, col: at + 1, length: e.phrase!.length } });
    }
    if (e instanceof LlmError) throw new UserError({ severity: 'error', message: `the model could not translate the sentence: ${e.message}`, code: 'english' });
    throw e;
  }
  const pattern = t.via === 'pattern' ? matchPattern(t.formula) : undefined;
  if (json) {
    out(
      JSON.stringify(
        {
          ltl: t.ltl,
          english: t.english,
          via: t.via,
          ...(pattern ? { pattern: pattern.pattern, scope: pattern.scope } : {}),
          groundings: [...t.groundings.map((g) => ({ phrase: g.phrase, proposition: g.proposition, how: g.how })), ...t.expressions.map((e) => ({ phrase: e.text, proposition: e.proposition, how: 'llm' }))],
          ...(t.lifted !== undefined ? { lifted: t.lifted } : {}),
          ...(t.via === 'llm' ? { simulated: model?.simulated ?? false } : {}),
        },
        null,
        2,
      ),
    );
    return ExitCode.ok;
  }
  const lines = [t.ltl, `  reads back as: ${t.english}`];
  for (const g of t.groundings) if (g.how !== 'verbatim') lines.push(`  "${g.phrase}" → ${g.proposition}${g.how === 'words' ? ' (no --props: named from its words)' : ''}`);
  if (t.via === 'llm') {
    lines.push(`  translated by the model ${model?.id ?? ''}${model?.simulated ? ' (simulated)' : ''}: check it before use`);
    for (const e of t.expressions) lines.push(`  "${e.text}" → ${e.proposition}`);
  }
  out(lines.join('\n'));
  return ExitCode.ok;
}

export async function run(args: Record<string, unknown>, deps: ExplainLtlDeps = {}): Promise<number> {
  const json = Boolean(args.json);
  const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
  if (args.patterns) {
    const cat = patternCatalogue();
    if (json) out(JSON.stringify(cat, null, 2));
    else for (const p of cat) out(`${p.id.padEnd(18)} ${p.english}${p.scopes.length > 1 ? `   [scopes: ${p.scopes.join(', ')}]` : ''}`);
    return ExitCode.ok;
  }
  // After `--` (how a formula that starts like an option is passed) yargs fills no positional.
  const afterDashes = Array.isArray(args['--']) ? args['--'].map(String) : [];
  if (afterDashes.length > 1) throw new UserError({ severity: 'error', message: `give one formula after --, not ${afterDashes.length} (quote it)`, code: 'usage' });
  const text = typeof args.text === 'string' ? args.text : afterDashes[0];
  if (text === undefined || text.trim() === '') {
    throw usage("give a formula (or a sentence with --english), e.g. tslc explain-ltl 'G(a -> F b)'");
  }
  if (args.english) return english(text, args, deps, out);
  if (args.props !== undefined || args.rules !== undefined || (args.model !== undefined && args.model !== false)) {
    throw usage('--props, --rules and --model go with --english');
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
  const englishText = explainLtl(formula);
  const pattern = matchPattern(formula);
  if (json) out(JSON.stringify({ ltl: printLtl(formula), english: englishText, pattern: pattern ? { id: pattern.pattern, scope: pattern.scope } : null }, null, 2));
  else out(englishText);
  return ExitCode.ok;
}
