/**
 * A constrained ReACT agent on an offline stand-in model that misbehaves like the paper's ablated
 * agent (Figure 5): it skips Action Input and writes the wrong marker. `runAgent` keeps the run
 * on the spec; swap `sloppyModel()` for any `Model` (e.g. `fromAiSdk(openai('gpt-4o-mini'))`) to
 * run it for real.
 */
import { reactAgent, runAgent, type AgentRun } from '../../runtime/agent/index.js';
import type { Completion, Model } from '../../runtime/llm/model.js';

const WIKI: Record<string, string> = {
  'Iron Henry': '"Iron Henry" is another name for the Brothers Grimm tale "The Frog Prince".',
};

function sloppyModel(): Model {
  const replies = [
    'I should search for the tale.\nAction:',
    'Search\nObservation: (skips Action Input)',
    'Iron Henry\nThought: done', // Action Input, then a wrong marker
    'Final Thought:',
    'The tale is The Frog Prince, so a film of that name.',
    'The Frog Prince',
  ];
  return {
    id: 'demo:sloppy',
    simulated: true,
    async complete(): Promise<Completion> {
      return { text: replies.shift() ?? '', usage: {}, model: 'demo:sloppy', simulated: true };
    },
  };
}

export async function reactDemo(log: (line: string) => void = console.log): Promise<AgentRun> {
  const run = await runAgent(
    reactAgent(['Search', 'Lookup']),
    sloppyModel(),
    ({ latest }) => WIKI[latest['Action-Input'] ?? ''] ?? 'No results.',
    { task: 'Question: Which movie is loosely based off the Brothers Grimm\'s "Iron Henry"?' },
  );
  log(run.transcript);
  for (const c of run.corrections) log(`corrected (${c.kind}): ${c.detail}`);
  return run;
}

if (import.meta.url === `file://${process.argv[1]}`) void reactDemo();
