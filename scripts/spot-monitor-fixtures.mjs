// Regenerates test/fixtures/spot/monitor-ltl3.jsonl: runs Spot (ltl2tgba, autfilt, ltlfilt, genltl,
// randltl, which must already be on PATH; this script never builds or downloads Spot) on the
// formulas and traces of test/conformance/monitor-spot.test.ts and records its LTL3 verdicts and
// safety/liveness classes. Skips when ltl2tgba is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({ tool: 'ltl2tgba', testFiles: ['test/conformance/monitor-spot.test.ts'], env: { SPOT_MONITOR_FIXTURES: 'write' } });
