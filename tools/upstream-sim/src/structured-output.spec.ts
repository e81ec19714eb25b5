import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ChatCompletionSchema } from '@chat-relay/contract';
import { exampleFromSchema } from './args-from-schema';
import { postAnthropic, postChat, postGemini, readAll, sseData } from './sim-test-client';
import { startUpstreamSim } from './sim-server';
import { spacedJson } from './structured-answer';
import type { UpstreamSim } from './sim-types';
import type { AnthropicMessageResponse } from './anthropic/anthropic-api';
import type { GenerateContentResponse } from './gemini/gemini-api';

// Structured outputs answer JSON valid against the asked schema in every format — checked by a
// real JSON Schema validator (ajv, formats on), not by comparing with what the simulator builds.

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
function schemaErrors(schema: object, value: unknown): string[] {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

/** What pydantic writes for a model with a nested model, a list and formats. */
const eventSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 12 },
    when: { type: 'string', format: 'date-time' },
    contact: { type: 'string', format: 'email' },
    attendees: { type: 'array', items: { $ref: '#/$defs/Person' }, minItems: 2 },
    priority: { type: 'integer', exclusiveMinimum: 3, maximum: 9 },
    kind: { anyOf: [{ type: 'string', enum: ['meeting', 'call'] }, { type: 'null' }] },
  },
  required: ['title', 'when', 'contact', 'attendees', 'priority', 'kind'],
  additionalProperties: false,
  $defs: {
    Person: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name', 'age'],
      additionalProperties: false,
    },
  },
};

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());

describe('exampleFromSchema', () => {
  it('builds a value the schema accepts: $defs references, formats, bounds, minItems', () => {
    const value = exampleFromSchema(eventSchema);
    expect(schemaErrors(eventSchema, value)).toEqual([]);
    expect(value).toMatchObject({ priority: 4, kind: 'meeting' });
  });

  it('answers non-object roots too', () => {
    const schema = { type: 'array', items: { type: 'number', maximum: -2 } };
    expect(schemaErrors(schema, exampleFromSchema(schema))).toEqual([]);
  });
});

describe('spacedJson', () => {
  it('writes one line that parses back, with spaces only between tokens', () => {
    const value = { a: 'x\ny', b: [1, { c: null }], d: {} };
    const text = spacedJson(value);
    expect(text).toBe('{"a": "x\\ny", "b": [1, {"c": null}], "d": {}}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('structured outputs over HTTP', () => {
  const question = [{ role: 'user', content: 'Plan the event' }];

  it('chat json_schema: the message content is JSON valid against the schema', async () => {
    const response = await postChat(sim, {
      model: 'gpt-4o',
      messages: question,
      response_format: { type: 'json_schema', json_schema: { name: 'event', schema: eventSchema, strict: true } },
    });
    const completion = ChatCompletionSchema.parse(await response.json());
    const content = completion.choices[0]?.message.content;
    expect(typeof content).toBe('string');
    expect(schemaErrors(eventSchema, JSON.parse(String(content)))).toEqual([]);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('chat json_schema streamed: the content deltas join into the same JSON, in several pieces', async () => {
    const body = {
      model: 'gpt-4o',
      messages: question,
      stream: true,
      response_format: { type: 'json_schema', json_schema: { name: 'event', schema: eventSchema } },
    };
    const { text } = await readAll(await postChat(sim, body));
    const deltas = sseData(text)
      .slice(0, -1)
      .map((data) => JSON.parse(data).choices[0]?.delta?.content ?? '');
    expect(deltas.filter((delta: string) => delta.length > 0).length).toBeGreaterThan(5);
    expect(schemaErrors(eventSchema, JSON.parse(deltas.join('')))).toEqual([]);
  });

  it('chat json_object: a small object echoing the user, still JSON after tool results', async () => {
    const plain = await postChat(sim, { model: 'gpt-4o', messages: question, response_format: { type: 'json_object' } });
    const completion = ChatCompletionSchema.parse(await plain.json());
    expect(JSON.parse(String(completion.choices[0]?.message.content))).toEqual({ echo: 'Plan the event' });

    const afterTools = await postChat(sim, {
      model: 'gpt-4o',
      response_format: { type: 'json_object' },
      tools: [{ type: 'function', function: { name: 'get_room' } }],
      messages: [
        ...question,
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_room', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'room 4' },
      ],
    });
    const final = ChatCompletionSchema.parse(await afterTools.json());
    expect(JSON.parse(String(final.choices[0]?.message.content))).toEqual({ echo: 'Plan the event' });
  });

  it('chat: tools that fit still win over the response format; text format still echoes', async () => {
    const withTool = await postChat(sim, {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'get room' }],
      tools: [{ type: 'function', function: { name: 'get_room' } }],
      response_format: { type: 'json_object' },
    });
    expect(ChatCompletionSchema.parse(await withTool.json()).choices[0]?.finish_reason).toBe('tool_calls');
    const text = await postChat(sim, { model: 'gpt-4o', messages: question, response_format: { type: 'text' } });
    expect(ChatCompletionSchema.parse(await text.json()).choices[0]?.message.content).toBe('You said: Plan the event');
  });

  it('chat: max_tokens cuts the JSON like a real model (finish_reason length)', async () => {
    const response = await postChat(sim, {
      model: 'gpt-4o',
      messages: question,
      max_tokens: 3,
      response_format: { type: 'json_schema', json_schema: { name: 'event', schema: eventSchema } },
    });
    const completion = ChatCompletionSchema.parse(await response.json());
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(() => JSON.parse(String(completion.choices[0]?.message.content))).toThrow();
  });

  it('Gemini responseSchema (subset, upper-case types) + application/json: the text is valid JSON', async () => {
    const responseSchema = {
      type: 'OBJECT',
      properties: { city: { type: 'STRING' }, days: { type: 'INTEGER', minimum: 2 }, tags: { type: 'ARRAY', items: { type: 'STRING' } } },
      required: ['city', 'days', 'tags'],
    };
    const response = await postGemini(sim, {
      contents: [{ role: 'user', parts: [{ text: 'forecast' }] }],
      generationConfig: { responseMimeType: 'application/json', responseSchema },
    });
    const body = (await response.json()) as GenerateContentResponse;
    const part = body.candidates[0]?.content.parts[0];
    const value = JSON.parse(part && 'text' in part ? String(part.text) : '');
    const jsonSchema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 2 }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['city', 'days', 'tags'],
      additionalProperties: false,
    };
    expect(schemaErrors(jsonSchema, value)).toEqual([]);
  });

  it('Gemini responseJsonSchema, and application/json alone → {"echo": …}', async () => {
    const withSchema = await postGemini(sim, {
      contents: [{ role: 'user', parts: [{ text: 'plan' }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: eventSchema },
    });
    const schemaBody = (await withSchema.json()) as GenerateContentResponse;
    const schemaPart = schemaBody.candidates[0]?.content.parts[0];
    expect(schemaErrors(eventSchema, JSON.parse(schemaPart && 'text' in schemaPart ? String(schemaPart.text) : ''))).toEqual([]);

    const bare = await postGemini(sim, {
      contents: [{ role: 'user', parts: [{ text: 'plan' }] }],
      generationConfig: { responseMimeType: 'application/json' },
    });
    const bareBody = (await bare.json()) as GenerateContentResponse;
    const barePart = bareBody.candidates[0]?.content.parts[0];
    expect(JSON.parse(barePart && 'text' in barePart ? String(barePart.text) : '')).toEqual({ echo: 'plan' });
  });

  it('Anthropic: a forced tool (how the relay asks for JSON) gets an input valid against its schema', async () => {
    const response = await postAnthropic(sim, {
      model: 'claude-sonnet-4-5',
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Plan the event' }],
      tools: [{ name: 'json_response__event', input_schema: eventSchema }],
      tool_choice: { type: 'tool', name: 'json_response__event' },
    });
    const message = (await response.json()) as AnthropicMessageResponse;
    const call = message.content.find((block) => block.type === 'tool_use');
    expect(call?.type === 'tool_use' && call.name).toBe('json_response__event');
    expect(schemaErrors(eventSchema, call?.type === 'tool_use' ? call.input : undefined)).toEqual([]);
    expect(message.stop_reason).toBe('tool_use');
  });
});
