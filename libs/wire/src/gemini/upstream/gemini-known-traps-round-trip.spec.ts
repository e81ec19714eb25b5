/*
 * The Known traps of issue 5 that live in a tool round trip through a Gemini channel: each
 * `describe` is named after its trap. The stream-side traps are in gemini-known-traps-stream.spec.ts.
 */
import { geminiAdapter } from './gemini-adapter';
import { accumulateToolCalls, buildGeminiCall } from '../testing/gemini-channel';
import { readGeminiCassette, readGeminiStreamLines, runGeminiStream } from '../testing/gemini-fixtures';
import { openAiToolsFor } from '../testing/recorded-requests';
import { sanitizeGeminiSchema } from './sanitize-gemini-schema';

const wireIdOf = (openAiId: string) => openAiId.split('_ts_')[0];

/** Recorded contents with the ids pydantic-ai made up replaced by the ones the relay sends. */
function withIds(contents: unknown, ids: ReadonlyMap<string, string>): unknown {
  return JSON.parse(JSON.stringify(contents), (key, value) => (key === 'id' && ids.has(value) ? ids.get(value) : value));
}

/** The tool results the recorded follow-up request sent, in order (last user turn). */
function recordedResults(requestBody: Record<string, any>): Array<{ id: string; response: unknown }> {
  return requestBody['contents'].at(-1).parts.map((part: any) => part.functionResponse);
}

describe("trap: Gemini thought signatures that must travel back on the next turn", () => {
  it('cassette-parallel-function-calls.yaml: every follow-up carries each signature on the part it came with', () => {
    const interactions = readGeminiCassette('cassette-parallel-function-calls.yaml');
    const tools = openAiToolsFor(interactions[0]?.requestBody ?? {});
    const allowed = tools.map(({ function: { name } }) => ({ type: 'function', function: { name } }));
    const messages: unknown[] = [
      { role: 'system', content: 'Tell three jokes. Generate topics with the generate_topic tool.' },
      { role: 'user', content: '' },
    ];
    const ids = new Map<string, string>();

    for (let turn = 0; turn + 1 < interactions.length; turn++) {
      const converted = geminiAdapter.convertResponse(JSON.stringify(interactions[turn]?.responseJson), 'my-gemini');
      if (!converted.ok) throw converted.error;
      const message = (converted.body as any).choices[0].message;
      messages.push({ role: 'assistant', content: message.content, tool_calls: message.tool_calls });
      const next = interactions[turn + 1]?.requestBody ?? {};
      recordedResults(next).forEach((result, index) => {
        const call = message.tool_calls[index];
        ids.set(result.id, wireIdOf(call.id) ?? '');
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result.response) });
      });

      const { json } = buildGeminiCall(
        { messages, tools, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: allowed } } },
        'gemini-3-flash-preview',
      );
      // Byte for byte: same parts, same order, the signature (URL-safe base64, as Google's SDK
      // sends it) on the first call of each step and on no other.
      expect(json.contents).toEqual(withIds(next['contents'], ids));
    }
    expect(ids.size).toBe(6);
  });

  it('cassette-stream-thought-signature.yaml: the streamed call comes back signed, to the recorded URL', () => {
    const [first, second] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    const [call] = accumulateToolCalls(runGeminiStream(first?.responseEvents ?? [], false).chunks);
    if (!call) throw new Error('no tool call streamed');
    const [result] = recordedResults(second?.requestBody ?? {});
    const { url, json } = buildGeminiCall(
      {
        stream: true,
        tools: openAiToolsFor(first?.requestBody ?? {}),
        messages: [
          { role: 'user', content: 'What is the capital of the user country? Call the tool' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
          },
          { role: 'tool', tool_call_id: call.id, content: JSON.stringify(result?.response) },
        ],
      },
      'gemini-3-pro-preview',
    );
    expect(url).toBe(second?.uri);
    expect(json.contents).toEqual(withIds(second?.requestBody['contents'], new Map([[result?.id ?? '', wireIdOf(call.id) ?? '']])));
    expect((json.contents[1]?.parts[0] as { thoughtSignature?: string }).thoughtSignature).toMatch(/^EpwICpkIAXLI2nx.*=$/);
  });

  it('sends no signature for a call id the relay did not make', () => {
    const { json } = buildGeminiCall(
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_abc', content: 'ok' },
        ],
      },
      'gemini-2.5-flash',
    );
    expect(json.contents[1]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'call_abc', name: 'f', args: {} } }] });
  });
});

describe("trap: Gemini's functionResponse needing the name and an object", () => {
  it('names each result after the call it answers and wraps results that are not JSON objects', () => {
    const { json } = buildGeminiCall(
      {
        messages: [
          { role: 'user', content: 'Weather and time?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
              { id: 'b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'b', content: '12:00' },
          { role: 'tool', tool_call_id: 'a', content: '{"temp":-3}' },
        ],
      },
      'gemini-2.5-flash',
    );
    expect(json.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'b', name: 'get_time', response: { content: '12:00' } } },
        { functionResponse: { id: 'a', name: 'get_weather', response: { temp: -3 } } },
      ],
    });
  });
});

describe('trap: content null versus "" on an assistant message with tool calls', () => {
  it('answers null content for calls only, and sends no empty text part for content ""', () => {
    const converted = geminiAdapter.convertResponse(readGeminiStreamLines('generate-content-tool-call.stream.jsonl')[0] ?? '', 'm');
    expect(converted.ok && (converted.body as any).choices[0].message.content).toBeNull();
    const { json } = buildGeminiCall(
      {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c', content: '1' },
        ],
      },
      'gemini-2.5-flash',
    );
    expect(json.contents[1]?.parts).toEqual([{ functionCall: { id: 'c', name: 'f', args: {} } }]);
  });
});

describe('trap: tool-call ids that break ^[a-zA-Z0-9_-]+$', () => {
  it('generates ids of the safe alphabet for every recorded call, signatures included', () => {
    const ids: string[] = [];
    for (const name of ['cassette-parallel-function-calls.yaml', 'cassette-tool-config-any.yaml']) {
      for (const interaction of readGeminiCassette(name)) {
        const converted = geminiAdapter.convertResponse(JSON.stringify(interaction.responseJson), 'm');
        if (converted.ok) ids.push(...((converted.body as any).choices[0].message.tool_calls ?? []).map((c: any) => c.id));
      }
    }
    for (const name of ['cassette-stream-thought-signature.yaml', 'cassette-stream-tool-roundtrip.yaml']) {
      for (const interaction of readGeminiCassette(name)) {
        ids.push(...accumulateToolCalls(runGeminiStream(interaction.responseEvents ?? [], false).chunks).map((c) => c.id));
      }
    }
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    for (const id of ids) expect(id).toMatch(/^call_[a-zA-Z0-9_-]+$/);
  });
});

const ALLOWED_KEYWORDS = new Set([
  'type', 'format', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'anyOf',
  'minItems', 'maxItems', 'minimum', 'maximum', 'propertyOrdering',
]);
const GEMINI_TYPES = ['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT'];

/** Every way a schema can be rejected by Gemini that the sanitiser is meant to rule out. */
function rejectedParts(schema: any, path = '$'): string[] {
  const problems = Object.keys(schema).filter((key) => !ALLOWED_KEYWORDS.has(key)).map((key) => `${path}.${key}`);
  const properties: Record<string, unknown> = schema.properties ?? {};
  if (schema.type !== undefined && !GEMINI_TYPES.includes(schema.type)) problems.push(`${path}.type`);
  if (schema.type === undefined && schema.anyOf === undefined) problems.push(`${path} has no type`);
  if (schema.type === 'ARRAY' && schema.items === undefined) problems.push(`${path}.items missing`);
  if (schema.properties && Object.keys(properties).length === 0) problems.push(`${path}.properties empty`);
  for (const name of schema.required ?? []) if (!(name in properties)) problems.push(`${path}.required ${name}`);
  const stringsOnly = schema.type === 'STRING' && (schema.enum ?? []).every((value: unknown) => typeof value === 'string');
  if (schema.enum && !stringsOnly) problems.push(`${path}.enum`);
  for (const [name, child] of Object.entries(properties)) problems.push(...rejectedParts(child, `${path}.${name}`));
  if (schema.items) problems.push(...rejectedParts(schema.items, `${path}.items`));
  (schema.anyOf ?? []).forEach((child: unknown, index: number) => {
    problems.push(...rejectedParts(child, `${path}.anyOf[${index}]`));
  });
  return problems;
}

/** final_result's `parameters_json_schema` (additionalProperties and all), as Gemini 3 got it. */
const recordedParameters = () =>
  openAiToolsFor(readGeminiCassette('cassette-parallel-function-calls.yaml')[0]?.requestBody ?? {})[1]?.function.parameters ?? {};

describe('trap: schema sanitising never sends what Gemini rejects', () => {
  const pydanticStyle = {
    $defs: {
      Unit: { enum: ['c', 'f'], title: 'Unit', type: 'string' },
      Place: {
        properties: { name: { type: 'string', default: 'x' } },
        required: ['name'],
        title: 'Place',
        type: 'object',
        additionalProperties: false,
      },
    },
    properties: {
      unit: { $ref: '#/$defs/Unit', default: 'c' },
      place: { anyOf: [{ $ref: '#/$defs/Place' }, { type: 'null' }], default: null },
      tags: { items: { type: 'string', format: 'uuid' }, type: 'array', uniqueItems: true, examples: [['a']] },
      level: { type: 'integer', enum: [1, 2, 3], exclusiveMaximum: 9 },
      extra: { type: 'object', additionalProperties: { type: 'number' } },
    },
    required: ['unit', 'missing'],
    title: 'Args',
    type: 'object',
    additionalProperties: false,
    $schema: 'https://json-schema.org/draft/2020-12/schema',
  };

  it.each([
    ['a pydantic model with $defs, titles, defaults and nullables', pydanticStyle],
    ['the recorded full JSON Schema of cassette-parallel-function-calls.yaml', recordedParameters()],
  ])('%s', (_name, schema) => {
    const sanitized = sanitizeGeminiSchema(schema, 'tools[0].function.parameters', 'parameters');
    expect(sanitized).toBeDefined();
    expect(rejectedParts(sanitized)).toEqual([]);
  });

  it('sends the pydantic model as exactly this', () => {
    expect(sanitizeGeminiSchema(pydanticStyle, 'p', 'parameters')).toEqual({
      type: 'OBJECT',
      properties: {
        unit: { type: 'STRING', enum: ['c', 'f'] },
        place: { type: 'OBJECT', properties: { name: { type: 'STRING' } }, required: ['name'], nullable: true },
        tags: { type: 'ARRAY', items: { type: 'STRING' } },
        level: { type: 'INTEGER' },
        extra: { type: 'OBJECT' },
      },
      required: ['unit'],
    });
  });
});
