// Regenerates test/fixtures/spot/automata.jsonl: runs Spot (ltl2tgba, autfilt, genltl, which must already be
// on PATH; this script never builds or downloads Spot) on the seeded inputs of
// test/conformance/automata-spot.test.ts and records its verdicts on our automata. Skips when ltlfilt is absent.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const probe = spawnSync('ltlfilt', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.log('ltlfilt not found on PATH: fixture left as it is');
  process.exit(0);
}
console.log(`recording with ${probe.stdout.split('\n')[0]}`);
const run = spawnSync('npx', ['vitest', 'run', 'test/conformance/automata-spot.test.ts', '-t', 'rewrites the fixture'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SPOT_AUTOMATA_FIXTURES: 'write' },
});
process.exit(run.status ?? 1);
