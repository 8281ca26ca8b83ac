/**
 * `--labels FILE` for the MCP shield: propositions derived from tool calls and their results, in
 * the audit's declarative condition language (runtime/monitor/label.ts), so one vocabulary serves
 * the live shield and the later audit.
 *
 *   { "result": { "result:verified": { "all": [ { "field": "tool", "eq": "verify_identity" },
 *                                               { "field": "json.verified", "eq": true } ] } },
 *     "call":   { "amount:large": { "all": [ { "field": "tool", "eq": "refund" },
 *                                            { "field": "args.amount", "gt": 100 } ] } } }
 *
 * A call is the event `{ tool, args }`; a result is `{ tool, args, isError, text, json, structured }`
 * (`text`: the text content joined by newlines; `json`: that text parsed, when it is JSON;
 * `structured`: the result's `structuredContent`). An object without "call"/"result" keys is the
 * "result" section alone. True propositions join the call's or the result's event.
 */
import { type EventRecord, type Labeler, LabelRuleError, type LabelRules, symbolicLabeler } from '../../runtime/monitor/label.js';
import { UserError, error } from '../diagnostics/diagnostic.js';
import { jsonSyntaxError } from '../diagnostics/json-position.js';

export interface ShieldLabels {
  /** Extra propositions of a call, from its arguments. */
  readonly call: (tool: string, args: unknown) => string[];
  /** Extra propositions of a result. */
  readonly result: (tool: string, args: unknown, result: Readonly<Record<string, unknown>>) => string[];
}

export const NO_LABELS: ShieldLabels = { call: () => [], result: () => [] };

/** JSON text longer than this is not parsed for `json.*` conditions (a label never costs seconds). */
const MAX_JSON_TEXT = 1 << 20;

function trueOf(labeler: Labeler | undefined, event: EventRecord): string[] {
  if (!labeler) return [];
  const out: string[] = [];
  for (const [prop, value] of Object.entries(labeler(event))) if (value) out.push(prop);
  return out;
}

/** The result's text content, joined; and that text parsed as JSON when it is JSON. */
export function resultEvent(tool: string, args: unknown, result: Readonly<Record<string, unknown>>): EventRecord {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const text = content
    .filter((c): c is { type: 'text'; text: string } => typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text' && typeof (c as { text?: unknown }).text === 'string')
    .map((c) => c.text)
    .join('\n');
  let json: unknown;
  const t = text.trimStart();
  if (text.length <= MAX_JSON_TEXT && (t.startsWith('{') || t.startsWith('['))) {
    try {
      json = JSON.parse(text);
    } catch {
      // Not JSON after all: conditions on `json.*` see a missing field.
    }
  }
  const event: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  Object.assign(event, { tool, args, isError: result.isError === true, text });
  if (json !== undefined) event.json = json;
  if (result.structuredContent !== undefined) event.structured = result.structuredContent;
  return event;
}

export function parseShieldLabels(text: string, file: string): ShieldLabels {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new UserError(jsonSyntaxError(text, file, err as Error));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UserError(error('a labels file is a JSON object: { "result": { proposition: condition }, "call": { … } }', { file, line: 1, col: 1 }, 'labels'));
  }
  const obj = data as Record<string, unknown>;
  const sectioned = 'call' in obj || 'result' in obj;
  const extra = sectioned ? Object.keys(obj).filter((k) => k !== 'call' && k !== 'result') : [];
  if (extra.length > 0) throw new UserError(error(`${file}: unknown key "${extra[0]}" (expected "call" and/or "result")`, undefined, 'labels'));
  const compile = (rules: unknown, section: string): Labeler | undefined => {
    if (rules === undefined) return undefined;
    try {
      return symbolicLabeler(rules as LabelRules);
    } catch (err) {
      if (err instanceof LabelRuleError) throw new UserError(error(`${file}: ${section}.${err.message}`, undefined, 'labels'));
      throw err;
    }
  };
  const call = compile(sectioned ? obj.call : undefined, 'call');
  const result = compile(sectioned ? obj.result : obj, 'result');
  return {
    call: (tool, args) => trueOf(call, { tool, args }),
    result: (tool, args, r) => trueOf(result, resultEvent(tool, args, r)),
  };
}
