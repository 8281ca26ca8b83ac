// Regenerates test/fixtures/z3/omega.jsonl: runs Z3 (`z3`, which must already be on PATH, e.g.
// Debian's package; this script never installs or downloads it) on the seeded integer systems of
// test/conformance/omega-z3.test.ts and records its sat/unsat verdicts. Skips when z3 is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({ tool: 'z3', testFiles: ['test/conformance/omega-z3.test.ts'], env: { Z3_OMEGA_FIXTURES: 'write' } });
