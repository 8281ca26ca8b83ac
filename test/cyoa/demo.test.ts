/**
 * What `npm start` prints, read as a newcomer would: no internal names (paper file numbers, source
 * folders), explanations pointing at spec lines as file:line where the chosen update is written,
 * and counts that agree with what happened, singular and plural.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { adherenceText, count, runDemo, type DemoOptions } from '../../examples/cyoa/demo.js';

const root = join(import.meta.dirname, '../..');

async function demo(options: Partial<DemoOptions>): Promise<{ code: number; text: string }> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const code = await runDemo({ task: 'forest', steps: 4, seed: 2, interactive: false, repair: 1, skipCompile: true, ...options }, { input: Readable.from([]), output });
  return { code, text };
}

/** The `why:` lines: the chosen update terms and the spec sites they cite. */
function whyLines(text: string): { updates: { signal: string; fn: string }[]; sites: string[] }[] {
  return [...text.matchAll(/^why: +state \d+ → \d+: (.*)$/gm)].map(([, line]) => ({
    updates: [...line.matchAll(/\[(\w+) <- (\w+)/g)].map((m) => ({ signal: m[1], fn: m[2] })),
    sites: /\(see ([^)]*)\)$/.exec(line)?.[1].split(', ') ?? [],
  }));
}

describe('the demo says things in the user’s terms', () => {
  it('names the paper, not internal file numbers or folders, and counts turns in words', async () => {
    const { code, text } = await demo({});
    expect(code).toBe(0);
    expect(text).toContain('Enforcing Temporal Constraints on Generative Agent Behavior with');
    expect(text).toContain('Rothkopf, Zeng and Santolucito');
    expect(text).not.toMatch(/papers 00|Table 1|src\/verify|\(s\)/);
    expect(text).toContain('The end after 4 turns.');
    expect(text).toContain('checked by the independent model checker over all 4 turns');
  });

  it('cites each chosen update at the file:line where the spec writes it', async () => {
    const { text } = await demo({ task: 'all', steps: 8 });
    const cited = whyLines(text).filter((w) => w.sites.length > 0);
    expect(cited.length).toBeGreaterThan(3);
    for (const { updates, sites } of cited) {
      for (const site of sites) {
        const match = /^(specs\/\w+\.tsl):(\d+)$/.exec(site);
        expect(match, site).not.toBeNull();
        const line = readFileSync(join(root, match![1]), 'utf8').split('\n')[Number(match![2]) - 1];
        // The cited line writes one of the updates chosen this turn (`add` is written `+`).
        const writes = ({ signal, fn }: { signal: string; fn: string }) => line.includes(`[${signal} <- `) && (fn === 'add' || line.includes(`${fn}(`));
        expect(updates.some(writes), `${site}: ${line}`).toBe(true);
      }
    }
    // The composed spec's lines come from more than one file, so the file matters.
    expect(new Set(cited.flatMap((w) => w.sites.map((s) => s.split(':')[0]))).size).toBeGreaterThan(1);
  });

  it('when the model breaks an assumption, says over how many turns it checked and which assumption ended it', async () => {
    let found: { text: string; checked: number; played: number; turn: number; site: string; formula: string } | undefined;
    for (let seed = 1; seed <= 12 && !found; seed++) {
      const { text } = await demo({ task: 'adventure', seed, model: `sim:${seed}?hallucination=0.8&evaluatorError=0.3`, repair: 0 });
      const m = /over the first (?:turn|(\d+) turns) of (\d+) \(checked by the independent model checker\); on turn (\d+) the model's answers broke the assumption (\S+) \((.*)\), and the spec promises nothing after that$/m.exec(text);
      if (m) found = { text, checked: Number(m[1] ?? 1), played: Number(m[2]), turn: Number(m[3]), site: m[4], formula: m[5] };
    }
    expect(found, 'no seed broke an assumption').toBeDefined();
    const { text, checked, played, turn, site, formula } = found!;
    expect(text).toContain(`The end after ${played} turns.`);
    expect(checked).toBeLessThan(played);
    expect(turn).toBe(checked + 1);
    const [file, line] = site.split(':');
    const source = readFileSync(join(root, file), 'utf8').split('\n');
    expect(source[Number(line) - 1]).toContain(formula);
    // It is an environment assumption: inside an `always assume` block.
    const above = source.slice(0, Number(line) - 1).reverse();
    expect(above.find((l) => /^\s*(always\s+)?(assume|guarantee)\b|^\s*initially\b/.test(l))).toMatch(/always assume/);
  });
});

describe('adherenceText', () => {
  it('says "the 1 turn" and "all N turns"', () => {
    expect(adherenceText({ ok: true, checkedTurns: 1 }, 1, root)).toMatch(/over the 1 turn\)$/);
    expect(adherenceText({ ok: true, checkedTurns: 3 }, 3, root)).toMatch(/over all 3 turns\)$/);
  });

  it('explains a shorter check, in the singular too', () => {
    const text = adherenceText({ ok: true, checkedTurns: 1, brokenAssumption: { turn: 1 } }, 3, root);
    expect(text).toBe(
      "every choice of the controller satisfies the spec over the first turn of 3 (checked by the independent model checker); on turn 2 the model's answers broke the environment assumptions, and the spec promises nothing after that",
    );
  });

  it('reports a violation as one', () => {
    expect(adherenceText({ ok: false, reason: 'replay: mismatch' }, 2, root)).toBe('VIOLATED — replay: mismatch');
  });

  it('count pluralizes', () => {
    expect([count(0, 'turn'), count(1, 'turn'), count(2, 'call')]).toEqual(['0 turns', '1 turn', '2 calls']);
  });
});
