// What the fixture-recording scripts share: they run a conformance test in its "write" mode, which
// records a native reference tool's answers as committed data. The tool must already be on PATH
// (nothing is built or downloaded); without it the fixture is left as it is and the script exits 0.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `testFiles`' "rewrites the fixture" test with `env` set, if `tool` answers `--version`. */
export function recordFixture({ tool, testFiles, env }) {
  const probe = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    console.log(`${tool} not found on PATH: fixture left as it is`);
    process.exit(0);
  }
  console.log(`recording with ${probe.stdout.split('\n')[0]}`);
  const run = spawnSync('npx', ['vitest', 'run', ...testFiles, '-t', 'rewrites the fixture'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  process.exit(run.status ?? 1);
}
