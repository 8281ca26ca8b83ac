/**
 * The library's `theory` option reaches every front door the CLI's `--theory` does: check (in
 * this thread and in its worker), synthesize, explain and compile read a `#LIA` spec without its
 * theory when asked, and a check lists the facts a theory added.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, compile, explain, synthesize } from '../../src/index.js';

const spec = join(import.meta.dirname, '../fixtures/theories/count-to-three.tsl');

describe('the theory option of the library', () => {
  it('check: realizable in the header\'s theory with its facts listed, unrealizable with theory none', async () => {
    const inTheory = await check(spec, { explain: false });
    expect(inTheory.specs[0].verdict).toBe('realizable');
    expect(inTheory.specs[0].theory?.name).toBe('#LIA');
    expect(inTheory.specs[0].theory?.facts.length).toBeGreaterThan(0);
    const without = await check(spec, { explain: false, theory: 'none' });
    expect(without.specs[0].verdict).toBe('unrealizable');
    expect(without.specs[0].theory).toBeUndefined();
  });

  it('synthesize, explain and compile honour it too', async () => {
    expect((await synthesize(spec)).verdict).toBe('realizable');
    expect((await synthesize(spec, { theory: 'none' })).verdict).toBe('unrealizable');
    expect((await explain(spec, { theory: 'none' })).verdict).toBe('unrealizable');
    expect((await explain(spec)).verdict).toBe('realizable');
    const compiled = await compile(spec, { theory: 'none' });
    expect(compiled.modules.map((m) => m.status)).toEqual(['unrealizable']);
  });
});
