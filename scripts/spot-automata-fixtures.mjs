// Regenerates test/fixtures/spot/automata.jsonl: runs Spot (ltl2tgba, autfilt, genltl, which must
// already be on PATH; this script never builds or downloads Spot) on the pattern sets and seeded
// random formulas of test/conformance/automata-spot.test.ts and records its verdicts on our
// automata. Skips when ltl2tgba is absent.
import { recordFixture } from './record-fixture.mjs';

recordFixture({ tool: 'ltl2tgba', testFiles: ['test/conformance/automata-spot.test.ts'], env: { SPOT_AUTOMATA_FIXTURES: 'write' } });
