#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript in dist/ (built by `npm ci` / `npm run build`).
// CommonJS (bin/package.json): `tslc check` first tries its fast path, one bundled script with a
// code cache (src/cli/bundle-runner.cts), without ever starting Node's ES module loader; anything
// the fast path does not handle goes to the full CLI.
'use strict';
const argv = process.argv.slice(2);

// A reader that stops early (`tslc check … | head -1`) closes the pipe: stop quietly, as other
// command-line tools do, instead of crashing with EPIPE. Installed only for the full CLI: the
// check fast path writes without Node's stream objects (src/cli/out.ts) and handles it itself.
function quietOnClosedPipe() {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err) => {
      if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
}

function missing(err) {
  if (err && (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND')) {
    console.error('tslc: the compiled CLI is missing; run `npm run build` (or `npm ci`) first.');
    process.exit(70);
  }
  throw err;
}

async function launch() {
  if (argv[0] === 'check') {
    let runner;
    try {
      runner = require('../dist/src/cli/bundle-runner.cjs');
    } catch (err) {
      missing(err);
    }
    const outcome = await runner.runFastCheck(argv);
    if (outcome !== undefined) {
      process.exitCode = outcome.exitCode;
      // Skip V8's heap teardown (about 5 ms) once every byte is written: process.exit() would
      // drop output still queued for a pipe.
      if (outcome.allOutputWritten) process.exit(outcome.exitCode);
      return;
    }
  }
  quietOnClosedPipe();
  const cli = await import('../dist/src/cli/main.js').catch(missing);
  await cli.main(argv);
}

launch();
