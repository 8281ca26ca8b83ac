#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript in dist/ (built by `npm ci` / `npm run build`).
// `tslc check` first tries its fast path (one bundled script with a code cache, see
// src/cli/bundle-runner.ts); anything it does not handle goes to the full CLI.
const argv = process.argv.slice(2);

function missing(err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('tslc: the compiled CLI is missing; run `npm run build` (or `npm ci`) first.');
    process.exit(70);
  }
  throw err;
}

const handled =
  argv[0] === 'check'
    ? await import('../dist/src/cli/bundle-runner.js').then((runner) => runner.runFastCheck(argv), missing)
    : undefined;
if (handled !== undefined) process.exitCode = handled;
else await import('../dist/src/cli/main.js').then((cli) => cli.main(argv), missing);
