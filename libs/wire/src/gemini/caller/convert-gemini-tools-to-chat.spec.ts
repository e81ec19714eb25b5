import { lost } from '../../testing/lost';
import { GeminiGenerateContentRequestSchema } from '@chat-relay/contract';
import { BridgeNotes } from '../../hub/bridge-notes';
import { convertGeminiSchemaToJsonSchema, withJsonSchemaTypes } from './convert-gemini-schema-to-json-schema';
import { convertGeminiToolsToChat } from './convert-gemini-tools-to-chat';

function convert(extra: Record<string, unknown>) {
  const parsed = GeminiGenerateContentRequestSchema.parse({ contents: [{ parts: [{ text: 'Hi' }] }], ...extra });
  const notes = new BridgeNotes((param, why) => `'${param}' can only be served by a Gemini channel: ${why}.`);
  return { fields: convertGeminiToolsToChat(parsed.tools, parsed.toolConfig, notes), notes };
}

const weather = { name: 'get_weather', description: 'Weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const time = { name: 'get_time', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } };

describe('convertGeminiToolsToChat', () => {
  it('function declarations → function tools: parametersJsonSchema as it is, parameters converted, none without', () => {
    const { fields, notes } = convert({ tools: [{ functionDeclarations: [weather, time] }, { functionDeclarations: [{ name: 'ping' }] }] });
    expect(fields).toEqual({
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weather.parametersJsonSchema } },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
        { type: 'function', function: { name: 'ping' } },
      ],
    });
    expect(notes.warnings).toEqual([]);
  });

  it.each([
    [{ mode: 'AUTO' }, undefined],
    [{ mode: 'MODE_UNSPECIFIED' }, undefined],
    [{ mode: 'NONE' }, 'none'],
    [{ mode: 'ANY' }, 'required'],
    [{ mode: 'ANY', allowedFunctionNames: ['get_time'] }, { type: 'function', function: { name: 'get_time' } }],
    [
      { mode: 'ANY', allowedFunctionNames: ['get_time', 'get_weather'] },
      {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'get_time' } }, { type: 'function', function: { name: 'get_weather' } }] },
      },
    ],
  ])('functionCallingConfig %j → tool_choice %j', (functionCallingConfig, choice) => {
    const { fields } = convert({ tools: [{ functionDeclarations: [weather, time] }], toolConfig: { functionCallingConfig } });
    expect(fields.tool_choice).toEqual(choice);
  });

  it('VALIDATED → auto, with a warning', () => {
    const { fields, notes } = convert({ tools: [{ functionDeclarations: [weather] }], toolConfig: { functionCallingConfig: { mode: 'VALIDATED' } } });
    expect(fields.tool_choice).toBe('auto');
    expect(notes.warnings).toEqual([lost('toolConfig.functionCallingConfig.mode', 'mapped', { from: 'VALIDATED', to: 'auto' })]);
  });

  it('no function declared: neither tools nor tool_choice, a toolConfig said not sent', () => {
    const { fields, notes } = convert({ toolConfig: { functionCallingConfig: { mode: 'ANY' } } });
    expect(fields).toEqual({});
    expect(notes.warnings).toEqual([lost('toolConfig')]);
  });

  it('declaration fields with no counterpart are warnings; tools Google runs are refused by name', () => {
    const { notes } = convert({ tools: [{ functionDeclarations: [{ ...weather, behavior: 'NON_BLOCKING' }] }, { urlContext: {} }] });
    expect(notes.warnings).toEqual([lost('tools[0].functionDeclarations[0].behavior')]);
    expect(notes.nativeOnly).toMatchObject({ param: 'tools[1].urlContext' });
  });
});

describe('convertGeminiSchemaToJsonSchema', () => {
  it('lower-cases types, turns nullable into a null type, drops Gemini-only keywords, at every depth', () => {
    expect(
      convertGeminiSchemaToJsonSchema({
        type: 'OBJECT',
        propertyOrdering: ['a', 'b'],
        properties: {
          a: { type: 'ARRAY', items: { type: 'INTEGER', format: 'int32', nullable: true }, minItems: 1 },
          b: { anyOf: [{ type: 'STRING', enum: ['x'] }, { type: 'NUMBER' }], example: 'x', description: 'b' },
          c: { type: 'TYPE_UNSPECIFIED' },
        },
        required: ['a'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'array', items: { type: ['integer', 'null'], format: 'int32' }, minItems: 1 },
        b: { anyOf: [{ type: 'string', enum: ['x'] }, { type: 'number' }], description: 'b' },
        c: {},
      },
      required: ['a'],
    });
  });

  it('a property named like a keyword is a property, and JSON Schema comes out unchanged', () => {
    const schema = { type: 'object', properties: { type: { type: 'string' }, nullable: { type: 'boolean' } }, additionalProperties: false };
    expect(convertGeminiSchemaToJsonSchema(schema)).toEqual(schema);
  });
});

describe('withJsonSchemaTypes', () => {
  it("lower-cases Gemini's type names in a JSON Schema and changes nothing else (Gemini CLI 0.61.0's router schema)", () => {
    expect(
      withJsonSchemaTypes({
        type: 'OBJECT',
        properties: { score: { type: 'INTEGER', description: 'Complexity score.' }, tags: { type: 'ARRAY', items: { type: 'STRING' } }, example: { type: 'STRING' } },
        required: ['score'],
        propertyOrdering: ['score'],
      }),
    ).toEqual({
      type: 'object',
      properties: { score: { type: 'integer', description: 'Complexity score.' }, tags: { type: 'array', items: { type: 'string' } }, example: { type: 'string' } },
      required: ['score'],
      propertyOrdering: ['score'],
    });
  });
});
