/**
 * A reader that closes tslc's output early (`tslc check … | head -1`) must not get a crash with an
 * EPIPE stack trace on stderr. Spawns the built CLI; skips without it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));

function closeAfterFirstChunk(argv: readonly string[]): Promise<{ first: string; stderr: string; code: number | null }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'bin/tslc.js'), ...argv], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = '';
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').once('data', (d: string) => {
      first = d;
      child.stdout.destroy();
    });
    child.on('close', (code) => done({ first, stderr, code }));
  });
}

describe.skipIf(!built)('closed output pipe', () => {
  it.each([
    [['check', 'specs/unrealizable/tutor-as-printed.tsl', 'specs/adventure.tsl', 'specs/adventure.tsl', 'specs/adventure.tsl']],
    [['synth', 'specs/adventure.tsl', '--format', 'dot']],
  ])('tslc %j stops quietly', async (argv) => {
    const { first, stderr, code } = await closeAfterFirstChunk(argv);
    expect(first.length).toBeGreaterThan(0);
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).not.toBeNull();
  });
});
