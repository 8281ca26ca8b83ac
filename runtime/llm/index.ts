/**
 * runtime/llm — the LLM layer of generated agents: the `Model` contract and its adapters (AI SDK,
 * OpenAI-compatible HTTP, the offline simulated model), reliability policies (timeout, retry with
 * backoff, budget, cache, usage), and helpers that implement a spec's predicates, function terms
 * and summarizer with prompts. Provider SDKs are never imported statically from here: the AI SDK
 * adapter loads `ai` on first use, so it stays an optional peer dependency.
 */
export * from './errors.js';
export * from './model.js';
export * from './cache.js';
export * from './usage.js';
export * from './reliable.js';
export * from './template.js';
export * from './terms.js';
export { BATCH_INSTRUCTIONS, batchPrompt, llmPredicateBatcher, parseBatchAnswer, type BatchOptions, type BatchQuestion } from './batch.js';
export * from './config.js';
export * from './max-tokens.js';
export { DEFAULT_MAX_RESPONSE_BYTES, openAiCompatible, parseChatCompletion, type FetchLike, type OpenAiCompatibleOptions } from './openai-compatible.js';
export { fromAiSdk, type AiSdkLanguageModel, type AiSdkModelOptions } from './ai-sdk.js';
export { simulatedModel, SIM_LABEL, type SimOptions, type SimulatedModel, type SimGeneration } from './sim/model.js';
export { cyoaWorld, CYOA_LOCATIONS, type CyoaLocation, type CyoaWorldOptions } from './sim/cyoa-world.js';
export { honours, type Facts, type FactValue, type SimWorld } from './sim/world.js';
export { createRng, seedFrom, type Rng } from './sim/rng.js';
