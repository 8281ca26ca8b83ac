/**
 * CLI usage behaviour of the built `tslc`: --version, help order (the main job first), one-line
 * usage errors with exit 2 and no stack trace, and guidance + exit 2 when no command is given.
 * Spawns bin/tslc.js because yargs prints help/version and exits the process itself.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands, SYNTH_FORMATS } from '../../src/cli/commands/index.js';

const root = join(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/cli/main.js'));

function tslc(...argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, 'bin/tslc.js'), ...argv], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const names = commands.map((c) => (typeof c.command === 'string' ? c.command : c.command[0]).split(' ')[0]);

describe('command registry order', () => {
  it('puts check, synth, compile, explain first and keeps every command once', () => {
    expect(names.slice(0, 4)).toEqual(['check', 'synth', 'compile', 'explain']);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['play', 'why', 'report', 'audit', 'explain-ltl', 'parse', 'fmt', 'symbols', 'tlsf', 'ltl', 'doctor', 'demo']) {
      expect(names).toContain(n);
    }
  });
});

describe.skipIf(!built)('tslc usage (built CLI)', () => {
  it('--version prints the package.json version', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const r = tslc('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('--help lists the commands in registry order', () => {
    const r = tslc('--help');
    expect(r.code).toBe(0);
    const positions = names.map((n) => r.stdout.indexOf(`tslc ${n} `) >= 0 ? r.stdout.indexOf(`tslc ${n} `) : r.stdout.indexOf(`tslc ${n}\n`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(r.stdout).toContain('--version');
  });

  it('tslc synth --help and tslc --help name every --format choice, Mermaid included', () => {
    const own = tslc('synth', '--help');
    const all = tslc('--help');
    expect(own.code).toBe(0);
    // The description, unwrapped: from its first words up to the next command or blank line.
    const description = (help: string) => /Synthesize a verified controller[\s\S]*?(?=\n\s*tslc |\n\s*\n)/.exec(help)?.[0].replace(/\s+/g, ' ').toLowerCase() ?? '';
    for (const format of SYNTH_FORMATS) {
      expect(description(own.stdout)).toContain(format);
      expect(description(all.stdout)).toContain(format);
    }
    expect(own.stdout).toContain('Mermaid');
  });

    it('no arguments: the help on stderr and exit 2', () => {
    const r = tslc();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Commands:');
    expect(r.stderr).toContain('tslc check');
  });

  it.each([
    [['frobnicate'], /^error: unknown command 'frobnicate'; `tslc --help` lists the commands$/],
    [['chekc', 'specs/adventure.tsl'], /^error: unknown command 'chekc' \(did you mean 'check'\?\)/],
    [['check', '--no-such-flag', 'specs/adventure.tsl'], /^error: unknown option --no-such-flag \(see `tslc check --help`\)$/],
    [['synth', '--frob=3', '--bogusFlag'], /^error: unknown options --frob, --bogusFlag \(see `tslc synth --help`\)$/],
    [['parse'], /^error: .*\(see `tslc parse --help`\)$/],
    [['fmt', 'specs/adventure.tsl', '--style', 'weird'], /^error: Invalid values:.*weird.*\(see `tslc fmt --help`\)$/],
  ])('tslc %j: one-line usage error, exit 2', (argv, message) => {
    const r = tslc(...argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
  });

  it('explain-ltl takes its formula after -- (found by the fuzz test: it said "give a formula")', () => {
    const plain = tslc('explain-ltl', 'G (a -> F b)');
    const dashed = tslc('explain-ltl', '--', 'G (a -> F b)');
    expect(plain.code).toBe(0);
    expect(dashed).toEqual(plain);
    // A formula that starts like an option is passed this way; its syntax error is located.
    const minus = tslc('explain-ltl', '--', '-a');
    expect(minus.code).toBe(2);
    expect(minus.stderr).toMatch(/^<formula>:1:1: error: /);
    const two = tslc('explain-ltl', '--', 'G a', 'F b');
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/give one formula after --, not 2/);
  });
});
