/**
 * Seeded generator of small TSL specs (tsltools dialect, no theory), for verdict conformance with
 * ltlsynt on what TSL adds: cells whose updates are exactly-one-per-step signals, predicates over
 * cells and inputs, and `initially`/`always` blocks. The reference is ltlsynt on the spec's LTL
 * abstraction (`tslc ltl`; that abstraction is checked against tsltools' own in
 * test/conformance/tsl-tsltools.test.ts), so what is compared here is the solver on the signal
 * games, and everything after the front end.
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../../../runtime/random.js';

export interface GeneratedTsl {
  /** `tsl-<index>`. */
  readonly id: string;
  readonly tsl: string;
  /** First 12 hex digits of the text's SHA-256. */
  readonly hash: string;
}

export const GENERATED_TSL_SEED = 20261125;
export const GENERATED_TSL_COUNT = 300;

export function generatedTslSpec(seed: number, index: number): GeneratedTsl {
  const r = mulberry32((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x27d4eb2f)) >>> 0);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const chance = (p: number) => r() < p;
  const cells = ['c0', 'c1'].slice(0, 1 + Math.floor(r() * 2));
  const inputs = ['i', 'j'].slice(0, 1 + Math.floor(r() * 2));
  const terms = [...cells, ...inputs];
  const pred = () => `${pick(['p', 'q'])} ${pick(terms)}`;
  const upd = () => {
    const c = pick(cells);
    return `[${c} <- ${pick([c, `f ${pick(terms)}`, `g ${c}`, pick(cells)])}]`;
  };
  const lit = () => {
    const a = chance(0.55) ? pred() : upd();
    return chance(0.25) ? `!(${a})` : a;
  };
  const prop = (depth = 1): string => (depth <= 0 || chance(0.5) ? lit() : `(${prop(depth - 1)}) ${pick(['&&', '||', '->'])} (${prop(depth - 1)})`);
  const shapes = [
    () => `${prop()} -> X ${upd()}`,
    () => `${prop()} -> F ${upd()}`,
    () => `F (${prop()})`,
    () => `${upd()} W (${pred()})`,
    () => `${prop()} -> (${upd()} || ${upd()})`,
    () => `G F (${prop()})`,
    () => prop(),
    () => `(${pred()}) -> X (${prop()})`,
    () => `${upd()} U (${pred()})`,
    () => `F G (${lit()})`,
    () => `(${pred()}) -> X F (${upd()} R (${pred()}))`,
  ];
  const guarantees = Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(shapes)());
  const assumptions = Array.from({ length: Math.floor(r() * 3) }, () =>
    pick([() => `G F (${pred()})`, () => `(${pred()}) -> X !(${pred()})`, () => `F (${pred()})`, () => `${pred()} -> X (${pred()})`])(),
  );
  const block = (head: string, lines: readonly string[]) => (lines.length === 0 ? '' : `${head} {\n${lines.map((l) => `  ${l};\n`).join('')}}\n`);
  const tsl =
    `// generated (seed ${seed}, spec ${index})\n` +
    block('initially guarantee', chance(0.2) ? [upd()] : []) +
    block('always assume', assumptions) +
    block('always guarantee', guarantees);
  return { id: `tsl-${index}`, tsl, hash: createHash('sha256').update(tsl).digest('hex').slice(0, 12) };
}

export function generatedTslSpecs(): GeneratedTsl[] {
  return Array.from({ length: GENERATED_TSL_COUNT }, (_, k) => generatedTslSpec(GENERATED_TSL_SEED, k));
}
