/**
 * What the theories derive, and that it is only what is valid: UF congruence closure, the facts
 * #LIA and #UF add to small specs (with their provenance), the errors #LIA gives for what it
 * cannot read, and `--theory` overriding the header.
 */
import { describe, expect, it } from 'vitest';
import { ufUnsat } from '../../src/theory/congruence.js';
import type { TLiteral, TTerm } from '../../src/theory/terms.js';
import { loadTslGame } from '../../src/tsl/index.js';
import { UserError } from '../../src/diagnostics/diagnostic.js';

const v = (name: string): TTerm => ({ kind: 'var', name, time: 0 });
const app = (fn: string, ...args: TTerm[]): TTerm => ({ kind: 'app', fn, args });
const eq = (a: TTerm, b: TTerm, positive = true): TLiteral => ({ atom: { fn: 'eq', args: [a, b] }, positive });
const p = (fn: string, a: TTerm, positive = true): TLiteral => ({ atom: { fn, args: [a] }, positive });

describe('congruence closure (#UF)', () => {
  it('equality is transitive and congruent, for functions and predicates', () => {
    expect(ufUnsat([eq(v('x'), v('y')), eq(v('y'), v('z')), eq(v('x'), v('z'), false)])).toBe(true);
    expect(ufUnsat([eq(v('x'), v('y')), eq(app('f', v('x')), app('f', v('y')), false)])).toBe(true);
    expect(ufUnsat([eq(v('x'), v('y')), p('ok', v('x')), p('ok', v('y'), false)])).toBe(true);
    // f(f(f(x))) = x and f(f(f(f(f(x))))) = x give f(x) = x (the classic example).
    const f = (t: TTerm, n: number): TTerm => (n === 0 ? t : app('f', f(t, n - 1)));
    expect(ufUnsat([eq(f(v('x'), 3), v('x')), eq(f(v('x'), 5), v('x')), eq(f(v('x'), 1), v('x'), false)])).toBe(true);
  });

  it('distinct literal values are distinct; anything else is satisfiable', () => {
    expect(ufUnsat([eq(v('x'), { kind: 'lit', value: 3 }), eq(v('x'), { kind: 'lit', value: 4 })])).toBe(true);
    expect(ufUnsat([eq(v('x'), v('y')), eq(app('f', v('x')), app('g', v('y')), false)])).toBe(false);
    expect(ufUnsat([p('ok', v('x')), p('ok', v('y'), false)])).toBe(false);
    expect(ufUnsat([eq(v('x'), { kind: 'lit', value: 3 }), eq(v('x'), { kind: 'lit', value: '3' }, false)])).toBe(false);
  });
});

const load = (text: string, theory?: 'LIA' | 'UF' | 'none') => loadTslGame('spec.tsl', text, { theory });
const facts = (text: string, theory?: 'LIA' | 'UF' | 'none') =>
  load(text, theory).game.assumptions.flatMap((a) => (a.theory ? [`${a.theory.kind}: ${a.theory.fact}`] : []));

describe('#LIA facts', () => {
  const retry = `#LIA
initially assume { n = 0; }
always guarantee {
  failed(reply) && n < 3  -> [n <- n + 1] && [reply <- retry(reply)];
  failed(reply) && n >= 3 -> [reply <- escalate(reply)] && [n <- 0];
  ! failed(reply)         -> [n <- 0] && [reply <- answer(reply)];
}`;

  it('says which predicates cannot hold together and what the updates make true, with provenance', () => {
    const { game } = load(retry);
    expect(game.theory).toBe('LIA');
    const derived = facts(retry);
    expect(derived).toContain('consistency: n < 3 and n >= 3 cannot both hold');
    expect(derived).toContain('consistency: n < 3 or n >= 3 always holds');
    expect(derived).toContain('consistency: n = 0 implies n < 3');
    expect(derived).toContain('update: [n <- 0] makes n < 3 true next');
    // n = 0 is read only at the start (not under G): no update facts about it.
    expect(derived.some((f) => /makes n = 0/.test(f))).toBe(false);
    expect(derived).toContain('update: [n <- n] keeps n < 3 as it is');
    expect(derived).toContain('update: [n <- n + 1] when !(n < 3) makes n < 3 false next');
    // Nothing false: an increment from below 3 may or may not stay below 3.
    expect(derived.some((f) => /\[n <- n \+ 1\] when n < 3 makes n < 3 true/.test(f))).toBe(false);
    const part = game.assumptions.find((a) => a.theory?.fact === 'n < 3 and n >= 3 cannot both hold')!;
    expect(part.text).toBe('assumed from #LIA: n < 3 and n >= 3 cannot both hold');
    expect(part.span).toMatchObject({ file: 'spec.tsl', line: 1, col: 1 });
    // failed(reply) is not arithmetic: it stays an uninterpreted predicate.
    expect(derived.some((f) => f.includes('failed'))).toBe(false);
  });

  it('reaches a threshold by repeating an increment, from where it lies ahead', () => {
    const derived = facts(`#LIA
initially assume { x = 0; }
always guarantee { [x <- x + 2] || [x <- x]; }
guarantee { F (x = 4); F (x = 5); }`);
    expect(derived).toContain('reachability: repeating [x <- x + 2] from x = 0 (keeping the value in between) eventually makes x = 4 true');
    // x = 5 is skipped by steps of 2 from 0: never assumed reachable from there.
    expect(derived.some((f) => f.includes('x = 5 true'))).toBe(false);
  });

  it('without a header, or with --theory none, nothing is assumed; --theory lia reads a headerless spec', () => {
    const plain = retry.replace('#LIA\n', '');
    expect(facts(plain)).toEqual([]);
    expect(load(plain).game.theory).toBeUndefined();
    expect(facts(retry, 'none')).toEqual([]);
    expect(facts(plain, 'LIA')).toContain('consistency: n < 3 and n >= 3 cannot both hold');
    // Read in #UF instead, < is uninterpreted: no arithmetic facts.
    expect(facts(retry, 'UF').some((f) => f.includes('cannot both hold'))).toBe(false);
  });

  it.each([
    ['[x <- x / 2]', '#LIA has no division'],
    ['[x <- x * y]', 'one side of "*" must be a constant'],
    ['x < 2.5', '2.5 is not an integer'],
    ['x < 99999999999999999999', 'is too large'],
  ])('%s is an error in #LIA, at the term', (formula, message) => {
    try {
      load(`#LIA\nalways guarantee { ${formula}; }`);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(UserError);
      const d = (err as UserError).diagnostics[0];
      expect(d.message).toContain(message);
      expect(d.span).toMatchObject({ file: 'spec.tsl', line: 2 });
    }
  });

  it('constant products are linear', () => {
    expect(facts('#LIA\nalways guarantee { [x <- 2 * x] || [x <- x]; x * 3 < 7 -> [y <- y]; }')).not.toEqual([]);
  });
});

describe('#UF facts', () => {
  it('copying a kept value makes the copy equal, and keeps what predicates say about it', () => {
    const derived = facts(`#UF
always guarantee { [a <- a]; [b <- a] || [b <- b]; ok(b) || a = b; ok(a) -> ok(b); }`);
    expect(derived).toContain('update: [a <- a] && [b <- a] makes a = b true next');
    expect(derived).toContain('update: [b <- a] when ok(a) makes ok(b) true next');
    expect(derived).toContain('consistency: !(ok(b)), a = b and ok(a) cannot all hold');
  });
});
