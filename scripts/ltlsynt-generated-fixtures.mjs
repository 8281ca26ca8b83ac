// Regenerates test/fixtures/generated/ltlsynt.tsv and ltlsynt-tsl.tsv: runs ltlsynt (which must already be on
// PATH; this script never builds or downloads it) on the seeded generated specs of
// test/conformance/generated-specs/generate.ts (TLSF) and generate-tsl.ts (TSL) and records its answers.
// Skips when ltlsynt is absent.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const probe = spawnSync('ltlsynt', ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.log('ltlsynt not found on PATH: fixture left as it is');
  process.exit(0);
}
console.log(`recording with ${probe.stdout.split('\n')[0]}`);
const run = spawnSync('npx', ['vitest', 'run', 'test/conformance/verdicts-generated.test.ts', 'test/conformance/verdicts-generated-tsl.test.ts', '-t', 'rewrites the fixture'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, GENERATED_FIXTURES: 'write' },
});
process.exit(run.status ?? 1);
