/**
 * The fast argument path of `tslc check` must hand the command exactly what yargs would, or step
 * aside: every argument list it accepts is also parsed with yargs (built from the same option
 * table, as main.ts does) and the results must be equal. Random argument lists come from a
 * vocabulary full of yargs' special cases (greedy arrays, `--json true`, hex numbers, repeats).
 */
import fc from 'fast-check';
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';
import { declareOptions, parseFast, type OptionTable } from '../../src/cli/fast-args.js';

const check = commands.find((c) => c.command === 'check [files..]')!;
const table = check.options!;

/** What yargs hands check's handler for `argv`, or the failure message. */
function viaYargs(argv: readonly string[]): { args?: Record<string, unknown>; failed?: string } {
  let args: Record<string, unknown> | undefined;
  let failed: string | undefined;
  yargs([...argv])
    .scriptName('tslc')
    .strict()
    .command(check.command as string, check.describe, check.builder, (a) => {
      args = { ...a };
    })
    .fail((msg) => {
      failed = msg;
    })
    .parseSync();
  return failed !== undefined ? { failed } : { args };
}

const fast = (argv: readonly string[]) => (argv[0] === 'check' ? parseFast('check', argv.slice(1), table) : undefined);

describe('parseFast for check', () => {
  it.each([
    [['check', 'a.tlsf']],
    [['check', 'a.tlsf', 'b.tsl', '--json', '--no-explain', '--timeout', '5']],
    [['check', '--json', '--no-explain', '--timeout', '20', 'spec.tlsf']],
    [['check', '--ltl', 'G (r -> F g)', '--ins', 'r', '--outs', 'g', '--no-states']],
    [['check', '--ltl=G a', '--ins=a,b', '--outs', 'c']],
    [['check', 'x.tsl', '--synthesizer', 'ltlsynt', '--tool-timeout=2.5', '--cross-check']],
    [['check', 'a.tsl', 'b.tsl', '--compose', '--no-states', '--timeout=.5']],
    [['check', 'x.tlsf', '--param', 'n=3', '--param=m=2', '--json']],
    [['check', 'lib/a.tsl', '--import-root', 'lib', '--json']],
    [['check']],
  ])('accepts %j and agrees with yargs', (argv) => {
    const mine = fast(argv);
    expect(mine).toBeDefined();
    expect(mine).toEqual(viaYargs(argv).args);
  });

  it.each([
    // yargs arrays are greedy: the file becomes a parameter.
    [['check', '--param', 'n=3', 'spec.tlsf']],
    [['check', '--ins=a', 'b']],
    // yargs reads `true` as the flag's value.
    [['check', '--json', 'true', 'x']],
    // A repeated flag becomes an array in yargs.
    [['check', '--timeout', '5', '--timeout', '6', 'x']],
    [['check', '--json', '--no-json', 'x']],
    // Numbers yargs reads its own way, or that check then rejects with yargs' value.
    [['check', '--timeout', '0x10', 'x']],
    [['check', '--timeout', '1e1', 'x']],
    [['check', '--timeout', 'abc', 'x']],
    [['check', '--timeout', '', 'x']],
    [['check', '--timeout', '-1', 'x']],
    // Help, short flags, the terminator, unknown options, values outside the choices.
    [['check', '--help']],
    [['check', '-h']],
    [['check', '--', '--json']],
    [['check', '--bogus', 'x']],
    [['check', '--toolTimeout', '3', 'x']],
    [['check', '--synthesizer', 'nope', 'x']],
    [['check', '--json=false', 'x']],
    [['check', '--ltl']],
  ])('leaves %j to yargs', (argv) => {
    expect(fast(argv)).toBeUndefined();
  });

  it('whatever it accepts, yargs parses to the same arguments (random argument lists)', () => {
    const words = [
      'a.tlsf', 'b.tsl', '5', '0.5', '.5', '1e2', '0x10', 'true', 'false', 'ltlsynt', 'auto', 'nope', 'n=3', 'a,b', '', '-1', '-', '--', 'G a',
      '--ltl', '--ins', '--outs', '--timeout', '--param', '--states', '--no-states', '--json', '--no-json', '--explain', '--no-explain',
      '--compose', '--synthesizer', '--tool-timeout', '--cross-check', '--no-cross-check', '--crossCheck', '--bogus', '--no-ltl',
      '--timeout=5', '--timeout=x', '--json=false', '--ins=a,b', '--ltl=G a', '--synthesizer=strix', '-h', '-o', '--import-root', '--import-root=lib',
    ];
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 7 }), (rest) => {
        const argv = ['check', ...rest];
        const mine = fast(argv);
        if (mine === undefined) return;
        accepted++;
        expect(mine).toEqual(viaYargs(argv).args);
      }),
      { numRuns: 1500 },
    );
    // The property is not vacuous: plenty of the lists take the fast path.
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('declareOptions', () => {
  it('declares every option of the table to yargs (same help as the table)', () => {
    const t: OptionTable = {
      positional: { name: 'files', type: 'string', array: true, describe: 'files' },
      options: { level: { type: 'number', default: 3, describe: 'a level' }, mode: { choices: ['x', 'y'], default: 'x', describe: 'a mode' } },
    };
    let seen: Record<string, unknown> | undefined;
    yargs(['run', 'f', '--mode', 'y'])
      .strict()
      .command('run [files..]', 'run', (y) => declareOptions(y, t), (a) => {
        seen = { ...a };
      })
      .parseSync();
    expect(seen).toMatchObject({ files: ['f'], level: 3, mode: 'y' });
    expect(parseFast('run', ['f', '--mode', 'y'], t)).toMatchObject({ files: ['f'], level: 3, mode: 'y' });
    expect(parseFast('run', ['f', '--mode', 'z'], t)).toBeUndefined();
  });
});
