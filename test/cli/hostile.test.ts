/**
 * Hostile inputs, run in-process: every command given binary garbage, a directory, a missing file
 * or an unwritable output path answers with a diagnostic and exit 2 — never a stack trace or the
 * internal-error exit 70.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';
import { mulberry32 as rng } from '../../runtime/random.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-hostile-'));
const r = rng(99);
const garbage = Buffer.from(Array.from({ length: 1500 }, () => Math.floor(r() * 256)));
const files = {
  garbage: join(dir, 'garbage.tsl'),
  garbageTlsf: join(dir, 'garbage.tlsf'),
  garbageLog: join(dir, 'garbage.jsonl'),
  directory: join(dir, 'folder.tsl'),
  missing: join(dir, 'missing.tsl'),
  rules: join(dir, 'rules.ltl'),
};
writeFileSync(files.garbage, garbage);
writeFileSync(files.garbageTlsf, garbage);
writeFileSync(files.garbageLog, garbage);
writeFileSync(files.rules, 'p: G a\n');
mkdirSync(files.directory);

const tslc = runTslc;

afterEach(() => {
  process.exitCode = undefined;
});

const specInputs = [files.garbage, files.garbageTlsf, files.directory, files.missing];
const specCommands = ['check', 'synth', 'parse', 'fmt', 'symbols', 'tlsf', 'ltl', 'explain', 'play', 'report'];

describe('hostile input files', () => {
  it.each(specCommands)('tslc %s on garbage, a directory and a missing file', async (command) => {
    for (const file of specInputs) {
      if (file === files.garbageTlsf && !['check', 'synth'].includes(command)) continue;
      const extra = command === 'report' ? ['-o', join(dir, 'report.html')] : [];
      const res = await tslc(command, file, ...extra);
      expect(res.code, `${command} ${file}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/error: /);
      expect(res.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it('compile and why on garbage, a directory and a missing file', async () => {
    for (const file of specInputs) {
      if (file === files.garbageTlsf) continue;
      for (const argv of [
        ['compile', file, '-o', join(dir, 'out')],
        ['why', '--trace', file, '--spec', file, '--step', '0'],
      ]) {
        const res = await tslc(...argv);
        expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).not.toMatch(/internal error|\n\s+at /);
      }
    }
  });

  it('audit: a log that is all garbage, a directory, a missing file; rules that are garbage', async () => {
    for (const argv of [
      ['audit', '--spec', files.rules, files.garbageLog],
      ['audit', '--spec', files.rules, files.directory],
      ['audit', '--spec', files.rules, files.missing],
      ['audit', '--spec', files.garbage, files.garbageLog],
      ['audit', '--spec', files.directory, files.garbageLog],
    ]) {
      const res = await tslc(...argv);
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/error: /);
      expect(res.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });

  it('an output path that is a directory or under a file is a diagnostic naming the path', async () => {
    const spec = join(import.meta.dirname, '../../specs/choices.tsl');
    const cases: [string[], RegExp][] = [
      [['tlsf', spec, '-o', files.directory], /cannot open .*folder\.tsl: is a directory/],
      [['compile', spec, '-o', files.garbage], /cannot create directory .*garbage\.tsl/],
      [['synth', spec, '-o', join(files.garbage, 'x.hoa')], /garbage\.tsl/],
    ];
    for (const [argv, message] of cases) {
      const res = await tslc(...argv);
      expect(res.code, `${argv.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(/internal error|\n\s+at /);
    }
  });
});
