// Regenerates test/fixtures/z3/omega.jsonl and uf.jsonl: runs Z3 (`z3`, which must already be on
// PATH, e.g. Debian's package; this script never installs or downloads it) on the seeded #LIA and
// #UF queries of test/conformance/omega-z3.test.ts and uf-z3.test.ts and records its verdicts.
// Skips when z3 is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({
  tool: 'z3',
  testFiles: ['test/conformance/omega-z3.test.ts', 'test/conformance/uf-z3.test.ts'],
  env: { Z3_OMEGA_FIXTURES: 'write', Z3_UF_FIXTURES: 'write' },
});
