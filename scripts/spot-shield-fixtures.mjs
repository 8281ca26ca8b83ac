// Regenerates test/fixtures/spot/shield-ltlf.jsonl: runs Spot (ltl2tgba, autfilt, ltlfilt, genltl,
// randltl, which must already be on PATH; this script never builds or downloads Spot) on the rule
// sets and histories of test/conformance/shield-spot.test.ts and records its LTLf decisions.
// Skips when ltl2tgba is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({ tool: 'ltl2tgba', testFiles: ['test/conformance/shield-spot.test.ts'], env: { SPOT_SHIELD_FIXTURES: 'write' } });
