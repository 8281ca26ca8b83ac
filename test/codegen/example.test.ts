import { describe, expect, it } from 'vitest';
import { runAdventure } from '../../examples/adventure-plain/main.js';

describe('examples/adventure-plain', () => {
  it('visits the market and the town before the cave, and every place again and again', async () => {
    const passages = await runAdventure(60);
    const place = (p: string) => (p.includes('cave') ? 'cave' : p.includes('market') ? 'market' : 'town');
    const places = passages.map(place);
    const firstCave = places.indexOf('cave');
    expect(firstCave).toBeGreaterThan(0);
    expect(places.slice(0, firstCave)).toEqual(expect.arrayContaining(['market', 'town']));
    for (const p of ['cave', 'market', 'town']) expect(places.filter((x) => x === p).length).toBeGreaterThanOrEqual(2);
  });
});
