import { ResponsesRequestSchema, type ResponsesRequest, type Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';
import { assistantRecord as assistant } from '../../../test/testing/assistant-record';
import { applyAssistantToResponses } from './apply-assistant-to-responses';

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const fn = (name: string, extra: Partial<{ description: string; parameters: Record<string, unknown>; strict: boolean | null }> = {}): Tool => ({
  type: 'function',
  function: { name, ...extra },
});

const request = (overrides: Record<string, unknown> = {}): ResponsesRequest =>
  ResponsesRequestSchema.parse({ model: 'gpt-4.1-gizmo-g-test1', input: 'What is the weather in Paris?', ...overrides });

/** Applies, and checks the caller's request was left as it came. */
function apply(record: AssistantRecord, caller: ResponsesRequest, family = 'gpt-4.1'): ResponsesRequest {
  const before = structuredClone(caller);
  const applied = applyAssistantToResponses(record, caller, family);
  expect(caller).toEqual(before);
  expect(applied).not.toBe(caller);
  return applied;
}

describe('applyAssistantToResponses', () => {
  it('sends the family as the model and keeps every other field of the request', () => {
    const caller = request({ reasoning: { effort: 'low' }, metadata: { user: 'u1' }, store: false, stream: true, include: ['reasoning.encrypted_content'], x_newer: { kept: 1 } });
    expect(apply(assistant({ instructions: '' }), caller, 'o4-mini')).toEqual({ ...caller, model: 'o4-mini' });
  });

  it("gives the assistant's instructions when the request has none (absent, null or empty)", () => {
    expect(apply(assistant(), request()).instructions).toBe('You are a helpful pirate.');
    expect(apply(assistant(), request({ instructions: null })).instructions).toBe('You are a helpful pirate.');
    expect(apply(assistant(), request({ instructions: '' })).instructions).toBe('You are a helpful pirate.');
  });

  it("puts the assistant's instructions before the caller's, a blank line between", () => {
    expect(apply(assistant(), request({ instructions: 'Answer in French.' })).instructions).toBe('You are a helpful pirate.\n\nAnswer in French.');
  });

  it('leaves the instructions alone when the assistant has none', () => {
    expect(apply(assistant({ instructions: '' }), request({ instructions: 'Answer in French.' })).instructions).toBe('Answer in French.');
    expect(apply(assistant({ instructions: '' }), request())).not.toHaveProperty('instructions');
  });

  it("declares the assistant's function tools the Responses way: flat, null where it set nothing", () => {
    const applied = apply(assistant({ tools: [fn('get_weather', { description: 'Weather in a city', parameters: weatherSchema, strict: true }), fn('get_time')] }), request());
    expect(applied.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather in a city', parameters: weatherSchema, strict: true },
      { type: 'function', name: 'get_time', description: null, parameters: null, strict: null },
    ]);
  });

  it("merges the tools: the assistant's first, a request tool of the same name replacing the assistant's, hosted tools kept", () => {
    const callerWeather = { type: 'function', name: 'get_weather', description: 'Mine', parameters: { type: 'object', properties: {} }, strict: false };
    const search = { type: 'web_search' };
    const applied = apply(assistant({ tools: [fn('get_weather', { parameters: weatherSchema }), fn('get_time')] }), request({ tools: [search, callerWeather] }));
    expect(applied.tools).toEqual([{ type: 'function', name: 'get_time', description: null, parameters: null, strict: null }, search, callerWeather]);
  });

  it("leaves the request's tools as they are when the assistant has no function tool (its custom tools have no Responses form here)", () => {
    const custom: Tool = { type: 'custom', custom: { name: 'grammar' } };
    const tools = [{ type: 'function', name: 'get_time' }];
    expect(apply(assistant({ tools: [custom] }), request({ tools })).tools).toEqual(tools);
    expect(apply(assistant({ tools: [custom] }), request())).not.toHaveProperty('tools');
    expect(apply(assistant({ tools: [custom, fn('get_weather')] }), request()).tools).toEqual([{ type: 'function', name: 'get_weather', description: null, parameters: null, strict: null }]);
  });

  it("sets temperature, top_p and max_output_tokens (from max_tokens) only where the request sets none, null counting as none", () => {
    const defaults = assistant({ temperature: 0.2, topP: 0.9, maxTokens: 300 });
    expect(apply(defaults, request())).toMatchObject({ temperature: 0.2, top_p: 0.9, max_output_tokens: 300 });
    expect(apply(defaults, request({ temperature: null, top_p: null, max_output_tokens: null }))).toMatchObject({ temperature: 0.2, top_p: 0.9, max_output_tokens: 300 });
    expect(apply(defaults, request({ temperature: 1.5, top_p: 0.5, max_output_tokens: 64 }))).toMatchObject({ temperature: 1.5, top_p: 0.5, max_output_tokens: 64 });
  });

  it('treats 0 as a value on either side: a request 0 stands, an assistant 0 applies', () => {
    expect(apply(assistant({ temperature: 0.7, topP: 0.7 }), request({ temperature: 0, top_p: 0 }))).toMatchObject({ temperature: 0, top_p: 0 });
    expect(apply(assistant({ temperature: 0, topP: 0 }), request())).toMatchObject({ temperature: 0, top_p: 0 });
  });

  it('adds no sampling field the assistant leaves unset', () => {
    const applied = apply(assistant(), request());
    for (const field of ['temperature', 'top_p', 'max_output_tokens']) expect(applied).not.toHaveProperty(field);
    expect(apply(assistant(), request({ temperature: null })).temperature).toBeNull();
  });

  it('asks for the json_schema format when the request asks for none, keeping its other text settings', () => {
    const structured = assistant({ responseFormat: { type: 'json_schema', json_schema: { name: 'weather', schema: weatherSchema, strict: true } } });
    expect(apply(structured, request()).text).toEqual({ format: { type: 'json_schema', name: 'weather', schema: weatherSchema, strict: true } });
    expect(apply(structured, request({ text: { verbosity: 'low' } })).text).toEqual({ verbosity: 'low', format: { type: 'json_schema', name: 'weather', schema: weatherSchema, strict: true } });
  });

  it('writes strict only when the assistant set it, and an empty schema when it gave none', () => {
    const format = (strict: boolean | null | undefined) =>
      apply(assistant({ responseFormat: { type: 'json_schema', json_schema: { name: 'free', ...(strict === undefined ? {} : { strict }) } } }), request()).text?.format;
    expect(format(undefined)).toEqual({ type: 'json_schema', name: 'free', schema: {} });
    expect(format(null)).toEqual({ type: 'json_schema', name: 'free', schema: {} });
    expect(format(false)).toEqual({ type: 'json_schema', name: 'free', schema: {}, strict: false });
  });

  it("issue 13: keeps the json_schema format's description, as the bridged path does (response_format → text.format)", () => {
    const described = assistant({ responseFormat: { type: 'json_schema', json_schema: { name: 'weather', description: 'The weather in one city', schema: weatherSchema } } });
    expect(apply(described, request()).text?.format).toEqual({ type: 'json_schema', name: 'weather', description: 'The weather in one city', schema: weatherSchema });
  });

  it('asks for json_object as json_object, and for nothing when the assistant format is text', () => {
    expect(apply(assistant({ responseFormat: { type: 'json_object' } }), request()).text).toEqual({ format: { type: 'json_object' } });
    expect(apply(assistant({ responseFormat: { type: 'text' } }), request())).not.toHaveProperty('text');
    expect(apply(assistant({ responseFormat: null }), request({ text: { verbosity: 'high' } })).text).toEqual({ verbosity: 'high' });
  });

  it("keeps the request's own format, text included, over the assistant's", () => {
    const structured = assistant({ responseFormat: { type: 'json_object' } });
    for (const format of [{ type: 'text' }, { type: 'json_schema', name: 'mine', schema: { type: 'object' } }]) {
      expect(apply(structured, request({ text: { format } })).text).toEqual({ format });
    }
  });
});
