// Regenerates test/fixtures/spot/ltl-parse.json: runs Spot's ltlfilt/randltl (which must already be
// on PATH; this script never builds or downloads Spot) on the seeded inputs of
// test/conformance/spot-ltl/inputs.ts and records how Spot reads each one. Skips when ltlfilt is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({ tool: 'ltlfilt', testFiles: ['test/conformance/ltl-spot.test.ts'], env: { SPOT_LTL_FIXTURES: 'write' } });
