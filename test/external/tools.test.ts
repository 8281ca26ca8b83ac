/** Tool discovery (env, config file, PATH), version detection, and `tslc doctor`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { doctorReport, formatDoctorReport } from '../../src/cli/commands/doctor.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { findTools, loadConfig, locateTool } from '../../src/external/tools.js';
import { tempDir, writeTool } from './fake-tools.js';

let dir: string;
let bin: string;
beforeAll(() => {
  dir = tempDir();
  bin = join(dir, 'bin');
  mkdirSync(bin);
  writeTool(bin, 'ltlsynt', 'echo "ltlsynt (spot) 2.12.1"; echo; echo "Copyright (C) 2024 by the Spot authors"');
  writeTool(bin, 'strix', 'echo "Strix 21.0.0"');
});

const cleanEnv = (vars: Record<string, string>) => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg'), TSLC_CONFIG: '', ...vars });

describe('tool discovery', () => {
  test('PATH lookup and version detection', async () => {
    const tools = await findTools({ env: cleanEnv({ PATH: bin }), config: { synthesizers: {} } });
    expect(tools.map((t) => [t.tool, t.available, t.version, t.location?.source])).toEqual([
      ['ltlsynt', true, '2.12.1', 'path'],
      ['strix', true, '21.0.0', 'path'],
    ]);
  });

  test('the environment variable wins over PATH', () => {
    const other = writeTool(dir, 'my-ltlsynt', 'echo "ltlsynt (spot) 2.13.0"');
    const found = locateTool('ltlsynt', cleanEnv({ PATH: bin, TSLC_LTLSYNT: other }), { synthesizers: {} });
    expect(found.location).toMatchObject({ path: other, source: 'env' });
  });

  test('a config file names tools (relative to itself) with extra arguments', () => {
    const cfgDir = join(dir, 'project');
    mkdirSync(join(cfgDir, 'tools'), { recursive: true });
    writeTool(join(cfgDir, 'tools'), 'strix-wrapper', 'echo Strix 21.0.0');
    writeFileSync(
      join(cfgDir, 'tslc.config.json'),
      JSON.stringify({ synthesizers: { strix: { path: './tools/strix-wrapper', args: ['--threads', '1'] } }, timeoutSeconds: 5 }),
    );
    const env = cleanEnv({ PATH: '', TSLC_CONFIG: join(cfgDir, 'tslc.config.json') });
    const config = loadConfig(env);
    expect(config.timeoutMs).toBe(5000);
    const found = locateTool('strix', env, config);
    expect(found.location).toMatchObject({ path: join(cfgDir, 'tools', 'strix-wrapper'), source: 'config', extraArgs: ['--threads', '1'] });
    expect(locateTool('ltlsynt', env, config).problem).toMatch(/ltlsynt not found/);
  });

  test('a broken config file is a diagnostic pointing at it', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ synthesizers: { bosy: '/usr/bin/bosy' } }));
    let caught: unknown;
    try {
      loadConfig(cleanEnv({ TSLC_CONFIG: bad }));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).diagnostics[0]).toMatchObject({ message: expect.stringMatching(/unknown synthesizer "bosy"/), span: { file: bad } });
    writeFileSync(bad, '{ not json');
    expect(() => loadConfig(cleanEnv({ TSLC_CONFIG: bad }))).toThrow(/not valid JSON/);
  });

  test('a tool whose version probe hangs is reported unavailable, not waited for forever', async () => {
    const hang = writeTool(dir, 'hang', 'sleep 1000');
    const [ltlsynt] = await findTools({ env: cleanEnv({ PATH: '', TSLC_LTLSYNT: hang }), config: { synthesizers: {} }, versionTimeoutMs: 300 });
    expect(ltlsynt.available).toBe(false);
    expect(ltlsynt.problem).toMatch(/did not answer/);
  }, 20_000);
});

describe('tslc doctor', () => {
  test('lists every back end with versions, or what to install', async () => {
    const report = await doctorReport(cleanEnv({ PATH: '', TSLC_LTLSYNT: join(bin, 'ltlsynt') }));
    const text = formatDoctorReport(report);
    expect(text).toMatch(/✓ builtin/);
    expect(text).toMatch(/✓ ltlsynt\s+2\.12\.1 .*bin\/ltlsynt \(from env\)/);
    expect(text).toMatch(/✗ strix\s+strix not found: install Strix.*TSLC_STRIX/);
    expect(text).toMatch(/--synthesizer choices that will work: builtin, ltlsynt, auto/);
  });
});
