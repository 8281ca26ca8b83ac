/**
 * Issue 18 item 13 in the runtime library: records keyed by names from users (template parameters,
 * implementation objects, agent states, JSON-schema properties, model settings) keep `__proto__`,
 * `constructor`, … as ordinary keys and never read an inherited member as a user's entry.
 */
import { describe, expect, it } from 'vitest';
import { dict, mergeDicts, own } from '../../runtime/dict.js';
import { runAgent, schemaErrors, type AgentSpec } from '../../runtime/agent/index.js';
import { createLlmSession, cyoaWorld, LlmError, llmImplementation, parseModelSpec } from '../../runtime/llm/index.js';
import { scriptedModel } from '../agent/helpers.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'] as const;

describe('prototype-less records', () => {
  it('dict, mergeDicts and own treat every name as an own key', () => {
    const d = dict(NAMES.map((n, i) => [n, i]));
    expect(Object.keys(d)).toEqual([...NAMES]);
    expect(NAMES.map((n) => d[n])).toEqual([0, 1, 2, 3, 4]);
    const m = mergeDicts<number>(Object.fromEntries([['__proto__', 1]]), undefined, dict([['constructor', 2]]));
    expect(Object.entries(m)).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    expect(NAMES.map((n) => own({}, n))).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe.each(NAMES)('runtime records with a name %s', (name) => {
  it('a template parameter of that name is filled in', async () => {
    const model = scriptedModel(['1']);
    const session = createLlmSession({ model });
    const ok = session.predicate({ name: 'ok', params: [name], prompt: `Is {{${name}}} fine? Answer 0 or 1.` });
    expect(await ok('the passage')).toBe(true);
    expect(model.requests[0].messages.at(-1)?.content).toContain('Is the passage fine?');
  });

  it('llmImplementation keeps a term of that name as an own entry', () => {
    const session = createLlmSession({ model: scriptedModel([]) });
    const impl = llmImplementation(session, { predicates: Object.fromEntries([[name, { name, prompt: 'x?' }]]) });
    expect(Object.keys(impl)).toEqual([name]);
    expect(typeof Object.getOwnPropertyDescriptor(impl, name)?.value).toBe('function');
    expect(Object.keys({ ...impl, other: () => 1 })).toEqual([name, 'other']);
  });

  it('an agent state of that name is in `latest` for the environment', async () => {
    const spec: AgentSpec = {
      name: 'named',
      states: [
        { name, text: 'Say:' },
        { name: 'Hear', text: 'Heard:', envInput: true },
      ],
      behavior: { next: [name, 'Hear'] },
    };
    const seen: [boolean, string | undefined][] = [];
    await runAgent(spec, scriptedModel(['hello']), (req) => {
      seen.push([Object.hasOwn(req.latest, name), req.latest[name]]);
      return null;
    }, { task: 't' });
    expect(seen).toEqual([[true, 'hello']]);
  });

  it('JSON-schema checks: a required property of that name must be present, an unknown one is refused', () => {
    expect(schemaErrors({}, { type: 'object', required: [name] })).toEqual([`$.${name} is required`]);
    const value = JSON.parse(`{"${name}": 1}`) as unknown;
    expect(schemaErrors(value, { type: 'object', properties: {}, additionalProperties: false })).toEqual([`$.${name} is not allowed`]);
    expect(schemaErrors(value, { type: 'object', properties: Object.fromEntries([[name, { type: 'string' }]]) })).toEqual([`$.${name} must be string`]);
  });

  it('a sim model parameter of that name is refused; the sim world has no term of that name', () => {
    expect(() => parseModelSpec(`sim:1?${name}=0.5`)).toThrow(LlmError);
    expect(() => parseModelSpec(`sim:1?${name}=0.5`)).toThrow(/unknown sim parameter/);
    const world = cyoaWorld();
    expect(world.intent(name)).toBeUndefined();
    expect(world.predicate(name, { location: 'cave' })).toBeUndefined();
  });
});
