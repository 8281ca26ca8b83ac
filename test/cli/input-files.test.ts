/**
 * Files named on the command line (specs, rules, labels, traces) are read with a size limit
 * (64 MiB) and only when they can be read: `/dev/zero`, a symlink to it, a directory or a socket is
 * refused by name; a pipe or standard input is read but stops at the limit. `-` means standard
 * input for every command that reads a file (yargs used to turn it into '' or drop it).
 *
 * What could exhaust memory runs in a child process under `ulimit -v` and a time limit, so even
 * the old code (which read `/dev/zero` without end) fails the test instead of the machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runTslc } from '../support/cli.js';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'tslc-input-'));
const spec = join(dir, 'spec.tsl');
writeFileSync(spec, 'always guarantee {\n  [reply <- f ask] || [reply <- g ask];\n  F [reply <- g ask];\n}\n');

afterEach(() => {
  process.exitCode = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `tslc` in bash (for pipes and redirections), at most 3 GB of address space and 20 s. */
function shell(script: string): { code: number | null; stdout: string; stderr: string } {
  const tslc = `'${process.execPath}' '${join(root, 'bin/tslc.js')}'`;
  const r = spawnSync('bash', ['-c', `ulimit -v 3000000; ${script.replaceAll('tslc ', `${tslc} `)}`], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
    killSignal: 'SIGKILL',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!built || !hasBash)('files that are not files, and files too large', () => {
  it('/dev/zero, and a .tsl symlink to it, are refused as devices; nothing is read', () => {
    symlinkSync('/dev/zero', join(dir, 'zero.tsl'));
    for (const argv of ['parse /dev/zero', 'check zero.tsl', 'synth zero.tsl', 'fmt zero.tsl', 'audit log.jsonl --spec /dev/zero', 'explain zero.tsl']) {
      const r = shell(`tslc ${argv}`);
      expect([r.code, r.stderr], argv).toEqual([2, expect.stringMatching(/cannot read (\/dev\/zero|zero\.tsl): it is a device, not a file/)]);
    }
  });

  it('standard input past 64 MiB stops with an error (a pipe is read, but bounded)', () => {
    const r = shell('head -c 70000000 /dev/zero | tslc parse -');
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('cannot read <stdin>: larger than the 64 MiB limit for input files')]);
    mkdirSync(join(dir, 'fifo'), { recursive: true });
    const fifo = shell('mkfifo fifo/big.tsl && (head -c 70000000 /dev/zero > fifo/big.tsl &) && tslc check fifo/big.tsl');
    expect([fifo.code, fifo.stderr]).toEqual([2, expect.stringContaining('cannot read fifo/big.tsl: larger than the 64 MiB limit for input files')]);
  });

  it('a pipe past 64 MiB is refused within a 1.5 GB address space (what was read is kept, not a 1 MiB buffer per 64 KiB read)', () => {
    mkdirSync(join(dir, 'fifo'), { recursive: true });
    for (const [name, command] of [
      ['<stdin>', 'head -c 70000000 /dev/zero | tslc check -'],
      ['fifo/small-memory.tsl', 'mkfifo fifo/small-memory.tsl && (head -c 70000000 /dev/zero > fifo/small-memory.tsl &) && tslc check fifo/small-memory.tsl'],
    ]) {
      const r = shell(`ulimit -v 1500000; ${command}`);
      expect([r.code, r.stderr], name).toEqual([2, expect.stringContaining(`cannot read ${name}: larger than the 64 MiB limit for input files`)]);
    }
  });

  it('a spec from a named pipe is read once and checked (and explained) as a file would be', () => {
    mkdirSync(join(dir, 'fifo'), { recursive: true });
    const r = shell(`mkfifo fifo/spec.tsl && (printf 'always guarantee { F [x <- f x]; G [x <- x]; }\\n' > fifo/spec.tsl &) && tslc check fifo/spec.tsl`);
    expect([r.code, r.stdout], r.stderr).toEqual([1, expect.stringMatching(/^fifo\/spec\.tsl: unrealizable[\s\S]*core/)]);
  });

  it('a regular file over 64 MiB is refused before it is read', () => {
    const big = join(dir, 'big.tsl');
    writeFileSync(big, '');
    truncateSync(big, 64 * 1024 * 1024 + 1);
    for (const command of ['check', 'parse', 'synth']) {
      const r = shell(`tslc ${command} big.tsl`);
      expect([r.code, r.stderr], command).toEqual([2, expect.stringContaining('cannot read big.tsl: larger than the 64 MiB limit for input files')]);
    }
  });
});

describe('not files, in-process', () => {
  it('a directory is refused by name', async () => {
    const r = await runTslc('parse', dir);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`cannot read ${dir}: it is a directory`)]);
  });
});

describe.skipIf(!built || !hasBash)('`-` is standard input for every command that reads a file', () => {
  const text = `printf 'always guarantee { [reply <- f ask] || [reply <- g ask]; F [reply <- g ask]; }\\n'`;
  it.each([
    ['check', 'check -', /^<stdin>: realizable/],
    ['check, with a file', 'check spec.tsl -', /^spec\.tsl: realizable.*\n<stdin>: realizable/],
    ['synth', 'synth - --format json', /"name": "<stdin>"/],
    ['explain', 'explain -', /<stdin>: realizable — nothing to explain/],
    ['parse', 'parse -', /"file": "<stdin>"/],
    ['fmt', 'fmt -', /\[reply <- f ask\] \|\| \[reply <- g ask\];/],
    ['symbols', 'symbols -', /outputs:\s+reply/],
    ['ltl', 'ltl -', /--ins=/],
    ['tlsf', 'tlsf -', /TITLE:\s+"<stdin>"/],
  ])('%s', (_, argv, expected) => {
    const r = shell(`${text} | tslc ${argv}`);
    expect([r.code, r.stdout], r.stderr).toEqual([0, expect.stringMatching(expected)]);
  });

  it('a TLSF spec on standard input is read as TLSF', () => {
    const tlsf = `INFO {\n  TITLE: "t"\n  DESCRIPTION: "d"\n  SEMANTICS: Mealy\n  TARGET: Mealy\n}\nMAIN {\n  INPUTS { r; }\n  OUTPUTS { g; }\n  GUARANTEES { G (r -> F g); }\n}\n`;
    writeFileSync(join(dir, 'spec.tlsf'), tlsf);
    const r = shell('tslc check - < spec.tlsf');
    expect([r.code, r.stdout], r.stderr).toEqual([0, expect.stringMatching(/^<stdin>: realizable/)]);
  });

  it('audit: the log, or the rules, from standard input; not both', () => {
    writeFileSync(join(dir, 'rules.ltl'), 'p: G !a\n');
    writeFileSync(join(dir, 'log.jsonl'), '{"a":false}\n{"a":true}\n');
    const log = shell('tslc audit - --spec rules.ltl < log.jsonl');
    expect([log.code, log.stdout], log.stderr).toEqual([1, expect.stringMatching(/^<stdin>: 2 events/)]);
    const rules = shell('tslc audit log.jsonl --spec - < rules.ltl');
    expect([rules.code, rules.stdout], rules.stderr).toEqual([1, expect.stringMatching(/p\s+safety\s+1\s+1 /)]);
    const both = shell('tslc audit - --spec - < rules.ltl');
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('standard input (-) can be given only once')]);
  });

  it('why: the trace from standard input', () => {
    const r = shell('echo garbage | tslc why --trace - --spec spec.tsl --step 0');
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('<stdin>: trace line 1')]);
  });

  it.each([
    ['compile', 'compile - -o out', 'a compiled module is named after its spec file'],
    ['play', 'play -', 'tslc play reads your moves from standard input'],
    ['fmt --write', 'fmt --write -', '--write rewrites a file in place'],
    ['shield', 'shield mcp --rules - -- cat', 'the shield serves its MCP session on standard input'],
  ])('%s refuses standard input and says why', (_, argv, why) => {
    const r = shell(`${text} | tslc ${argv}`);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`error: standard input (-) cannot be used here: ${why}`)]);
  });

  it('a `-` after `--` belongs to the shielded server', () => {
    writeFileSync(join(dir, 'shield.ltl'), 'once: G ("call:x" -> X G !"call:x")\n');
    const r = shell(`echo | tslc shield mcp --rules shield.ltl -- '${process.execPath}' -e "console.error(JSON.stringify(process.argv.slice(1)))" -`);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('["-"]')]);
  });
});
