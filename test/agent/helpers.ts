import type { ChatMessage, Completion, GenerateOptions, Model } from '../../runtime/llm/model.js';

/** A fake chat model that replays scripted replies in order and records every request. */
export function scriptedModel(replies: readonly string[]): Model & { requests: { messages: readonly ChatMessage[]; options?: GenerateOptions }[] } {
  const queue = [...replies];
  const requests: { messages: readonly ChatMessage[]; options?: GenerateOptions }[] = [];
  return {
    id: 'test:scripted',
    simulated: true,
    requests,
    async complete(messages, options): Promise<Completion> {
      requests.push({ messages, options });
      const text = queue.shift();
      if (text === undefined) throw new Error(`scripted model ran out of replies after ${requests.length - 1} calls`);
      return { text, usage: {}, model: 'test:scripted', simulated: true };
    },
  };
}
