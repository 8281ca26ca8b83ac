import { it } from 'vitest';
import { readFileSync } from 'node:fs';
import { not } from '../../src/ltl/formula.js';
import { simplify } from '../../src/ltl/simplify.js';
import { toSpot } from '../../src/ltl/print.js';
import { loadTlsfGame } from '../../src/tlsf/index.js';
import { specFormula } from '../../src/game/spec.js';
it('dbg', () => {
  const f = process.env.H3FILES!;
  const spec = loadTlsfGame(f, readFileSync(f, 'utf8'));
  console.log(toSpot(simplify(not(specFormula(spec)))));
}, 300000);
