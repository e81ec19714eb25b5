import { GeminiGenerateContentRequestSchema, type GeminiGenerateContentRequest, type Tool } from '@chat-relay/contract';
import type { AssistantRecord } from '../../storage/types';
import { assistantRecord as assistant } from '../../../test/testing/assistant-record';
import { applyAssistantToGemini } from './apply-assistant-to-gemini';

const fn = (name: string, description = '', parameters?: Record<string, unknown>): Tool => ({
  type: 'function',
  function: { name, ...(description ? { description } : {}), ...(parameters ? { parameters } : {}) },
});
const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

const request = (overrides: Record<string, unknown> = {}): GeminiGenerateContentRequest =>
  GeminiGenerateContentRequestSchema.parse({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], ...overrides });

/** Applies, and checks the caller's request was left as it came. */
function apply(record: AssistantRecord, caller: GeminiGenerateContentRequest) {
  const before = structuredClone(caller);
  const applied = applyAssistantToGemini(record, caller);
  expect(caller).toEqual(before);
  return applied;
}

describe('applyAssistantToGemini', () => {
  it('keeps every field of the request; an assistant with nothing to add changes nothing', () => {
    const caller = request({ safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }], labels: { a: 'b' } });
    expect(apply(assistant({ instructions: '' }), caller)).toEqual(caller);
  });

  it('the instructions become the system instruction, or its first part before the caller’s', () => {
    expect(apply(assistant(), request()).systemInstruction).toEqual({ parts: [{ text: 'You are a helpful pirate.' }] });
    const caller = request({ systemInstruction: { role: 'user', parts: [{ text: 'Answer in French.' }] } });
    expect(apply(assistant(), caller).systemInstruction).toEqual({ role: 'user', parts: [{ text: 'You are a helpful pirate.' }, { text: 'Answer in French.' }] });
  });

  it('function tools merge into the first declaration list, assistant’s first; the request’s definition wins a name clash', () => {
    const record = assistant({ tools: [fn('get_weather', 'assistant weather', citySchema), fn('get_time', 'Local time', citySchema), { type: 'custom', custom: { name: 'free' } }] });
    const caller = request({
      tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'get_weather', description: 'caller weather', parameters: { type: 'OBJECT', properties: {} } }] }],
    });
    expect(apply(record, caller).tools).toEqual([
      { googleSearch: {} },
      {
        functionDeclarations: [
          { name: 'get_time', description: 'Local time', parametersJsonSchema: citySchema },
          { name: 'get_weather', description: 'caller weather', parameters: { type: 'OBJECT', properties: {} } },
        ],
      },
    ]);
  });

  it('a request without function declarations gets the assistant’s as a first tool', () => {
    expect(apply(assistant({ tools: [fn('ping')] }), request()).tools).toEqual([{ functionDeclarations: [{ name: 'ping' }] }]);
  });

  it('temperature, top_p, max tokens and a JSON schema answer where the request sets none', () => {
    const record = assistant({
      temperature: 1.4,
      topP: 0.8,
      maxTokens: 256,
      responseFormat: { type: 'json_schema', json_schema: { name: 'city', schema: citySchema } },
    });
    expect(apply(record, request()).generationConfig).toEqual({
      temperature: 1.4,
      topP: 0.8,
      maxOutputTokens: 256,
      responseMimeType: 'application/json',
      responseJsonSchema: citySchema,
    });
    const caller = request({ generationConfig: { temperature: 0, topP: 1, maxOutputTokens: 9, responseMimeType: 'text/plain' } });
    expect(apply(record, caller).generationConfig).toEqual(caller.generationConfig);
  });

  it('json_object asks for JSON without a schema; a text format adds nothing', () => {
    expect(apply(assistant({ responseFormat: { type: 'json_object' } }), request()).generationConfig).toEqual({ responseMimeType: 'application/json' });
    expect(apply(assistant({ responseFormat: { type: 'text' } }), request()).generationConfig).toBeUndefined();
  });
});
