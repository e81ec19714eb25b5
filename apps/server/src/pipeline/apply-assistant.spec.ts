import type { ChatCompletionRequest, Tool } from '@chat-relay/contract';
import { assistantRecord } from '../../test/testing/assistant-record';
import { applyAssistant, mergeTools } from './apply-assistant';

const fn = (name: string, description = ''): Tool => ({ type: 'function', function: { name, description } });

const assistant = assistantRecord;

const request = (overrides: Partial<ChatCompletionRequest> = {}): ChatCompletionRequest => ({
  model: 'gpt-4o-gizmo-g-test1',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: 'Hello' },
  ],
  ...overrides,
});

describe('mergeTools', () => {
  it('keeps the assistant tools, then the request tools', () => {
    expect(mergeTools([fn('a'), fn('b')], [fn('c')])?.map((tool) => tool.type === 'function' && tool.function.name)).toEqual(['a', 'b', 'c']);
  });

  it('lets the request definition win on a name clash', () => {
    const merged = mergeTools([fn('a', 'assistant'), fn('b')], [fn('a', 'request')]);
    expect(merged).toEqual([fn('b'), fn('a', 'request')]);
  });

  it('adds nothing when neither side has tools, and copies when only the request has', () => {
    expect(mergeTools([], undefined)).toBeUndefined();
    const requestTools = [fn('x')];
    const merged = mergeTools([], requestTools);
    expect(merged).toEqual(requestTools);
    expect(merged).not.toBe(requestTools);
  });
});

describe('applyAssistant', () => {
  it('sends the family, the instructions first and the caller messages after them, in order', () => {
    const applied = applyAssistant(assistant(), request(), 'gpt-4o');
    expect(applied.model).toBe('gpt-4o');
    expect(applied.messages).toEqual([
      { role: 'system', content: 'You are a helpful pirate.' },
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it('adds no system message for empty instructions', () => {
    expect(applyAssistant(assistant({ instructions: '' }), request(), 'gpt-4o').messages).toHaveLength(2);
  });

  it('applies defaults only where the request sets none', () => {
    const withDefaults = assistant({
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 100,
      responseFormat: { type: 'json_object' },
    });
    expect(applyAssistant(withDefaults, request(), 'm')).toMatchObject({
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 100,
      response_format: { type: 'json_object' },
    });
    const own = applyAssistant(
      withDefaults,
      request({ temperature: 1.5, top_p: 0.5, max_tokens: 7, response_format: { type: 'text' } }),
      'm',
    );
    expect(own).toMatchObject({ temperature: 1.5, top_p: 0.5, max_tokens: 7, response_format: { type: 'text' } });
    expect(applyAssistant(withDefaults, request({ temperature: null }), 'm').temperature).toBe(0.2);
  });

  it('does not add max_tokens when the caller set max_completion_tokens', () => {
    const applied = applyAssistant(assistant({ maxTokens: 100 }), request({ max_completion_tokens: 50 }), 'm');
    expect(applied.max_tokens).toBeUndefined();
    expect(applied.max_completion_tokens).toBe(50);
  });

  it('keeps unknown fields and everything else of the request, and does not change the original', () => {
    const original = request({ stream: true, seed: 4, ...{ custom_field: { a: 1 } } });
    const snapshot = structuredClone(original);
    const applied = applyAssistant(assistant({ tools: [fn('t')] }), original, 'gpt-4o');
    expect(applied).toMatchObject({ stream: true, seed: 4, custom_field: { a: 1 }, tools: [fn('t')] });
    expect(original).toEqual(snapshot);
  });
});
