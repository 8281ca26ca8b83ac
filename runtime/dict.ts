/**
 * Records keyed by names from users (propositions, signals, tools, log fields, template
 * variables). A plain `{}` inherits from Object.prototype, so on it `r['__proto__'] = true` is
 * lost (it sets the prototype), `'constructor' in r` is true and `r['toString']` is a function:
 * an atom, tool or field with such a name would be dropped or read as present. A record without
 * a prototype treats every name as an ordinary key; `own` reads any record by own keys only.
 */

/** An empty record with no prototype, optionally filled from entries (later entries win). */
export function dict<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (entries) for (const [k, v] of entries) out[k] = v;
  return out;
}

/** The records' own entries merged into a fresh prototype-less record (later records win). */
export function mergeDicts<T>(...records: readonly (Readonly<Record<string, T>> | undefined)[]): Record<string, T> {
  const out = dict<T>();
  for (const r of records) if (r) for (const k of Object.keys(r)) out[k] = r[k];
  return out;
}

/** `record[key]` when it is the record's own property, else undefined (never an inherited member). */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
