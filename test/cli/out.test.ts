/**
 * src/cli/out.ts: the check fast path writes straight to the descriptors; a descriptor that would
 * block hands the rest, and every later write, to Node's stream, so output stays in order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const writes: Array<{ fd: number; text: string }> = [];
let blockAfterBytes = Infinity;

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return {
    ...fs,
    writeSync: (fd: number, buffer: Buffer, offset: number, length: number): number => {
      if (blockAfterBytes <= 0) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' });
      const n = Math.min(length, blockAfterBytes);
      blockAfterBytes -= n;
      writes.push({ fd, text: buffer.subarray(offset, offset + n).toString('utf8') });
      return n;
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
  writes.length = 0;
  blockAfterBytes = Infinity;
});

describe('direct output', () => {
  it('goes through the streams until the fast path switches it on', async () => {
    vi.resetModules();
    const out = await import('../../src/cli/out.js');
    const streamed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (streamed.push(String(chunk)), true));
    out.writeStdout('via stream\n');
    expect(streamed).toEqual(['via stream\n']);
    expect(writes).toEqual([]);
    out.useDirectOutput();
    out.writeStdout('direct ∧ ok\n');
    expect(writes).toEqual([{ fd: 1, text: 'direct ∧ ok\n' }]);
    expect(streamed).toEqual(['via stream\n']);
    expect(out.allOutputWritten()).toBe(true);
  });

  it('a descriptor that would block hands the unwritten rest and all later output to the stream', async () => {
    vi.resetModules();
    const out = await import('../../src/cli/out.js');
    out.useDirectOutput();
    const streamed: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (streamed.push(Buffer.from(chunk).toString('utf8')), true));
    blockAfterBytes = 6;
    out.writeStdout('first line\n');
    out.writeStdout('second line\n');
    blockAfterBytes = Infinity;
    out.writeStdout('third line\n');
    expect(writes).toEqual([{ fd: 1, text: 'first ' }]);
    expect(streamed).toEqual(['line\n', 'second line\n', 'third line\n']);
    // stderr is a descriptor of its own: it still writes directly.
    out.writeStderr('note\n');
    expect(writes.at(-1)).toEqual({ fd: 2, text: 'note\n' });
  });
});
