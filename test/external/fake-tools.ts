/** Helpers for tests: fake synthesizers written as shell scripts into a temp dir. */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GameSpec } from '../../src/game/spec.js';
import { ap, G, iff } from '../../src/ltl/formula.js';

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tslc-ext-test-'));
}

/** Write an executable `/bin/sh` script; returns its path. */
export function writeTool(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A script that prints `stdout` exactly (via a data file, so no shell quoting issues). */
export function printingTool(dir: string, name: string, stdout: string, exitCode = 0, extra = ''): string {
  const data = join(dir, `${name}.out`);
  writeFileSync(data, stdout);
  return writeTool(dir, name, `${extra}\nprintf '%s\\n' "$@" > "${join(dir, `${name}.args`)}"\ncat "${data}"\nexit ${exitCode}`);
}

export function argsOf(dir: string, name: string): string[] {
  return readFileSync(join(dir, `${name}.args`), 'utf8').split('\n').slice(0, -1);
}

/** G (req <-> grant): realizable; the propositions have names no tool would accept verbatim. */
export const ARBITER: GameSpec = {
  name: 'arbiter',
  semantics: 'mealy',
  inputs: [{ name: 'req "x", y' }],
  outputs: [{ name: '[grant <- yes]' }],
  signals: [],
  initially: [],
  preset: [],
  assumptions: [],
  guarantees: [{ formula: G(iff(ap('req "x", y'), ap('[grant <- yes]'))) }],
};

/** After renaming, the input is i0 and the output o0. */
export const HONEST = `REALIZABLE
HOA: v1
States: 1
Start: 0
AP: 2 "i0" "o0"
acc-name: all
Acceptance: 0 t
properties: trans-labels explicit-labels state-acc deterministic
controllable-AP: 1
--BODY--
State: 0
[0&1 | !0&!1] 0
--END--
`;

/** Never grants: violates G (req <-> grant) as soon as req holds. */
export const LIAR = HONEST.replace('[0&1 | !0&!1] 0', '[!1] 0');

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 3 is the state; a zombie has exited and only waits to be reaped.
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
