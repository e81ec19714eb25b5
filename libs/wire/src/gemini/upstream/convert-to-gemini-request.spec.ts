import { ChatCompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { RelayError } from '../../errors/relay-error';
import { convertToGeminiRequest } from './convert-to-gemini-request';
import { readGeminiCassette } from '../testing/gemini-fixtures';
import { openAiToolsFor, withoutPydanticSettings } from '../testing/recorded-requests';

const request = (fields: Record<string, unknown>): ChatCompletionRequest =>
  ChatCompletionRequestSchema.parse({ model: 'gemini-x', messages: [{ role: 'user', content: 'Hi' }], ...fields });
const convert = (fields: Record<string, unknown>) => convertToGeminiRequest(request(fields));

function rejectionOf(fields: Record<string, unknown>) {
  try {
    convert(fields);
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return { status: error.status, type: error.type, param: error.param, message: error.message };
  }
  throw new Error('expected a 400');
}

describe('convertToGeminiRequest maps the generation parameters', () => {
  it('sends every expressible parameter under its Gemini name', () => {
    expect(
      convert({
        max_completion_tokens: 300,
        stop: ['END', '\n\n'],
        temperature: 0.2,
        top_p: 0.9,
        n: 2,
        seed: 7,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
      }).generationConfig,
    ).toEqual({
      maxOutputTokens: 300,
      stopSequences: ['END', '\n\n'],
      temperature: 0.2,
      topP: 0.9,
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
    });
  });

  it('takes max_tokens too, a single stop string, and leaves generationConfig out when nothing is set', () => {
    expect(convert({ max_tokens: 12, stop: 'STOP' }).generationConfig).toEqual({ maxOutputTokens: 12, stopSequences: ['STOP'] });
    expect(convert({ max_tokens: 12, max_completion_tokens: 12 }).generationConfig).toEqual({ maxOutputTokens: 12 });
    expect(convert({ temperature: null, stop: null })).not.toHaveProperty('generationConfig');
  });

  it('maps response_format json_object and json_schema (sanitised), and text to nothing', () => {
    expect(convert({ response_format: { type: 'json_object' } }).generationConfig).toEqual({ responseMimeType: 'application/json' });
    expect(convert({ response_format: { type: 'text' } })).not.toHaveProperty('generationConfig');
    expect(
      convert({
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'answer',
            strict: true,
            schema: {
              type: 'object',
              properties: { city: { type: 'string' }, when: { type: ['string', 'null'], format: 'date-time' } },
              required: ['city', 'when'],
              additionalProperties: false,
            },
          },
        },
      }).generationConfig,
    ).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { city: { type: 'STRING' }, when: { type: 'STRING', format: 'date-time', nullable: true } },
        required: ['city', 'when'],
      },
    });
  });

  it('accepts OpenAI bookkeeping without sending it, and values that ask for nothing', () => {
    const body = convert({
      user: 'u-1',
      store: false,
      metadata: { a: 'b' },
      stream: true,
      stream_options: { include_usage: true },
      safety_identifier: 'x',
      prompt_cache_key: 'k',
      logit_bias: {},
      logprobs: false,
      top_logprobs: 0,
      service_tier: 'auto',
      modalities: ['text'],
      reasoning_effort: null,
    });
    expect(body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });
});

describe('convertToGeminiRequest maps top_k and reasoning_effort', () => {
  it('sends top_k (a vLLM-style extension the contract passes through) as topK', () => {
    expect(convert({ top_k: 40 }).generationConfig).toEqual({ topK: 40 });
    expect(convert({ top_k: 0 }).generationConfig).toEqual({ topK: 0 });
  });

  it.each([
    ['none', 0],
    ['minimal', 0],
    ['low', 1024],
    ['medium', 8192],
    ['high', 24576],
  ])('reasoning_effort %s → thinkingBudget %d, thoughts asked for when it thinks', (effort, thinkingBudget) => {
    expect(convert({ reasoning_effort: effort }).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget, includeThoughts: thinkingBudget > 0 },
    });
  });

  it("reasoning_effort none asks for the budget pydantic-ai sent in cassette-finish-max-tokens.yaml (Gemini's snake_case alias)", () => {
    const [interaction] = readGeminiCassette('cassette-finish-max-tokens.yaml');
    const recorded = (interaction?.requestBody['generationConfig'] as { thinkingConfig: Record<string, unknown> }).thinkingConfig;
    const sent = convert({ reasoning_effort: 'none' }).generationConfig?.thinkingConfig;
    expect({ thinking_budget: sent?.thinkingBudget }).toEqual(recorded);
  });
});

describe('convertToGeminiRequest rejects what Gemini cannot express, naming the parameter', () => {
  it.each([
    ['logit_bias', { logit_bias: { '50256': -100 } }, 'logit_bias'],
    ['logprobs', { logprobs: true }, 'logprobs'],
    ['top_logprobs', { top_logprobs: 3 }, 'top_logprobs'],
    ['a reasoning effort with no budget', { reasoning_effort: 'xhigh' }, 'reasoning_effort'],
    ['a top_k that is not a count', { top_k: 2.5 }, 'top_k'],
    ['a service tier', { service_tier: 'flex' }, 'service_tier'],
    ['audio output', { modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'mp3' } }, 'modalities'],
    ['a predicted output', { prediction: { type: 'content', content: 'x' } }, 'prediction'],
    ['web search', { web_search_options: {} }, 'web_search_options'],
    ['an unknown vendor field', { vendor_extension: 1 }, 'vendor_extension'],
    ['legacy functions', { functions: [{ name: 'f' }] }, 'functions'],
    ['disagreeing token limits', { max_tokens: 10, max_completion_tokens: 20 }, 'max_tokens'],
  ])('%s', (_name, fields, param) => {
    expect(rejectionOf(fields)).toMatchObject({ status: 400, type: 'invalid_request_error', param });
  });
});

describe('convertToGeminiRequest matches the request bodies Gemini accepted (recorded cassettes)', () => {
  it('cassette-finish-max-tokens.yaml: system instruction, user text, maxOutputTokens', () => {
    const [interaction] = readGeminiCassette('cassette-finish-max-tokens.yaml');
    const body = convert({
      messages: [
        { role: 'system', content: 'You are a helpful chatbot.' },
        { role: 'user', content: 'What is the capital of France?' },
      ],
      max_tokens: 5,
    });
    expect(body).toEqual(withoutPydanticSettings(interaction?.requestBody ?? {}));
  });

  it('cassette-stream-tool-roundtrip.yaml: tools, then two tool round trips, turn by turn', () => {
    const interactions = readGeminiCassette('cassette-stream-tool-roundtrip.yaml');
    const recorded = interactions.map((interaction) => interaction.requestBody);
    const base = {
      stream: true,
      tools: openAiToolsFor(recorded[0] ?? {}),
      messages: [
        { role: 'system', content: 'You are a helpful chatbot.' },
        { role: 'user', content: 'What is the temperature of the capital of France?' },
      ],
    };
    const turn = (id: string, name: string, args: string, result: string) => [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] },
      { role: 'tool', tool_call_id: id, content: JSON.stringify({ return_value: result }) },
    ];
    const first = turn('pyd_ai_0e1a07b3c2b64d2ab3ad2efbe18e1b97', 'get_capital', '{"country":"France"}', 'Paris');
    const second = turn('pyd_ai_98b25d994c5648df82f683188629229d', 'get_temperature', '{"city":"Paris"}', '30°C');

    expect(convert(base)).toEqual(withoutPydanticSettings(recorded[0] ?? {}));
    expect(convert({ ...base, messages: [...base.messages, ...first] })).toEqual(withoutPydanticSettings(recorded[1] ?? {}));
    expect(convert({ ...base, messages: [...base.messages, ...first, ...second] })).toEqual(
      withoutPydanticSettings(recorded[2] ?? {}),
    );
  });

  it('cassette-tool-config-any.yaml: allowed_tools required → ANY + allowedFunctionNames, no-argument tool', () => {
    const [first, second] = readGeminiCassette('cassette-tool-config-any.yaml').map((interaction) => interaction.requestBody);
    const tools = openAiToolsFor(first ?? {});
    const fields = {
      messages: [{ role: 'user', content: 'run bar for me please' }],
      tools,
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: tools.map(({ function: { name } }) => ({ type: 'function', function: { name } })) },
      },
    };
    // The one intended difference: a function without arguments is declared without
    // `parameters`, since Gemini has rejected `properties: {}` on OBJECT (it accepted it here).
    const withoutEmptyParameters = (recorded: Record<string, unknown>) => {
      const expected = structuredClone(withoutPydanticSettings(recorded)) as any;
      delete expected.tools[0].functionDeclarations[0].parameters;
      return expected;
    };
    expect(convert(fields)).toEqual(withoutEmptyParameters(first ?? {}));

    const id = 'pyd_ai_e3268c26ec6340bf82ce92c8342ddad2';
    const roundTrip = [
      { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bar', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: id, content: '{"return_value":"hello"}' },
    ];
    expect(convert({ ...fields, messages: [...fields.messages, ...roundTrip] })).toEqual(withoutEmptyParameters(second ?? {}));
  });

  it('cassette-parallel-function-calls.yaml: a full JSON Schema (additionalProperties …) sanitised into parameters', () => {
    const [first] = readGeminiCassette('cassette-parallel-function-calls.yaml');
    const recorded = first?.requestBody ?? {};
    const tools = openAiToolsFor(recorded);
    const body = convert({
      messages: [
        { role: 'system', content: 'Tell three jokes. Generate topics with the generate_topic tool.' },
        { role: 'user', content: '' },
      ],
      tools,
      tool_choice: {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: tools.map(({ function: { name } }) => ({ type: 'function', function: { name } })) },
      },
    });
    const { tools: _recordedTools, ...rest } = withoutPydanticSettings(recorded);
    expect(body).toEqual({
      ...rest,
      tools: [
        {
          functionDeclarations: [
            { name: 'generate_topic', description: '' },
            {
              name: 'final_result',
              description: 'The final response which ends this conversation',
              parameters: {
                type: 'OBJECT',
                properties: { response: { type: 'ARRAY', items: { type: 'STRING' } } },
                required: ['response'],
              },
            },
          ],
        },
      ],
    });
  });
});
