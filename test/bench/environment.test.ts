import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { environmentNote, runTimed, shownCommand, shownPath, START_UP_VARIABLES, useTimedEnvironment } from '../../bench/measure.js';

// A child that prints the variable as it sees it.
const seen = async (): Promise<string> =>
  (await runTimed(process.execPath, ['-e', 'process.stdout.write(String(process.env.NODE_EXTRA_CA_CERTS))'], 30, { cpu: false })).stdout;

describe('the timed commands’ environment', () => {
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
    useTimedEnvironment([]);
  });

  it('leaves out NODE_EXTRA_CA_CERTS, which slows every Node start, unless --inherit-env', async () => {
    expect(START_UP_VARIABLES).toContain('NODE_EXTRA_CA_CERTS');
    // An empty file: Node reads it at start-up and finds no certificate, without a warning.
    process.env.NODE_EXTRA_CA_CERTS = '/dev/null';
    expect(useTimedEnvironment(['--timeout', '10'])).toEqual(['NODE_EXTRA_CA_CERTS']);
    expect(await seen()).toBe('undefined');
    expect(useTimedEnvironment(['--inherit-env'])).toEqual([]);
    expect(await seen()).toBe('/dev/null');
  });

  it('removes nothing where the variable is not set, and says so', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    expect(useTimedEnvironment([])).toEqual([]);
    expect(await seen()).toBe('undefined');
    expect(await environmentNote(1)).toMatch(/none of `NODE_EXTRA_CA_CERTS` is set here/);
  });

  it('reports what it removed, with Node’s start with and without it', async () => {
    process.env.NODE_EXTRA_CA_CERTS = '/dev/null';
    useTimedEnvironment([]);
    expect(await environmentNote(1)).toMatch(/`NODE_EXTRA_CA_CERTS` is set on this machine and was removed .* took a median \d+ ms with it and \d+ ms without/);
    useTimedEnvironment(['--inherit-env']);
    expect(await environmentNote(1)).toMatch(/was kept \(`--inherit-env`\)/);
  });
});

describe('paths in the result files', () => {
  const root = join(import.meta.dirname, '../..');
  it('are shown relative to the checkout, so no table names this machine’s folders', () => {
    expect(shownPath(join(root, '../shared/corpus'))).toBe(join('..', 'shared', 'corpus'));
    expect(shownPath(join(root, 'bench'))).toBe('bench');
    expect(shownPath(root)).toBe('.');
    expect(shownPath('specs/adventure.tsl')).toBe('specs/adventure.tsl');
    expect(shownCommand(['startup', '--runs', '15', '--baseline', join(root, '../base/bin/tslc.js')])).toBe('npm run bench -- startup --runs 15 --baseline ../base/bin/tslc.js');
  });
});
