/**
 * The demo as a program of its own: `tslc demo` (src/cli/commands/demo.ts) checks its flags and
 * starts this script from a checkout, passing the options as JSON, so the CLI never imports the
 * examples (they are not part of the package). Exit codes as `runDemo`'s; a configuration error
 * (an unknown model, a missing controller) is a message and exit 2, never a stack trace.
 */
import { DemoConfigError, type DemoOptions, runDemo } from './demo.js';

const options = JSON.parse(process.argv[2] ?? '{}') as DemoOptions;
try {
  process.exitCode = await runDemo(options, { input: process.stdin, output: process.stdout });
} catch (err) {
  if (!(err instanceof DemoConfigError)) throw err;
  process.stderr.write(`tslc demo: error: ${err.message}\n`);
  process.exitCode = 2;
}
