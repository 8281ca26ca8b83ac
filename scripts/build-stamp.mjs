// Whether dist/ was built from the sources as they are now: `write` records a hash of every build
// input after `npm run build`; `check` exits 0 when the recorded hash still matches.
//
// `prepare` uses it so that a build that is already current is not repeated. That matters for
// `npx tslc` in a checkout: npm installs the project itself into its npx cache (to link its own
// `bin`), which runs `prepare` again; without this check every first `npx tslc` rebuilt
// everything silently (about 14 s). The hash is of contents, not file times, so a checkout
// switched to another commit, or a changed lockfile, rebuilds.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// TSLC_STAMP_ROOT: another tree (the test's), else this checkout.
const root = process.env.TSLC_STAMP_ROOT ?? join(fileURLToPath(import.meta.url), '../..');
const STAMP = join(root, 'dist', '.build-stamp');
/** What `npm run build` reads (tsconfig.build.json's include, the grammar, the build scripts). */
const INPUTS = ['src', 'runtime', 'bench', 'examples', 'generated', 'grammar', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  // The parser generated into src/ is an output of the build, not an input.
  if (relative(root, path) === join('src', 'tsl', 'generated')) return [];
  return readdirSync(path).sort().flatMap((name) => files(join(path, name)));
}

function inputsHash() {
  const hash = createHash('sha256').update(process.version.split('.')[0]);
  for (const file of INPUTS.flatMap((p) => files(join(root, p)))) hash.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'write') writeFileSync(STAMP, `${inputsHash()}\n`);
else if (mode === 'check') {
  const current = existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === inputsHash() && existsSync(join(root, 'dist/src/cli/main.js'));
  if (current) process.stderr.write('tslc: dist/ is already built from these sources; not building again\n');
  process.exit(current ? 0 : 1);
} else {
  process.stderr.write('usage: node scripts/build-stamp.mjs write|check\n');
  process.exit(2);
}
