/**
 * Issue 18 items 11 and 14: logs come from files, pipes, FIFOs and stdin, read incrementally; a
 * UTF-8 byte-order mark is not part of line 1; quoted CSV fields may hold line breaks (RFC 4180);
 * a line longer than the cap is reported, never held.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type LogItem, readLog } from '../../src/audit/logs.js';

const dir = mkdtempSync(join(tmpdir(), 'tslc-audit-streams-'));
function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function collect(source: Parameters<typeof readLog>[0], options: Parameters<typeof readLog>[1]): Promise<LogItem[]> {
  const out: LogItem[] = [];
  for await (const item of readLog(source, options)) out.push(item);
  return out;
}

/** The same bytes, one byte per chunk: every boundary (inside a BOM, a CRLF, a UTF-8 sequence, a quoted field) is hit. */
async function* bytewise(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
}

const BOM = '\uFEFF';

describe('byte-order marks', () => {
  it('JSONL: line 1 after a BOM is a record, not a malformed line', async () => {
    const text = `${BOM}{"run":"r1","req":true}\n{"run":"r1","ack":true}\n`;
    for (const source of [file('bom.jsonl', text), bytewise(Buffer.from(text))]) {
      const items = await collect(source, { format: 'jsonl' });
      expect(items).toEqual([
        { kind: 'event', line: 1, event: { run: 'r1', req: true } },
        { kind: 'event', line: 2, event: { run: 'r1', ack: true } },
      ]);
    }
  });

  it('CSV: the first header name does not carry the BOM', async () => {
    const text = `${BOM}Run,InCave\r\n1,0\r\n`;
    for (const source of [file('bom.csv', text), bytewise(Buffer.from(text))]) {
      const items = await collect(source, { format: 'csv' });
      expect(items[0]).toMatchObject({ kind: 'header', columns: ['Run', 'InCave'] });
      expect(items[1]).toMatchObject({ kind: 'event', line: 2, event: { Run: '1', InCave: '0' } });
    }
  });
});

describe('RFC 4180 CSV', () => {
  const text = 'run,note,ok\r\nr1,"two\r\nlines, and a ""quote""",1\nr1,plain,0\nr2,"a\n\nb",1\n';
  it('quoted fields may hold line breaks, commas and doubled quotes; a record keeps its first line number', async () => {
    for (const source of [file('multi.csv', text), bytewise(Buffer.from(text))]) {
      const items = await collect(source, { format: 'csv' });
      expect(items.map((i) => (i.kind === 'event' ? [i.line, i.event.run, i.event.note, i.event.ok] : [i.kind, i.line]))).toEqual([
        ['header', 1],
        [2, 'r1', 'two\nlines, and a "quote"', '1'],
        [4, 'r1', 'plain', '0'],
        [5, 'r2', 'a\n\nb', '1'],
      ]);
    }
  });

  it('an unterminated quote is one malformed record with its line, at the end of the log', async () => {
    const items = await collect(file('open.csv', 'a,b\n1,2\n3,"open\n4,5\n'), { format: 'csv' });
    expect(items.at(-1)).toMatchObject({ kind: 'malformed', line: 3 });
    expect((items.at(-1) as { reason: string }).reason).toMatch(/not closed by the end of the log \(line 4\)/);
  });

  it('a quoted field growing past the cap is dropped with its line range, and reading resumes', async () => {
    const long = 'x'.repeat(60);
    const items = await collect(file('cap.csv', `a,b\n1,"${long}\n${long}\n${long}\n2,3\n`), { format: 'csv', maxLineBytes: 100 });
    expect(items[1]).toMatchObject({ kind: 'malformed', line: 2 });
    expect((items[1] as { reason: string }).reason).toMatch(/not closed by line 3/);
    expect(items.slice(2)).toMatchObject([{ kind: 'malformed', line: 4 }, { kind: 'event', line: 5, event: { a: '2', b: '3' } }]);
  });

  it('a column may be called __proto__ or constructor', async () => {
    const items = await collect(file('proto.csv', '__proto__,constructor\n1,0\n'), { format: 'csv' });
    const ev = items[1] as { event: Record<string, unknown> };
    expect(Object.keys(ev.event)).toContain('__proto__');
    expect(ev.event.constructor).toBe('0');
  });
});

describe('incremental reading', () => {
  it('yields a record before the stream ends', async () => {
    const stream = new PassThrough();
    const items = readLog(stream, { format: 'jsonl' });
    stream.write('{"a":1}\n');
    const first = await items.next();
    expect(first.value).toEqual({ kind: 'event', line: 1, event: { a: 1 } });
    stream.end('{"a":2}\n');
    expect((await items.next()).value).toEqual({ kind: 'event', line: 2, event: { a: 2 } });
    expect((await items.next()).done).toBe(true);
  });

  it('a line longer than the cap is reported by number and length, and the next line is read', async () => {
    const items = await collect(file('long.jsonl', `{"a":1}\n{"pad":"${'y'.repeat(5000)}"}\n{"a":2}`), { format: 'jsonl', maxLineBytes: 1000 });
    expect(items).toMatchObject([
      { kind: 'event', line: 1 },
      { kind: 'malformed', line: 2, reason: expect.stringMatching(/longer than 1000 bytes \(5010\)/) },
      { kind: 'event', line: 3, event: { a: 2 } },
    ]);
  });
});

const root = join(import.meta.dirname, '../..');
const tslc = join(root, 'bin/tslc.js');
const built = existsSync(join(root, 'dist/src/cli/main.js'));
const rules = file('rules.ltl', 'resp: G (req -> X ack)\n');
const log = '{"req":true,"ack":false}\n{"req":false,"ack":false}\n';

/** Runs a shell pipeline (a real pipe, not a socket, on stdin). */
function sh(script: string): { stdout: string; stderr: string; status: number | null } {
  const res = spawnSync('sh', ['-c', script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, TSLC: tslc, RULES: rules } });
  return { stdout: res.stdout, stderr: res.stderr, status: res.status };
}

describe.skipIf(!built)('tslc audit reads pipes', () => {
  it.each([['-'], ['/dev/stdin']])('printf … | tslc audit --spec rules %s', (arg) => {
    const res = sh(`printf '${log.replace(/\n/g, '\\n')}' | node "$TSLC" audit --spec "$RULES" --json ${arg}`);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(1);
    const report = JSON.parse(res.stdout);
    expect(report.events).toBe(2);
    expect(report.runs[0].properties[0]).toMatchObject({ verdict: 'violated', firstViolationLine: 2 });
  });

  it('reads stdin from a file redirection too', () => {
    const path = file('redirect.jsonl', log);
    const res = sh(`node "$TSLC" audit --spec "$RULES" - < "${path}"`);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/^<stdin>: 2 events in 1 run/);
  });

  const mkfifo = spawnSync('sh', ['-c', 'command -v mkfifo'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!mkfifo)('reads a named pipe (FIFO) as it is written', async () => {
    const fifo = join(dir, 'events.fifo');
    spawnSync('mkfifo', [fifo]);
    const child = spawn(process.execPath, [tslc, 'audit', '--spec', rules, '--format', 'jsonl', '--json', fifo], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Opening the FIFO for writing blocks until the auditor has it open for reading; if the
    // auditor never opens it, the writer is stopped once the auditor has exited.
    const writer = spawn('sh', ['-c', `printf '${log.replace(/\n/g, '\\n')}' > "${fifo}"`]);
    const code = await done;
    if (writer.exitCode === null) writer.kill('SIGKILL');
    expect(code).toBe(1);
    expect(JSON.parse(stdout).runs[0].properties[0]).toMatchObject({ verdict: 'violated', firstViolationLine: 2 });
  }, 60_000);

  it('a directory is refused with a clear error', () => {
    const res = sh(`node "$TSLC" audit --spec "$RULES" "${dir}"`);
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/cannot read .*: it is a directory/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
