/**
 * The MCP shield's inputs and outputs as files: rules (the audit's format, English allowed),
 * labels, the decision log's lines, shield snapshots, and stdio framing.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { parseRuleText } from '../../src/audit/rules.js';
import { argsDigest, openDecisionLog, serializeLine } from '../../src/shield/decision-log.js';
import { parseShieldLabels } from '../../src/shield/labels-file.js';
import { LineReader } from '../../src/shield/line-reader.js';
import { shieldRulesFromFiles } from '../../src/shield/rules-file.js';
import { Shield } from '../../runtime/shield/shield.js';
import { ShieldSnapshotError, restoreShield, snapshotShield } from '../../runtime/shield/snapshot.js';
import { printLtl } from '../../runtime/ltl/print.js';

function userError(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError');
}

describe('rules files: the audit format, with English pattern sentences', () => {
  it('reads named English sentences and LTL side by side', () => {
    const rules = shieldRulesFromFiles([
      { path: 'r.ltl', text: '# orders\nrefund-after-lookup: call:refund only after ok:lookup_order\nno-twice: G ("call:refund" -> !X "call:refund")\n' },
    ]);
    expect(rules.map((r) => r.name)).toEqual(['refund-after-lookup', 'no-twice']);
    expect(printLtl(rules[0].ltl as never)).toBe('!"call:refund" W "ok:lookup_order"');
    expect(rules[0].description).toBe('call:refund only after ok:lookup_order');
  });

  it('an unnamed sentence starting with call:… is a sentence, not a rule named "call"', () => {
    const set = parseRuleText('call:refund only after ok:lookup_order\n', 'r.ltl');
    expect(set.properties[0].name).toBe('rule1');
    expect(printLtl(set.properties[0].formula)).toBe('!"call:refund" W "ok:lookup_order"');
  });

  it('a line that is neither LTL nor a pattern sentence is refused at file:line:col', () => {
    const e = userError(() => shieldRulesFromFiles([{ path: 'bad.ltl', text: 'ok: G (a -> F b)\n\nbroken: G (a -> \n' }]));
    expect(e.diagnostics[0].span).toMatchObject({ file: 'bad.ltl', line: 3 });
    expect(e.diagnostics[0].span!.col).toBeGreaterThan(8);
  });

  it('LTL that parsed before keeps its meaning (English is only tried when LTL fails)', () => {
    const set = parseRuleText('r: a U b\n', 'r.ltl');
    expect(printLtl(set.properties[0].formula)).toBe('a U b');
    expect(set.properties[0].description).toBeUndefined();
  });
});

describe('labels files', () => {
  it('derives propositions from JSON fields and text patterns of results, and from call arguments', () => {
    const labels = parseShieldLabels(
      JSON.stringify({
        result: {
          'result:delivered': { all: [{ field: 'tool', eq: 'lookup_order' }, { field: 'json.status', eq: 'delivered' }] },
          'result:refunded': { field: 'text', matches: '^refunded' },
        },
        call: { 'amount:large': { all: [{ field: 'tool', eq: 'refund' }, { field: 'args.amount', gt: 100 }] } },
      }),
      'labels.json',
    );
    const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
    expect(labels.result('lookup_order', {}, text('{"status":"delivered"}'))).toEqual(['result:delivered']);
    expect(labels.result('lookup_order', {}, text('{"status":"lost"}'))).toEqual([]);
    expect(labels.result('refund', {}, text('refunded 42'))).toEqual(['result:refunded']);
    expect(labels.call('refund', { amount: 500 })).toEqual(['amount:large']);
    expect(labels.call('refund', { amount: 5 })).toEqual([]);
  });

  it('a bare object is the result section; malformed files are diagnostics with line and column', () => {
    const labels = parseShieldLabels('{ "result:x": { "field": "isError", "eq": true } }', 'l.json');
    expect(labels.result('t', {}, { content: [], isError: true })).toEqual(['result:x']);
    const e = userError(() => parseShieldLabels('{\n  "result": {\n    "a": { "field": "x", "eq": 1 },\n  }\n}', 'l.json'));
    expect(e.diagnostics[0].span).toMatchObject({ file: 'l.json', line: 4 });
    expect(userError(() => parseShieldLabels('{ "result": { "a": { "field": "x", "bogus": 1 } } }', 'l.json')).message).toContain("result.a: unknown operator 'bogus'");
  });
});

describe('decision log lines', () => {
  it('carry their event\'s propositions as boolean fields (what tslc audit reads), on a null-prototype object', () => {
    const line = JSON.parse(
      serializeLine({ time: 't', session: 's', kind: 'result', tool: 'x', outcome: 'ok', event: ['ok:x', '__proto__', 'result:verified'] }),
    ) as Record<string, unknown>;
    expect(line['ok:x']).toBe(true);
    expect(line['result:verified']).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(line, '__proto__')).toBe(true);
  });

  it('state every other proposition of the rules as false, so tslc audit can tell false from "not logged"', () => {
    const line = JSON.parse(
      serializeLine({ time: 't', session: 's', kind: 'result', tool: 'x', outcome: 'ok', event: ['ok:x'] }, ['call:refund', 'ok:x', 'constructor']),
    ) as Record<string, unknown>;
    expect(line['ok:x']).toBe(true);
    expect(line['call:refund']).toBe(false);
    expect(line['constructor']).toBe(false);
  });

  it('digest arguments canonically: key order does not matter, values do', () => {
    expect(argsDigest({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(argsDigest({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(argsDigest({ a: 1 })).not.toBe(argsDigest({ a: 2 }));
    expect(argsDigest({ a: 1 })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('decision log file', () => {
  it.skipIf(!existsSync('/dev/full'))('a log that cannot be written is reported once, and deciding goes on', async () => {
    const errors: string[] = [];
    const log = openDecisionLog('/dev/full', (m) => errors.push(m));
    const line = { time: 't', session: 's', kind: 'result' as const, tool: 'x', outcome: 'ok' as const, event: ['ok:x'] };
    log.write(line);
    await new Promise((r) => setImmediate(r));
    log.write(line);
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/cannot write the decision log \/dev\/full: .*ENOSPC/);
    await log.close();
  });

  it('appends lines, one JSON object each', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tslc-log-')), 'log.jsonl');
    writeFileSync(path, '{"earlier":true}\n');
    const log = openDecisionLog(path);
    log.write({ time: 't', session: 's', kind: 'result', tool: 'x', outcome: 'ok', event: ['ok:x'] });
    log.write({ time: 't', session: 's', kind: 'result', tool: 'y', outcome: 'error', event: ['error:y'] });
    await log.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.tool ?? 'earlier')).toEqual(['earlier', 'x', 'y']);
    expect(lines[2]['error:y']).toBe(true);
  });
});

describe('shield snapshots', () => {
  const rules = ['call:refund only after ok:lookup_order', 'call:refund happens at most 1 times'];

  it('a restored shield decides as the original did', () => {
    const a = new Shield(rules);
    a.observe(['call:lookup_order']);
    a.observe(['ok:lookup_order']);
    expect(a.check('refund').allowed).toBe(true);
    a.observe(['call:refund']);
    const text = JSON.stringify(snapshotShield(a, 'rules.ltl', 'sess-1'));
    const b = new Shield(rules);
    expect(b.check('refund').allowed).toBe(false);
    expect(restoreShield(b, text).session).toBe('sess-1');
    expect(b.trace).toEqual(a.trace);
    expect(b.check('refund').allowed).toBe(false);
    expect(b.check('refund').reason).toContain('at most 1 times');
  });

  it('refuses snapshots of other rules, non-snapshots, and restoring into a used shield', () => {
    const snap = snapshotShield(new Shield(rules));
    expect(() => restoreShield(new Shield(['call:a never happens']), snap)).toThrow(ShieldSnapshotError);
    expect(() => restoreShield(new Shield(rules), '{"format":"tslc-controller-snapshot","version":1}')).toThrow(/not a tslc shield snapshot/);
    expect(() => restoreShield(new Shield(rules), 'not json')).toThrow(ShieldSnapshotError);
    expect(() => restoreShield(new Shield(rules), { ...snap, trace: [[1]] } as never)).toThrow(/trace/);
    const used = new Shield(rules);
    used.observe(['x']);
    expect(() => restoreShield(used, snap)).toThrow(/fresh shield/);
  });
});

describe('LineReader (stdio framing)', () => {
  it('splits lines across chunks, strips \\r, and keeps multi-byte characters whole', () => {
    const lines: string[] = [];
    const r = new LineReader({ maxBytes: 100, onLine: (l) => lines.push(l), onOverflow: () => lines.push('OVERFLOW') });
    const bytes = Buffer.from('{"a":"é"}\r\n{"b"', 'utf8');
    for (let i = 0; i < bytes.length; i++) r.push(bytes.subarray(i, i + 1));
    r.push(Buffer.from(':2}\n\n'));
    expect(lines).toEqual(['{"a":"é"}', '{"b":2}', '']);
    expect(r.pending).toBe(0);
  });

  it('reports a line over the cap once, without holding it', () => {
    const lines: string[] = [];
    let overflow = 0;
    const r = new LineReader({ maxBytes: 10, onLine: (l) => lines.push(l), onOverflow: (n) => (overflow = n) });
    r.push(Buffer.from('short\n0123456789ABC'));
    r.push(Buffer.from('more\nafter\n'));
    expect(lines).toEqual(['short']);
    expect(overflow).toBe(13);
  });

  it('frames a 20 MB line arriving in 64 KB chunks', () => {
    const size = 20 * 1024 * 1024;
    const big = Buffer.alloc(size + 1, 0x61);
    big[size] = 10;
    let got = -1;
    const r = new LineReader({ maxBytes: 64 * 1024 * 1024, onLine: (l) => (got = l.length), onOverflow: () => undefined });
    for (let i = 0; i < big.length; i += 65536) r.push(big.subarray(i, i + 65536));
    expect(got).toBe(size);
  });
});
