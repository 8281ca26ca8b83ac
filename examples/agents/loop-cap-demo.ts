/**
 * A ReACT agent whose offline stand-in model never names a next state (it always writes "I should
 * keep searching."): without a cap such a run circles Thought → … → Observation until `maxSteps`
 * and ends without an answer. With `maxLoops: 3` (the paper caps ReACT at 3 loops) the run leaves
 * the loop after the third Observation and ends in Answer, accepted by the behavior.
 */
import { reactAgent, runAgent, type AgentRun } from '../../runtime/agent/index.js';
import type { Completion, Model } from '../../runtime/llm/model.js';

function stubbornModel(): Model {
  return {
    id: 'demo:stubborn',
    simulated: true,
    async complete(): Promise<Completion> {
      return { text: 'I should keep searching.', usage: {}, model: 'demo:stubborn', simulated: true };
    },
  };
}

export async function loopCapDemo(log: (line: string) => void = console.log, maxLoops = 3): Promise<AgentRun> {
  const run = await runAgent(reactAgent(['Search']), stubbornModel(), () => 'No results.', {
    task: 'Question: Where was the tale "Iron Henry" first printed?',
    maxLoops,
  });
  log(run.transcript);
  for (const c of run.corrections) log(`corrected (${c.kind}): ${c.detail}`);
  log(`complete: ${run.complete} (${run.stopReason}, ${run.steps.length} steps)`);
  return run;
}

if (import.meta.url === `file://${process.argv[1]}`) void loopCapDemo();
