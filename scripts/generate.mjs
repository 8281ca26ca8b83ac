// Regenerates generated/ from specs/: one module per spec, plus the composed seed tasks of the
// TSL agent papers (Table 1). `--check` writes nothing and exits 1 if any module is stale — CI
// runs it so a committed controller can never drift from its spec.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const specs = readdirSync(join(root, 'specs'))
  .filter((f) => f.endsWith('.tsl'))
  .sort()
  .map((f) => `specs/${f}`);
const composed = [
  { as: 'adventure-forest', files: ['specs/adventure.tsl', 'specs/forest.tsl'] },
  { as: 'adventure-choices', files: ['specs/adventure.tsl', 'specs/choices.tsl'] },
  { as: 'adventure-choices-forest', files: ['specs/adventure.tsl', 'specs/choices.tsl', 'specs/forest.tsl'] },
];

const runs = [[...specs], ...composed.map((c) => [...c.files, '--as', c.as])];
let status = 0;
for (const args of runs) {
  const argv = ['bin/tslc.js', 'compile', ...args, '-o', 'generated', ...(check ? ['--check'] : [])];
  const result = spawnSync(process.execPath, argv, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) status = result.status ?? 1;
}
process.exit(status);
