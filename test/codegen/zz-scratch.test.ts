import { it } from 'vitest';
import { run } from '../../src/cli/commands/compile.js';
it('scratch', async () => {
  for (const [name, files] of [['adventure-forest', ['specs/adventure.tsl', 'specs/forest.tsl']], ['adventure-choices', ['specs/adventure.tsl', 'specs/choices.tsl']], ['adventure-choices-forest', ['specs/adventure.tsl', 'specs/choices.tsl', 'specs/forest.tsl']]] as const) {
    const t = Date.now();
    console.log(name, await run({ files: [...files], as: name, out: 'generated', timeout: 400 }), Date.now() - t);
  }
}, 1200000);
