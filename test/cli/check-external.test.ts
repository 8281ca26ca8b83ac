/** The external half of `tslc check` (--synthesizer / --cross-check), in process, with fake tools. */
import { afterEach, describe, expect, test } from 'vitest';
import { runExternalCheck, wantsExternalCheck } from '../../src/cli/commands/check-external.js';
import { printingTool, tempDir } from '../external/fake-tools.js';
import { corpusPath } from '../support/corpus.js';

const BUTTON = corpusPath('ltlsynt-hoa', 'Button.tlsf');
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out, err };
}

describe('check with external synthesizers', () => {
  test('only non-builtin choices or --cross-check are delegated', () => {
    expect(wantsExternalCheck({ synthesizer: 'builtin' })).toBe(false);
    expect(wantsExternalCheck({ synthesizer: 'ltlsynt' })).toBe(true);
    expect(wantsExternalCheck({ 'cross-check': true })).toBe(true);
  });

  test('--synthesizer ltlsynt reports the tool’s verdict and exit code', async () => {
    const dir = tempDir();
    process.env.TSLC_LTLSYNT = printingTool(dir, 'unreal', 'UNREALIZABLE\n', 1);
    process.env.TSLC_CONFIG = '';
    const c = capture();
    const code = await runExternalCheck([BUTTON], { synthesizer: 'ltlsynt' }, c.io);
    expect(code).toBe(1);
    expect(c.out.join('')).toMatch(/Button\.tlsf: unrealizable \(\d+\.\d\d s, ltlsynt\)/);
  });

  test('--cross-check: a tool contradicting the builtin engine makes a DISAGREE row and exit 1', async () => {
    const dir = tempDir();
    process.env.TSLC_LTLSYNT = printingTool(dir, 'unreal2', 'UNREALIZABLE\n', 1);
    process.env.TSLC_STRIX = '';
    process.env.PATH = `${dir}:/usr/bin:/bin`;
    process.env.TSLC_CONFIG = '';
    const c = capture();
    const code = await runExternalCheck([BUTTON], { 'cross-check': true }, c.io);
    expect(code).toBe(1);
    const table = c.out.join('');
    expect(table).toMatch(/Button\.tlsf\s+realizable✓ [\d.]+s\s+unrealizable [\d.]+s\s+DISAGREE/);
  });
});
