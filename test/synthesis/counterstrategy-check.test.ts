/**
 * `synthesize` hands out only counterstrategies that pass the independent check (src/verify), as
 * it does controllers: a broken extraction must end in an internal error, never in a witness
 * that does not defeat the controller. The extraction is sabotaged here to stand for such a bug.
 */
import { describe, expect, test, vi } from 'vitest';
import type { Counterstrategy } from '../../src/game/counterstrategy.js';

vi.mock('../../src/synthesis/extract.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/synthesis/extract.js')>();
  return {
    ...original,
    // Plays ¬i1 everywhere: breaks the assumption G i1, so the environment loses every play.
    extractAttractorCounterstrategy: (...args: Parameters<typeof original.extractAttractorCounterstrategy>): Counterstrategy => {
      const cs = original.extractAttractorCounterstrategy(...args);
      return { ...cs, transitions: cs.transitions.map((t) => ({ ...t, input: { ...t.input, i1: false } })) };
    },
  };
});

const { synthesize, checkRealizability, InternalSynthesisError } = await import('../../src/synthesis/index.js');
const { loadTlsfGame } = await import('../../src/tlsf/index.js');

describe('counterstrategies are checked before they are returned', () => {
  const spec = loadTlsfGame(
    't.tlsf',
    `INFO { TITLE: "t" DESCRIPTION: "d" SEMANTICS: Mealy TARGET: Mealy }
MAIN { INPUTS { i0; i1; } OUTPUTS { o0; } ASSUMPTIONS { G i1; } GUARANTEES { !i1; } }`,
  );

  test('a counterstrategy that fails the check is an internal error, not an answer', () => {
    // As written: with i1 fixed (it occurs only negatively) the spec is `false` and needs no attractor.
    expect(() => synthesize(spec, { route: 'bounded', timeoutMs: 10_000, polarity: false })).toThrow(InternalSynthesisError);
  });

  test('a verdict without a counterstrategy does not need one', () => {
    expect(checkRealizability(spec, { route: 'bounded', timeoutMs: 10_000 }).verdict).toBe('unrealizable');
  });
});
