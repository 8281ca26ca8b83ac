import { it } from 'vitest';
import { readdirSync } from 'node:fs';
import { run } from '../../src/cli/commands/compile.js';
it('gen', async () => {
  const files = readdirSync('specs').filter((f) => f.endsWith('.tsl')).map((f) => `specs/${f}`);
  console.log(await run({ files, out: 'generated', check: Boolean(process.env.CHECK) }));
}, 300000);
