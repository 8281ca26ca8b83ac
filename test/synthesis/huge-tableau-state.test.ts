// A tableau state whose expansion has hundreds of thousands of terms (SYNTCOMP's
// ltl_f/finding_nemo_pb_6: 262,144 distinct targets in one state). Its reduction sized an m × m
// implication matrix, 68 billion entries, and the check ended in `RangeError: Invalid typed array
// length` (an internal error with a stack trace) instead of an answer.
import { describe, expect, it } from 'vitest';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { checkRealizability } from '../../src/synthesis/index.js';
import { syntcompCases } from '../support/syntcomp.js';

const FILE = 'tlsf/ltl_f/generated_TLSF/finding_nemo_pb_6_pe_.tlsf';

describe('a tableau state with a huge expansion', () => {
  const c = syntcompCases().find((x) => x.file === FILE);
  it.skipIf(c === undefined)('ends in an answer or unknown at the deadline, not an exception', () => {
    const spec = loadTlsfGame(c!.file, c!.source);
    const r = checkRealizability(spec, { timeoutMs: 2000 });
    // ltlsynt does not decide it within 10 s either: unknown is expected, a verdict is allowed.
    expect(['unknown', 'realizable', 'unrealizable']).toContain(r.verdict);
    if (r.verdict === 'unknown') expect(r.reason).toBe('timeout');
  }, 30_000);
});
