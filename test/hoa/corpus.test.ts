/**
 * Real ltlsynt 2.12.1 output: every controller in the corpus must parse, survive a print/re-read
 * round trip unchanged, and pass the independent checker against the TLSF spec it came from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseHoa } from '../../src/automata/hoa.js';
import { hoaToMealy, mealyToHoa } from '../../src/automata/hoa-convert.js';
import { printHoa } from '../../src/automata/hoa-print.js';
import { parseToolOutput } from '../../src/external/output.js';
import { inputNames, outputNames } from '../../src/game/spec.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { verifyController } from '../../src/verify/index.js';
import { corpusPath } from '../support/corpus.js';

const DIR = corpusPath('ltlsynt-hoa');
const files = (() => {
  try {
    return readdirSync(DIR).filter((f) => f.endsWith('.hoa')).sort();
  } catch {
    return [];
  }
})();

function controllerOf(file: string) {
  const text = readFileSync(join(DIR, file), 'utf8');
  const out = parseToolOutput('ltlsynt', text, true);
  if (out.verdict !== 'realizable' || !out.hoa) throw new Error(`${file}: expected a REALIZABLE answer with a machine`);
  return { text, hoa: out.hoa };
}

describe.skipIf(files.length === 0)('ltlsynt corpus', () => {
  test('the corpus has the 39 documented controllers', () => {
    expect(files.length).toBe(39);
  });

  test.each(files)('%s: parses, round-trips, and passes the independent check', (file) => {
    const { text, hoa } = controllerOf(file);
    // Printed and re-read: identical data, hence identical meaning. (Deep equality on the
    // multi-MB controllers is slow; for those, the printed text must be a fixpoint.)
    const printed = printHoa(hoa);
    const reread = parseHoa(printed);
    if (text.length < 200_000) expect(reread).toEqual(hoa);
    else expect(printHoa(reread)).toBe(printed);

    const machine = hoaToMealy(hoa);
    const tlsf = join(DIR, file.replace(/\.hoa$/, '.tlsf'));
    const spec = loadTlsfGame(tlsf, readFileSync(tlsf, 'utf8'));
    // ltlsynt drops propositions the formula leaves free; the checker wants the spec's full lists.
    const full = { ...machine, inputs: inputNames(spec), outputs: outputNames(spec) };
    for (const name of machine.inputs) expect(spec.inputs.map((p) => p.name)).toContain(name);
    for (const name of machine.outputs) expect(spec.outputs.map((p) => p.name)).toContain(name);
    const t0 = performance.now();
    const verdict = verifyController(spec, full);
    if (text.length > 1e6) console.log(`${file}: verify ${(performance.now() - t0).toFixed(0)} ms`);
    expect(verdict.ok ? 'ok' : verdict.message).toBe('ok');

    // Mealy → HOA → Mealy keeps every transition (skipped for the multi-MB stress files: slow, and
    // the same code paths are covered by the smaller ones).
    if (text.length < 1e6) expect(JSON.stringify(hoaToMealy(parseHoa(printHoa(mealyToHoa(machine)))))).toBe(JSON.stringify(machine));
  });

  test('a corrupted corpus controller is rejected by the checker', () => {
    // Flip every output literal of one transition of a real controller: the checker must notice.
    const { hoa } = controllerOf('Button.hoa');
    const m = hoaToMealy(hoa);
    const spec = loadTlsfGame(join(DIR, 'Button.tlsf'), readFileSync(join(DIR, 'Button.tlsf'), 'utf8'));
    const [first, ...rest] = m.transitions;
    const flipped = Object.fromEntries(Object.entries(first.output).map(([k, v]) => [k, !v]));
    const bad = { ...m, inputs: inputNames(spec), outputs: outputNames(spec), transitions: [{ ...first, output: flipped }, ...rest] };
    expect(verifyController(spec, bad).ok).toBe(false);
  });

  test('the largest controller parses quickly', () => {
    const largest = files
      .map((f) => ({ f, size: readFileSync(join(DIR, f)).length }))
      .sort((a, b) => b.size - a.size)[0];
    const text = readFileSync(join(DIR, largest.f), 'utf8');
    const body = text.slice(text.indexOf('HOA:'));
    const t0 = performance.now();
    const hoa = parseHoa(body);
    const parseMs = performance.now() - t0;
    const m = hoaToMealy(hoa);
    const totalMs = performance.now() - t0;
    console.log(`${largest.f} (${(largest.size / 1e6).toFixed(1)} MB): parse ${parseMs.toFixed(0)} ms, parse+convert ${totalMs.toFixed(0)} ms, ${m.transitions.length} transitions`);
    // Generous bound for a loaded 2-core CI machine; typical is ~100 ms to parse.
    expect(parseMs).toBeLessThan(5000);
  });
});
