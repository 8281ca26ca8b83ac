/**
 * Rule files for `tslc audit`: which properties to check and how to label events.
 *
 * Text form (`rules.ltl`): one property per line, `name: formula` in Spot syntax (the name is
 * optional) or an English pattern sentence (runtime/shield/patterns.ts); `#` and `//` start
 * comments; an indented line continues the previous formula.
 * JSON form (`*.json`): `{ "properties": [{ "name", "formula", "description"? }] | { name: formula },
 * "labels"?: {...}, "missing"?, "columns"?, "groupBy"? }` — a formula may be Spot text or `LtlNode`.
 */
import { LtlSyntaxError, parseLtl } from '../../runtime/ltl/parse.js';
import type { LtlNode } from '../../runtime/ltl/syntax.js';
import type { LabelRules } from '../../runtime/monitor/label.js';
import type { PropertySpec } from '../../runtime/monitor/progression.js';
import { type Diagnostic, type SourceSpan, UserError, error } from '../diagnostics/diagnostic.js';
import { jsonSyntaxError } from '../diagnostics/json-position.js';
import { type JsonPath, jsonValueOffset, ruleNodeProblem } from './rule-node.js';
import type { AuditMissingPolicy } from './fields.js';
import { englishRule as readEnglishRule } from '../../runtime/shield/english/rule.js';

export interface AuditRule extends PropertySpec {
  readonly description?: string;
}

/** How events become labels, from a labels file and/or the rule file. */
export interface LabelConfig {
  readonly labels?: LabelRules;
  /**
   * Proposition → plain-English prompt, for `tslc audit --label-model`: those propositions are
   * labelled by the model (one request per event), the rest by `labels` and fields as usual.
   */
  readonly prompts?: Readonly<Record<string, string>>;
  readonly missing?: AuditMissingPolicy;
  readonly columns?: readonly string[];
  readonly groupBy?: string;
  /** Runs are contiguous blocks of equal group values (see `tslc audit --contiguous`). */
  readonly contiguous?: boolean;
}

export interface RuleSet extends LabelConfig {
  readonly properties: readonly AuditRule[];
}

const NAME = /^\s*([A-Za-z_][\w.-]*)\s*:(?!=)\s*/;

export function parseRuleText(text: string, file: string): RuleSet {
  const lines = text.split(/\r?\n/);
  const entries: { name?: string; glued: boolean; whole: string; body: string; line: number; col: number; pieces: { line: number; offset: number }[] }[] = [];
  lines.forEach((raw, i) => {
    const stripped = stripComment(raw);
    if (stripped.trim() === '') return;
    const last = entries[entries.length - 1];
    if (/^\s/.test(raw) && last) {
      last.pieces.push({ line: i + 1, offset: last.body.length + 1 });
      last.body += '\n' + stripped;
      last.whole += '\n' + stripped;
      return;
    }
    const m = NAME.exec(stripped);
    const body = m ? stripped.slice(m[0].length) : stripped;
    const col = (m ? m[0].length : 0) + 1;
    // `call:refund only after …` starts like a name; for English a name needs a space after its colon.
    const glued = m !== null && !/\s$/.test(m[0]);
    entries.push({ name: m?.[1], glued, whole: stripped, body, line: i + 1, col, pieces: [{ line: i + 1, offset: 0 }] });
  });
  const diagnostics: Diagnostic[] = [];
  const properties: AuditRule[] = [];
  const names = new Set<string>();
  entries.forEach((e, k) => {
    let property: AuditRule;
    try {
      property = { name: e.name ?? `rule${k + 1}`, formula: parseLtl(e.body) };
    } catch (err) {
      if (!(err instanceof LtlSyntaxError)) throw err;
      // Not LTL: an English pattern sentence ("call:refund only after ok:lookup_order") is a rule
      // too. Tried only after LTL fails, so a file that parsed before keeps its meaning.
      const english = e.glued ? englishRule(`rule${k + 1}`, e.whole) : englishRule(e.name ?? `rule${k + 1}`, e.body);
      if (typeof english === 'string') {
        diagnostics.push(error(english, { file, line: e.line, col: e.glued ? 1 : e.col, length: Math.max(1, e.body.split('\n')[0].length) }, 'english'));
        return;
      }
      if (!english) {
        // Map the offset inside the (possibly continued) formula back to file line/column.
        let piece = e.pieces[0];
        for (const p of e.pieces) if (p.offset <= err.offset) piece = p;
        const within = err.offset - piece.offset;
        const col = piece === e.pieces[0] ? e.col + within : within + 1;
        diagnostics.push(error(err.message, { file, line: piece.line, col, length: err.length }, 'parse'));
        return;
      }
      property = english;
    }
    if (names.has(property.name)) {
      diagnostics.push(error(`duplicate property name '${property.name}'`, { file, line: e.line, col: 1, length: property.name.length }, 'duplicate'));
    }
    names.add(property.name);
    properties.push(property);
  });
  if (diagnostics.length > 0) throw new UserError(diagnostics);
  if (properties.length === 0) throw new UserError(error(`${file} contains no properties`, { file, line: 1, col: 1 }, 'empty'));
  return { properties };
}

/**
 * A rule written in English (runtime/shield/english/rule.ts): the rule, the reason it is refused
 * (a string), or undefined when the text is not English.
 */
function englishRule(name: string, body: string): AuditRule | string | undefined {
  const r = readEnglishRule(body);
  if (!r) return undefined;
  return 'error' in r ? r.error : { name, formula: r.formula, description: r.description };
}

function stripComment(line: string): string {
  // Comments may not start inside a quoted atom.
  let inQuote = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"' && line[i - 1] !== '\\') inQuote = !inQuote;
    if (inQuote) continue;
    if (c === '#' || (c === '/' && line[i + 1] === '/')) return line.slice(0, i);
  }
  return line;
}

function fail(file: string, message: string, code = 'rules', span?: SourceSpan): never {
  throw new UserError(span ? error(message, span, code) : error(`${file}: ${message}`, undefined, code));
}

function isNode(x: unknown): x is LtlNode {
  return typeof x === 'object' && x !== null && typeof (x as { op?: unknown }).op === 'string';
}

export function parseRuleJson(text: string, file: string): RuleSet {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(jsonSyntaxError(text, file, err as Error));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) fail(file, 'expected a JSON object');
  const obj = data as Record<string, unknown>;
  const raw = obj.properties;
  // `at`: where the formula is in the JSON, for locating problems inside a formula object.
  const list: { name: string; formula: unknown; description?: unknown; at: JsonPath }[] = Array.isArray(raw)
    ? raw.map((p, i) => {
        if (p === null || typeof p !== 'object') fail(file, `properties[${i}] must be an object with "name" and "formula"`);
        const r = p as Record<string, unknown>;
        if (typeof r.name !== 'string' || r.name === '') fail(file, `properties[${i}] needs a "name"`);
        return { name: r.name, formula: r.formula, description: r.description, at: ['properties', i, 'formula'] };
      })
    : raw && typeof raw === 'object'
      ? Object.entries(raw as Record<string, unknown>).map(([name, formula]) => ({ name, formula, at: ['properties', name] }))
      : fail(file, 'expected "properties": a list of {name, formula} or an object name → formula');
  const names = new Set<string>();
  const properties = list.map((p) => {
    if (names.has(p.name)) fail(file, `duplicate property name '${p.name}'`, 'duplicate');
    names.add(p.name);
    let formula: LtlNode;
    if (typeof p.formula === 'string') {
      try {
        formula = parseLtl(p.formula);
      } catch (err) {
        if (!(err instanceof LtlSyntaxError)) throw err;
        const english = englishRule(p.name, p.formula);
        // Located at the formula's string in the file (or the property's name) when it can be found there.
        if (typeof english === 'string') fail(file, `property '${p.name}': ${english}`, 'english', stringSpan(text, file, p.at, p.formula, 0, p.formula.length + 2));
        if (english) return { ...english, ...(typeof p.description === 'string' ? { description: p.description } : {}) };
        const at = stringSpan(text, file, p.at, p.formula, err.offset + 1, err.length);
        fail(file, `property '${p.name}': ${err.message}${at ? '' : ` at column ${err.col} of "${p.formula}"`}`, 'parse', at);
      }
    } else if (isNode(p.formula)) {
      // Checked as Spot text would be (shape, and nesting within the LTL limit) before a monitor recurses over it.
      const problem = ruleNodeProblem(p.formula);
      if (problem) {
        const offset = jsonValueOffset(text, [...p.at, ...problem.path]);
        throw new UserError(error(`property '${p.name}': ${problem.problem}`, offset === undefined ? { file, line: 1, col: 1 } : spanAt(text, file, offset), 'rules'));
      }
      formula = p.formula;
    } else {
      const offset = jsonValueOffset(text, p.at);
      fail(file, `property '${p.name}' needs a "formula" (Spot syntax text or an LtlNode object)`, 'rules', offset === undefined ? undefined : spanAt(text, file, offset));
    }
    return { name: p.name, formula, ...(typeof p.description === 'string' ? { description: p.description } : {}) };
  });
  if (properties.length === 0) fail(file, 'no properties', 'empty');
  return { properties, ...parseLabelConfig(obj, file) };
}

/**
 * Where character `inside` of the string value at `path` is in the file (0: its opening quote),
 * through JSON's escapes when the file writes the string as JSON.stringify does; else the quote.
 */
function stringSpan(text: string, file: string, path: JsonPath, value: string, inside: number, length: number): SourceSpan | undefined {
  const offset = jsonValueOffset(text, path);
  if (offset === undefined) return undefined;
  if (!text.startsWith(JSON.stringify(value), offset)) return spanAt(text, file, offset);
  const raw = inside === 0 ? 0 : JSON.stringify(value.slice(0, inside - 1)).length - 1;
  return { ...spanAt(text, file, offset + raw), length: Math.max(1, length) };
}

function spanAt(text: string, file: string, offset: number): SourceSpan {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { file, line, col: offset - (before.lastIndexOf('\n') + 1) + 1, length: 1 };
}

/** The label part of a rules or labels file; a labels file without a "labels" key is the rules themselves. */
export function parseLabelConfig(obj: Record<string, unknown>, file: string, bare = false): LabelConfig {
  const structured = 'labels' in obj || 'prompts' in obj || 'missing' in obj || 'columns' in obj || 'groupBy' in obj || 'contiguous' in obj;
  const labels = structured ? obj.labels : bare ? obj : undefined;
  if (labels !== undefined && (labels === null || typeof labels !== 'object' || Array.isArray(labels))) {
    fail(file, '"labels" must be an object: proposition → condition');
  }
  const missing = obj.missing;
  if (missing !== undefined && missing !== 'check' && missing !== 'false' && missing !== 'error' && missing !== false) {
    fail(file, '"missing" must be "check", "false" or "error"');
  }
  const columns = obj.columns;
  if (columns !== undefined && !(Array.isArray(columns) && columns.every((c) => typeof c === 'string'))) {
    fail(file, '"columns" must be a list of column names');
  }
  if (obj.groupBy !== undefined && typeof obj.groupBy !== 'string') fail(file, '"groupBy" must be a field name');
  if (obj.contiguous !== undefined && typeof obj.contiguous !== 'boolean') fail(file, '"contiguous" must be true or false');
  const prompts = obj.prompts;
  if (prompts !== undefined) {
    if (prompts === null || typeof prompts !== 'object' || Array.isArray(prompts)) fail(file, '"prompts" must be an object: proposition → plain-English question');
    for (const [name, text] of Object.entries(prompts)) {
      if (typeof text !== 'string' || text.trim() === '') fail(file, `prompts.${name} must be a non-empty string (when the proposition holds, in plain English)`);
    }
  }
  return {
    ...(labels ? { labels: labels as LabelRules } : {}),
    ...(prompts ? { prompts: Object.assign(Object.create(null) as Record<string, string>, prompts) } : {}),
    ...(missing !== undefined ? { missing: missing === 'error' || missing === 'check' ? missing : 'false' } : {}),
    ...(columns ? { columns: columns as string[] } : {}),
    ...(typeof obj.groupBy === 'string' ? { groupBy: obj.groupBy } : {}),
    ...(typeof obj.contiguous === 'boolean' ? { contiguous: obj.contiguous } : {}),
  };
}

export function parseLabelsFile(text: string, file: string): LabelConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(jsonSyntaxError(text, file, err as Error));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) fail(file, 'expected a JSON object');
  return parseLabelConfig(data as Record<string, unknown>, file, true);
}

export function parseRules(text: string, file: string): RuleSet {
  return /\.json$/i.test(file) ? parseRuleJson(text, file) : parseRuleText(text, file);
}

/** Several rule files checked together (e.g. the conjunction of two specs' guarantees). */
export function combineRules(sets: readonly RuleSet[]): RuleSet {
  const seen = new Set<string>();
  for (const set of sets) {
    for (const p of set.properties) {
      if (seen.has(p.name)) throw new UserError(error(`property '${p.name}' is defined in more than one rule file`, undefined, 'duplicate'));
      seen.add(p.name);
    }
  }
  const merged: RuleSet = { properties: sets.flatMap((s) => s.properties) };
  return sets.reduce<RuleSet>(
    (acc, s) => ({
      ...acc,
      ...(s.labels ? { labels: { ...acc.labels, ...s.labels } } : {}),
      ...(s.prompts ? { prompts: Object.assign(Object.create(null) as Record<string, string>, acc.prompts, s.prompts) } : {}),
      ...(s.missing ? { missing: s.missing } : {}),
      ...(s.columns ? { columns: s.columns } : {}),
      ...(s.groupBy ? { groupBy: s.groupBy } : {}),
      ...(s.contiguous !== undefined ? { contiguous: s.contiguous } : {}),
    }),
    merged,
  );
}
