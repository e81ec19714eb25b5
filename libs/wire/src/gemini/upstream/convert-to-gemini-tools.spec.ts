import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertToGeminiTools } from './convert-to-gemini-tools';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    strict: true,
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
};
const time = { type: 'function', function: { name: 'get_time' } };
const weatherDeclaration = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] },
};

const convert = (fields: Record<string, unknown>) =>
  convertToGeminiTools(ChatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'user', content: 'x' }], ...fields }));

function rejectionOf(fields: Record<string, unknown>) {
  try {
    convert(fields);
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return { status: error.status, param: error.param };
  }
  throw new Error('expected a 400');
}

describe('convertToGeminiTools', () => {
  it('declares function tools with sanitised parameters, none for a function without arguments', () => {
    expect(convert({ tools: [weather, time] })).toEqual({
      tools: [{ functionDeclarations: [weatherDeclaration, { name: 'get_time' }] }],
    });
  });

  it('codex_custom_tool_refused: a custom tool → a function of one string `input` (its grammar told in the description), chosen by name', () => {
    const sql = { type: 'custom', custom: { name: 'sql', description: 'Run SQL.', format: { type: 'grammar', grammar: { syntax: 'regex', definition: 'SELECT .*' } } } };
    expect(convert({ tools: [sql], tool_choice: { type: 'custom', custom: { name: 'sql' } } })).toEqual({
      tools: [
        {
          functionDeclarations: [
            {
              name: 'sql',
              description: 'Run SQL.',
              parameters: { type: 'OBJECT', properties: { input: { type: 'STRING', description: 'The raw input, not JSON-encoded, matching this regex grammar:\nSELECT .*' } }, required: ['input'] },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['sql'] } },
    });
  });

  it.each([
    ['auto', 'auto', { mode: 'AUTO' }],
    ['none', 'none', { mode: 'NONE' }],
    ['required', 'required', { mode: 'ANY' }],
    ['a named function', { type: 'function', function: { name: 'get_time' } }, { mode: 'ANY', allowedFunctionNames: ['get_time'] }],
    [
      'allowed_tools, required',
      { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'get_time' } }] } },
      { mode: 'ANY', allowedFunctionNames: ['get_time'] },
    ],
  ])('maps tool_choice %s', (_name, toolChoice, functionCallingConfig) => {
    expect(convert({ tools: [weather, time], tool_choice: toolChoice }).toolConfig).toEqual({ functionCallingConfig });
  });

  it('maps allowed_tools in auto mode to AUTO over only the allowed functions', () => {
    expect(
      convert({
        tools: [weather, time],
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
        },
      }),
    ).toEqual({
      tools: [{ functionDeclarations: [weatherDeclaration] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    });
  });

  it('sends nothing without tools when tool_choice asks for no call', () => {
    expect(convert({ tool_choice: 'none' })).toEqual({});
    expect(convert({ tools: [], tool_choice: 'auto' })).toEqual({});
  });

  it('accepts parallel_tool_calls true, and false when no call can happen', () => {
    expect(convert({ tools: [time], parallel_tool_calls: true })).toEqual({ tools: [{ functionDeclarations: [{ name: 'get_time' }] }] });
    expect(convert({ tools: [time], tool_choice: 'none', parallel_tool_calls: false }).toolConfig).toEqual({
      functionCallingConfig: { mode: 'NONE' },
    });
    expect(convert({ parallel_tool_calls: false })).toEqual({});
  });

  it.each([
    ['parallel_tool_calls: false (Gemini has no switch)', { tools: [time], parallel_tool_calls: false }, 'parallel_tool_calls'],
    [
      'a named function that is not declared',
      { tools: [time], tool_choice: { type: 'function', function: { name: 'nope' } } },
      'tool_choice.function.name',
    ],
    ['required without tools', { tool_choice: 'required' }, 'tool_choice'],
    ['a custom tool_choice naming no tool', { tools: [time], tool_choice: { type: 'custom', custom: { name: 'sql' } } }, 'tool_choice.custom.name'],
    ['a name starting with a digit', { tools: [{ type: 'function', function: { name: '2fa' } }] }, 'tools[0].function.name'],
    ['a name declared twice', { tools: [time, time] }, 'tools[1].function.name'],
    [
      'a schema Gemini cannot express',
      { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'array' } } } } }] },
      'tools[0].function.parameters.properties.a',
    ],
  ])('rejects %s', (_name, fields, param) => {
    expect(rejectionOf(fields)).toEqual({ status: 400, param });
  });
});
