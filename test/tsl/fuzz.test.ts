/**
 * Fuzzing the front end: seeded random byte and token mutations of the corpus and specs/. Every
 * input must either load or fail with a UserError (a diagnostic) — any other exception, or an
 * input that takes more than a second (a hang in the making), fails the test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { UserError } from '../../src/diagnostics/diagnostic.js';
import { formatTsl, loadTslGame, parseTsl } from '../../src/tsl/index.js';
import { mulberry32 as rng } from '../../runtime/random.js';
import { corpusPath } from '../support/corpus.js';

const corpusDir = corpusPath('syntcomp-tsl');
const specsDir = join(import.meta.dirname, '../../specs');
const read = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tsl')).sort().map((f) => readFileSync(join(dir, f), 'utf8')) : [];
// Small files only: mutations near the start of a 10 KB file mostly re-test the same tail.
const seeds = [...read(specsDir), ...read(corpusDir)].filter((text) => text.length <= 1200);


const BYTES = '()[]{};,<->=!&|+-*/"#.@\'_ \n\tXFGUWRaz09\u0000é∀';
const TOKENS = ['(', ')', '[', ']', '{', '}', ';', '<-', '->', '<->', '&&', '||', '!', 'X', 'F', 'G', 'U', 'W', 'R', 'true',
  'false', '=', '+', '-', '*', '/', '<', '>=', '3', '-2', '2.5', 'p', 'x', 'f()', 'room.light', 'import "a.tsl" as A',
  'always', 'initially', 'assume', 'guarantee', '#UF', '/*', '*/', '//', ',', 'A = x;', 'g x y = p x;'];
const TOKEN_RE = /\s+|\/\/[^\n]*|<->|<-|->|&&|\|\||[A-Za-z_@][A-Za-z0-9_@'.]*|[0-9]+(?:\.[0-9]+)?|./g;

function mutate(text: string, random: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const rounds = 1 + Math.floor(random() * 4);
  let out = text;
  for (let r = 0; r < rounds; r++) {
    if (random() < 0.5) {
      const i = Math.floor(random() * (out.length + 1));
      const op = random();
      if (op < 0.33) out = out.slice(0, i) + pick([...BYTES]) + out.slice(i);
      else if (op < 0.66) out = out.slice(0, i) + out.slice(i + 1);
      else out = out.slice(0, i) + pick([...BYTES]) + out.slice(i + 1);
    } else {
      const tokens = out.match(TOKEN_RE) ?? [];
      const i = Math.floor(random() * (tokens.length + 1));
      const op = random();
      if (op < 0.25) tokens.splice(i, 1);
      else if (op < 0.5) tokens.splice(i, 0, pick(TOKENS));
      else if (op < 0.75) tokens.splice(i, 1, pick(TOKENS));
      else if (tokens.length > 1) {
        const j = Math.floor(random() * tokens.length);
        [tokens[i % tokens.length], tokens[j]] = [tokens[j], tokens[i % tokens.length]];
      }
      out = tokens.join('');
    }
  }
  return out;
}

it.skipIf(seeds.length === 0)('10,000 mutated inputs yield only diagnostics', () => {
  const random = rng(20261122);
  const failures: string[] = [];
  let loaded = 0;
  let diagnosed = 0;
  const readFile = () => {
    throw new Error('ENOENT');
  };
  for (let n = 0; n < 10_000; n++) {
    const input = mutate(seeds[Math.floor(random() * seeds.length)], random);
    const started = performance.now();
    try {
      loadTslGame('/fuzz/input.tsl', input, { readFile });
      // Every 10th input that loads must also format to something that parses again.
      if (n % 10 === 0) parseTsl('/fuzz/formatted.tsl', formatTsl(parseTsl('/fuzz/input.tsl', input)));
      loaded++;
    } catch (err) {
      if (err instanceof UserError && err.diagnostics.length > 0 && err.diagnostics.every((d) => d.message.length > 0)) diagnosed++;
      else failures.push(`${String(err)}\n--- input ---\n${input.slice(0, 400)}`);
    }
    if (performance.now() - started > 1000) failures.push(`slow input (${Math.round(performance.now() - started)} ms)`);
    if (failures.length >= 3) break;
  }
  expect(failures).toEqual([]);
  expect(loaded + diagnosed).toBe(10_000);
  // Both outcomes must be well represented, or the mutations are too weak / too strong.
  expect(loaded).toBeGreaterThan(500);
  expect(diagnosed).toBeGreaterThan(500);
}, 120_000);
