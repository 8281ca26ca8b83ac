// The start-up bench's pure parts: how one row's rounds become its medians and paired difference,
// and that the specs it names are in the packed SYNTCOMP fixture it reads (the runs themselves
// spawn a few hundred processes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { NAMED_SPECS, summarizeRow } from '../../bench/startup.js';

describe('startup bench', () => {
  it('pairs each round with the node -e 0 run of the same round', () => {
    // A machine whose load changes over the rounds: node and tslc slow down together. The paired
    // differences are 12, 10, 7, 12, 11 (median 11); the medians alone differ by 7.
    const s = summarizeRow({ node: [50, 60, 200, 210, 220], tslc: [62, 70, 207, 222, 231] });
    expect(s.deltaMs).toBe(11);
    expect(s.nodeMs).toBe(200);
    expect(s.tslcMs).toBe(207);
    expect(s.ratio).toBeCloseTo(1.035);
    expect(s.baselineMs).toBeUndefined();
    expect(s.baselineDeltaMs).toBeUndefined();
  });

  it('reports a baseline build in the same rounds', () => {
    const s = summarizeRow({ node: [50, 52, 54], tslc: [70, 71, 75], baseline: [80, 90, 84] });
    expect(s.deltaMs).toBe(20);
    expect(s.baselineMs).toBe(84);
    expect(s.baselineDeltaMs).toBe(30);
  });

  it('names specs that are in the packed SYNTCOMP fixture', () => {
    const files = JSON.parse(brotliDecompressSync(readFileSync(join(import.meta.dirname, '../fixtures/syntcomp/tlsf-sources.json.br'))).toString('utf8')) as Record<string, string>;
    for (const key of NAMED_SPECS) expect(typeof files[key], key).toBe('string');
  });
});
