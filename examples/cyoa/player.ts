/**
 * A simulated player for offline CYOA runs: each turn it picks a reply to the passage and reports
 * whether that choice was "safe" (the `safe` input of choices.tsl). Deterministic from its seed.
 */
import { createRng, seedFrom } from '../../runtime/llm/index.js';

export interface PlayerMove {
  readonly text: string;
  readonly safe: boolean;
}

const SAFE_MOVES = ['Take the well-lit road.', 'Ask the guard for directions.', 'Wait and watch quietly.'];
const RISKY_MOVES = ['Follow the hooded stranger.', 'Climb the crumbling wall.', 'Open the unmarked door.'];

export interface SimulatedPlayer {
  /** The move for `turn`; the same seed and turn always give the same move. */
  move(turn: number): PlayerMove;
}

export function simulatedPlayer(seed: number, safeRate = 0.5): SimulatedPlayer {
  return {
    move(turn) {
      const rng = createRng(seedFrom('player', seed, turn));
      const safe = rng.chance(safeRate);
      return { text: rng.pick(safe ? SAFE_MOVES : RISKY_MOVES), safe };
    },
  };
}
