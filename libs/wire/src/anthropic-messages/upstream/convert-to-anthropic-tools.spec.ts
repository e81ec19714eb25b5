import { lost } from '../../testing/lost';
import { conversionErrorFor, convertForTest as convert, userMessage as user } from '../testing/convert-for-test';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const time = { type: 'function', function: { name: 'get_time' } };
const ask = { messages: [user('Weather and time in Paris?')], tools: [weather, time] };

describe('convertToAnthropicTools', () => {
  it('sends tools as name, description and input_schema (an empty object schema when none is given)', () => {
    const { request } = convert(ask);
    expect(request.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather in a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      { name: 'get_time', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(request.tool_choice).toBeUndefined();
  });

  it.each([
    ['auto', { tool_choice: 'auto' }, { type: 'auto' }],
    ['none', { tool_choice: 'none' }, { type: 'none' }],
    ['required', { tool_choice: 'required' }, { type: 'any' }],
    ['a named function', { tool_choice: { type: 'function', function: { name: 'get_time' } } }, { type: 'tool', name: 'get_time' }],
    ['parallel_tool_calls: false', { parallel_tool_calls: false }, { type: 'auto', disable_parallel_tool_use: true }],
    [
      'required without parallel calls',
      { tool_choice: 'required', parallel_tool_calls: false },
      { type: 'any', disable_parallel_tool_use: true },
    ],
  ])('maps tool_choice %s', (_name, extra, expected) => {
    expect(convert({ ...ask, ...extra }).request.tool_choice).toEqual(expected);
  });

  it('refuses what Anthropic tools cannot express, naming the parameter', () => {
    expect(conversionErrorFor({ ...ask, tool_choice: { type: 'function', function: { name: 'nope' } } }).param).toBe(
      'tool_choice.function.name',
    );
    expect(conversionErrorFor({ messages: [user('x')], tool_choice: 'required' }).param).toBe('tool_choice');
    expect(
      conversionErrorFor({ ...ask, tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } } }).param,
    ).toBe('tool_choice');
    expect(conversionErrorFor({ ...ask, tools: [{ type: 'function', function: { name: 'json_response__x' } }] }).param).toBe(
      'tools[0].function.name',
    );
    const arrayInput = { type: 'function', function: { name: 'f', parameters: { type: 'array' } } };
    expect(conversionErrorFor({ ...ask, tools: [arrayInput] }).param).toBe('tools[0].function.parameters');
  });

  it('codex_custom_tool_refused: a custom tool → a tool of one string `input`, its grammar in that input’s description; chosen by name; its earlier call a tool_use with {input}', () => {
    const patch = { type: 'custom', custom: { name: 'apply_patch', description: 'Edit files.', format: { type: 'grammar', grammar: { syntax: 'lark', definition: 'start: "*** Begin Patch"' } } } };
    const call = { id: 'call_1', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } };
    const { request } = convert({
      messages: [user('Patch it'), { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_1', content: 'Done' }, user('Again')],
      tools: [patch, { type: 'custom', custom: { name: 'note' } }],
      tool_choice: { type: 'custom', custom: { name: 'apply_patch' } },
    });
    expect(request.tools).toEqual([
      {
        name: 'apply_patch',
        description: 'Edit files.',
        input_schema: {
          type: 'object',
          properties: { input: { type: 'string', description: 'The raw input, not JSON-encoded, matching this lark grammar:\nstart: "*** Begin Patch"' } },
          required: ['input'],
        },
      },
      { name: 'note', input_schema: { type: 'object', properties: { input: { type: 'string', description: 'The raw input text.' } }, required: ['input'] } },
    ]);
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'apply_patch' });
    expect(JSON.stringify(request.messages)).toContain(JSON.stringify({ type: 'tool_use', id: 'call_1', name: 'apply_patch', input: { input: '*** Begin Patch' } }));
  });

  it('accepts strict tools and reports that Anthropic does not enforce them', () => {
    const strictWeather = { ...weather, function: { ...weather.function, strict: true } };
    expect(convert({ ...ask, tools: [strictWeather] }).warnings).toEqual([lost('tools[0].function.strict')]);
  });
});

describe('response_format through a forced tool', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
  const jsonSchema = { type: 'json_schema', json_schema: { name: 'city_answer', schema, strict: true } };

  it('forces one call of a tool named after the schema when there are no other tools', () => {
    const { request, warnings } = convert({ messages: [user('Capital of France?')], response_format: jsonSchema });
    expect(request.tools).toEqual([
      {
        name: 'json_response__city_answer',
        description: 'Give your answer as JSON matching the "city_answer" schema: the input of this tool is the answer.',
        input_schema: schema,
      },
    ]);
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'json_response__city_answer', disable_parallel_tool_use: true });
    expect(warnings).toEqual([lost('response_format.json_schema.strict')]);
  });

  it('lets the model call a tool or answer in JSON when tools come with tool_choice auto', () => {
    const { request } = convert({ ...ask, response_format: jsonSchema });
    expect(request.tools?.map((tool) => tool.name)).toEqual(['get_weather', 'get_time', 'json_response__city_answer']);
    expect(request.tool_choice).toEqual({ type: 'any' });
  });

  it('forces the JSON answer when tool_choice is none', () => {
    const { request } = convert({ ...ask, tool_choice: 'none', response_format: jsonSchema });
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'json_response__city_answer', disable_parallel_tool_use: true });
  });

  it('leaves the format for a later turn when a tool call is required this turn', () => {
    const { request } = convert({ ...ask, tool_choice: 'required', response_format: jsonSchema });
    expect(request.tools?.map((tool) => tool.name)).toEqual(['get_weather', 'get_time']);
    expect(request.tool_choice).toEqual({ type: 'any' });
  });

  it('maps json_object to a forced tool taking any object', () => {
    const { request } = convert({ messages: [user('Reply in JSON')], response_format: { type: 'json_object' } });
    expect(request.tools).toEqual([
      {
        name: 'json_response__json_object',
        description: 'Give your answer as a JSON object: the input of this tool is the answer.',
        input_schema: { type: 'object', additionalProperties: true },
      },
    ]);
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'json_response__json_object', disable_parallel_tool_use: true });
  });

  it('refuses a schema that is not an object, or named like a tool', () => {
    const arraySchema = { type: 'json_schema', json_schema: { name: 'list', schema: { type: 'array' } } };
    expect(conversionErrorFor({ messages: [user('x')], response_format: arraySchema }).param).toBe(
      'response_format.json_schema.schema',
    );
    const clash = { type: 'json_schema', json_schema: { name: 'get_time', schema } };
    expect(conversionErrorFor({ ...ask, response_format: clash }).param).toBe('response_format.json_schema.name');
  });
});
