/** Content constraints: allowed strings and a small JSON Schema subset, checked without dependencies. */
import { own } from '../dict.js';
import type { AgentState, JsonSchema } from './spec.js';

/** Problems with `value` against `schema` (empty = valid). */
export function schemaErrors(value: unknown, schema: JsonSchema, path = '$'): string[] {
  const errors: string[] = [];
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(`${path} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (schema.type) {
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = schema.type === 'integer' ? Number.isInteger(value) : actual === schema.type;
    if (!ok) {
      errors.push(`${path} must be ${schema.type}`);
      return errors;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!Object.hasOwn(obj, r)) errors.push(`${path}.${r} is required`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties && own(schema.properties, k);
      if (sub) errors.push(...schemaErrors(v, sub, `${path}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${path}.${k} is not allowed`);
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...schemaErrors(v, schema.items!, `${path}[${i}]`)));
  return errors;
}

export interface ContentCheck {
  readonly ok: boolean;
  /** The text to keep (trimmed; for allowed sets, the matching option's exact spelling). */
  readonly value: string;
  readonly problem?: string;
}

/** Check a state's text against its content constraint. */
export function checkContent(state: AgentState, text: string): ContentCheck {
  const trimmed = text.trim();
  if (state.allowed) {
    const hit = state.allowed.find((a) => a === trimmed) ?? state.allowed.find((a) => a.toLowerCase() === trimmed.toLowerCase());
    return hit !== undefined
      ? { ok: true, value: hit }
      : { ok: false, value: trimmed, problem: `"${trimmed}" is not one of ${state.allowed.map((a) => `"${a}"`).join(', ')}` };
  }
  if (state.schema) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return { ok: false, value: trimmed, problem: 'the text is not valid JSON' };
    }
    const errs = schemaErrors(parsed, state.schema);
    return errs.length === 0 ? { ok: true, value: trimmed } : { ok: false, value: trimmed, problem: errs.join('; ') };
  }
  return { ok: true, value: trimmed };
}

/**
 * Last resort for an allowed-set state after re-asking failed: the option the text mentions
 * (longest first, so "Search" inside "Search Wikipedia" wins over nothing), else the first option.
 * This is the prompt-level stand-in for the paper's decoder mask.
 */
export function forceAllowed(allowed: readonly string[], text: string): string {
  const lower = text.toLowerCase();
  const mentioned = [...allowed].sort((a, b) => b.length - a.length).find((a) => lower.includes(a.toLowerCase()));
  return mentioned ?? allowed[0];
}
