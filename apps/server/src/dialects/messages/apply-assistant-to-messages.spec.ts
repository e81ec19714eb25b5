import { AnthropicMessagesRequestSchema, type AnthropicMessagesRequest, type Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';
import { assistantRecord } from '../../../test/testing/assistant-record';
import { applyAssistantToMessages } from './apply-assistant-to-messages';

const fn = (name: string, description = '', parameters?: Record<string, unknown>): Tool => ({
  type: 'function',
  function: { name, ...(description ? { description } : {}), ...(parameters ? { parameters } : {}) },
});
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const assistant = assistantRecord;

const request = (overrides: Record<string, unknown> = {}): AnthropicMessagesRequest =>
  AnthropicMessagesRequestSchema.parse({
    model: 'claude-sonnet-4-5-gizmo-g-test1',
    max_tokens: 512,
    messages: [{ role: 'user', content: 'Hello' }],
    ...overrides,
  });

/** Applies, and checks the caller's request was left as it came. */
function apply(record: AssistantRecord, caller: AnthropicMessagesRequest, family = 'claude-sonnet-4-5') {
  const before = structuredClone(caller);
  const applied = applyAssistantToMessages(record, caller, family);
  expect(caller).toEqual(before);
  expect(applied).not.toBe(caller);
  return applied;
}

describe('applyAssistantToMessages', () => {
  it('sends the family as the model and keeps every other field of the request', () => {
    const caller = request({ stop_sequences: ['END'], metadata: { user_id: 'u1' }, thinking: { type: 'enabled', budget_tokens: 1024 } });
    const applied = apply(assistant({ instructions: '' }), caller);
    expect(applied).toEqual({ ...caller, model: 'claude-sonnet-4-5' });
  });

  it('makes the instructions the system prompt when the request has none', () => {
    expect(apply(assistant(), request()).system).toBe('You are a helpful pirate.');
  });

  it('puts the instructions before a string system prompt, as two text blocks', () => {
    expect(apply(assistant(), request({ system: 'Answer briefly.' })).system).toEqual([
      { type: 'text', text: 'You are a helpful pirate.' },
      { type: 'text', text: 'Answer briefly.' },
    ]);
  });

  it('puts the instructions before system blocks, the caller blocks kept with their cache_control', () => {
    const system = [
      { type: 'text', text: 'Long shared context.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'Answer briefly.' },
    ];
    expect(apply(assistant(), request({ system })).system).toEqual([{ type: 'text', text: 'You are a helpful pirate.' }, ...system]);
  });

  it('leaves the system prompt alone when the assistant has no instructions', () => {
    expect(apply(assistant({ instructions: '' }), request({ system: 'Answer briefly.' })).system).toBe('Answer briefly.');
    expect(apply(assistant({ instructions: '' }), request())).not.toHaveProperty('system');
  });

  it('declares the assistant function tools as Anthropic tools, before the request tools', () => {
    const requestTool = { name: 'search', description: 'Search the web', input_schema: { type: 'object', properties: {} } };
    const applied = apply(assistant({ tools: [fn('get_weather', 'Weather by city', weatherSchema), fn('now')] }), request({ tools: [requestTool] }));
    expect(applied.tools).toEqual([
      { name: 'get_weather', description: 'Weather by city', input_schema: weatherSchema },
      // A function without parameters (or not an object schema) takes an empty object.
      { name: 'now', input_schema: { type: 'object', properties: {} } },
      requestTool,
    ]);
  });

  it('lets a request tool of the same name win over the assistant one', () => {
    const mine = { name: 'get_weather', description: 'The caller version', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } };
    const applied = apply(assistant({ tools: [fn('get_weather', 'The assistant version', weatherSchema), fn('now')] }), request({ tools: [mine] }));
    expect(applied.tools).toEqual([{ name: 'now', input_schema: { type: 'object', properties: {} } }, mine]);
  });

  it('skips custom (free-form) assistant tools, which Messages cannot declare', () => {
    const custom: Tool = { type: 'custom', custom: { name: 'sql', description: 'Raw SQL' } };
    expect(apply(assistant({ tools: [custom, fn('now')] }), request()).tools).toEqual([{ name: 'now', input_schema: { type: 'object', properties: {} } }]);
    expect(apply(assistant({ tools: [custom] }), request())).not.toHaveProperty('tools');
  });

  it('keeps the request tools as they are when the assistant has none', () => {
    const tools = [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
    expect(apply(assistant(), request({ tools })).tools).toEqual(tools);
  });

  it('applies the assistant temperature and top_p only where the request sets none, temperature capped at 1', () => {
    const record = assistant({ temperature: 1.6, topP: 0.8 });
    expect(apply(record, request())).toMatchObject({ temperature: 1, top_p: 0.8 });
    expect(apply(assistant({ temperature: 0.4 }), request())).toMatchObject({ temperature: 0.4 });
    expect(apply(record, request({ temperature: 0.2, top_p: 0.5 }))).toMatchObject({ temperature: 0.2, top_p: 0.5 });
    expect(apply(record, request({ temperature: 0 }))).toMatchObject({ temperature: 0, top_p: 0.8 });
  });

  it('adds no sampling parameter the assistant does not set', () => {
    const applied = apply(assistant(), request());
    expect(applied).not.toHaveProperty('temperature');
    expect(applied).not.toHaveProperty('top_p');
  });

  it('never touches max_tokens: the caller value stands', () => {
    expect(apply(assistant({ maxTokens: 4096 }), request({ max_tokens: 100 })).max_tokens).toBe(100);
  });
});
