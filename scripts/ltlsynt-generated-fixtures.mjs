// Regenerates test/fixtures/generated/ltlsynt.tsv and ltlsynt-tsl.tsv, and test/fixtures/randltl/:
// runs ltlsynt (which must already be on PATH; this script never builds or downloads it; syfco and
// ltlfilt too, for the check of the generator's TLSF semantics, and randltl, which draws the random
// formulas) on the seeded generated specs of test/conformance/generated-specs/generate.ts (TLSF)
// and generate-tsl.ts (TSL) and on the randltl streams of test/conformance/randltl/streams.ts, and
// records its answers; and judges tslc's unrealizability cores (test/fixtures/generated/cores.tsv).
// Skips when ltlsynt is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({
  tool: 'ltlsynt',
  testFiles: ['test/conformance/verdicts-generated.test.ts', 'test/conformance/verdicts-generated-tsl.test.ts', 'test/conformance/verdicts-randltl.test.ts', 'test/conformance/cores-ltlsynt.test.ts'],
  env: { GENERATED_FIXTURES: 'write', GENERATED_CORES: 'write' },
});
