import { postGemini, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());

interface GoogleError {
  status: number;
  error: { code: number; status: string; message: string; details?: unknown[] };
}

async function send(body: unknown, init: { key?: string } = {}): Promise<GoogleError> {
  const response = await postGemini(sim, body, init);
  const json = (await response.json()) as Omit<GoogleError, 'status'>;
  expect(json.error.code).toBe(response.status);
  return { status: response.status, error: json.error };
}

const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const call = (name: string) => ({ role: 'model', parts: [{ functionCall: { name, args: { city: 'Paris' } } }] });
const respond = (functionResponse: unknown) => ({ role: 'user', parts: [{ functionResponse }] });
const declare = (parameters: unknown) => [{ functionDeclarations: [{ name: 'get_weather', parameters }] }];
const atParameters = "'tools[0].function_declarations[0].parameters";

describe('400 INVALID_ARGUMENT like the real Gemini API', () => {
  it.each([
    ['without a name', { response: { result: 'rain' } }, 'function_response.name: Name cannot be empty.'],
    ['with an empty name', { name: '', response: {} }, 'function_response.name: Name cannot be empty.'],
    ['whose response is a string', { name: 'get_weather', response: 'rain' }, 'function_response.response: Invalid value'],
    ['whose response is a list', { name: 'get_weather', response: ['rain'] }, 'function_response.response: Invalid value'],
    ['without a response', { name: 'get_weather' }, 'function_response.response: Field required'],
  ])('a functionResponse %s', async (_case, functionResponse, expected) => {
    const { status, error } = await send({ contents: [user('get weather'), call('get_weather'), respond(functionResponse)] });
    expect([status, error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(error.message).toContain(`GenerateContentRequest.contents[2].parts[0].${expected}`);
  });

  it.each([
    [
      'additionalProperties',
      { type: 'object', properties: {}, additionalProperties: false },
      `Unknown name "additionalProperties" at ${atParameters}'`,
    ],
    ['$schema', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, 'Unknown name "$schema"'],
    [
      'a nested additionalProperties',
      { type: 'object', properties: { where: { type: 'object', additionalProperties: {} } } },
      `Unknown name "additionalProperties" at ${atParameters}.properties["where"].value'`,
    ],
    ['oneOf inside items', { type: 'array', items: { oneOf: [{ type: 'string' }] } }, `Unknown name "oneOf" at ${atParameters}.items'`],
    ['a list as type', { type: ['string', 'null'] }, 'Proto field is not repeating, cannot start list'],
    ['an unknown type', { type: 'text' }, `Invalid value at ${atParameters}.type'`],
    ['a number in enum', { type: 'integer', enum: [1, 2] }, `Invalid value at ${atParameters}.enum[0]' (TYPE_STRING), 1`],
  ])('a declaration whose parameters have %s', async (_case, parameters, expected) => {
    const { status, error } = await send({ contents: [user('hi')], tools: declare(parameters) });
    expect([status, error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(error.message).toContain(expected);
  });

  it('accepts the whole subset, lower- or upper-case types, and full JSON Schema in parametersJsonSchema', async () => {
    const subset = {
      type: 'OBJECT',
      title: 'Where',
      description: 'A place',
      nullable: false,
      required: ['city'],
      propertyOrdering: ['city', 'days', 'tags'],
      properties: {
        city: { type: 'string', format: 'enum', enum: ['Paris'], minLength: 1, maxLength: 9, pattern: '^P', example: 'Paris', default: 'Paris' },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 3 },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
    };
    expect((await postGemini(sim, { contents: [user('hi')], tools: declare(subset) })).status).toBe(200);
    const jsonSchema = [{ functionDeclarations: [{ name: 'f', parametersJsonSchema: { type: 'object', additionalProperties: false } }] }];
    expect((await postGemini(sim, { contents: [user('hi')], tools: jsonSchema })).status).toBe(200);
  });

  const twoCalls = { role: 'model', parts: [{ functionCall: { name: 'f' } }, { functionCall: { name: 'g' } }] };
  const onlyIn = (mode: string) => ({ functionCallingConfig: { mode, allowedFunctionNames: ['get_weather'] } });
  it.each([
    ['a role other than user and model', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'Please use a valid role: user, model.'],
    ['a content without parts', { contents: [{ role: 'user', parts: [] }] }, 'contents.parts must not be empty.'],
    ['a part with no data', { contents: [{ role: 'user', parts: [{ thought: true }] }] }, "required oneof field 'data' must have one initialized field"],
    ['no contents', { contents: [] }, 'contents is not specified'],
    [
      'function responses without a call turn before',
      { contents: [user('a'), respond({ name: 'f', response: {} })] },
      'function response turn comes immediately after a function call turn',
    ],
    [
      'fewer responses than calls',
      { contents: [user('a'), twoCalls, respond({ name: 'f', response: {} })] },
      'number of function response parts is equal to the number of function call parts',
    ],
    [
      'a call turn right after a model turn',
      { contents: [user('a'), { role: 'model', parts: [{ text: 'x' }] }, call('f')] },
      'function call turn comes immediately after a user turn',
    ],
    [
      'allowedFunctionNames with mode AUTO',
      { contents: [user('a')], tools: declare({ type: 'object' }), toolConfig: onlyIn('AUTO') },
      'should only be set when the Mode is ANY',
    ],
    [
      'allowedFunctionNames naming an undeclared function',
      { contents: [user('a')], tools: [{ functionDeclarations: [{ name: 'f' }] }], toolConfig: onlyIn('ANY') },
      'function "get_weather" is not declared',
    ],
    [
      'a responseSchema outside the subset',
      {
        contents: [user('a')],
        generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'object', additionalProperties: false } },
      },
      "Unknown name \"additionalProperties\" at 'generation_config.response_schema'",
    ],
    [
      'a responseSchema without a JSON mime type',
      { contents: [user('a')], generationConfig: { responseSchema: { type: 'object' } } },
      'response_mime_type must be application/json',
    ],
    [
      'a function name starting with a digit',
      { contents: [user('a')], tools: [{ functionDeclarations: [{ name: '1f' }] }] },
      'Invalid function name.',
    ],
  ])('%s', async (_case, body, expected) => {
    const { status, error } = await send(body);
    expect([status, error.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect(error.message).toContain(expected);
  });

  it('a body that is not JSON', async () => {
    const { status, error } = await send('{"contents": ');
    expect([status, error.status]).toEqual([400, 'INVALID_ARGUMENT']);
  });
});

describe('authentication', () => {
  it('403 PERMISSION_DENIED without x-goog-api-key', async () => {
    const { status, error } = await send({ contents: [user('hi')] }, { key: '' });
    expect([status, error.status]).toEqual([403, 'PERMISSION_DENIED']);
    expect(error.message).toContain('unregistered callers');
  });

  it('403 PERMISSION_DENIED with reason API_KEY_INVALID for a key not accepted', async () => {
    const { status, error } = await send({ contents: [user('hi')] }, { key: 'AIza-wrong' });
    expect([status, error.status]).toEqual([403, 'PERMISSION_DENIED']);
    expect(error.details).toEqual([expect.objectContaining({ reason: 'API_KEY_INVALID' })]);
  });

  it('does not take a bearer token for the key', async () => {
    const response = await fetch(`${sim.geminiBaseUrl}/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testKey}` },
      body: JSON.stringify({ contents: [user('hi')] }),
    });
    expect(response.status).toBe(403);
  });
});
