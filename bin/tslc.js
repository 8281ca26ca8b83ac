#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript in dist/ (built by `npm ci` / `npm run build`).
import('../dist/src/cli/main.js').then(
  (cli) => cli.main(process.argv.slice(2)),
  (err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
      console.error('tslc: the compiled CLI is missing; run `npm run build` (or `npm ci`) first.');
      process.exit(70);
    }
    throw err;
  },
);
