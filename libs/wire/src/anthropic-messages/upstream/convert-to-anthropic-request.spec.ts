import { AnthropicStreamTransformer } from './anthropic-stream-transformer';
import { convertAnthropicResponse } from './convert-anthropic-response';
import { cassetteRequestJson, cassetteResponseText, readCassette, sseEventsOf } from '../testing/anthropic-fixtures';
import { conversionErrorFor, convertForTest as convert, userMessage as user } from '../testing/convert-for-test';

/** pydantic-ai records `is_error: false` on every tool result; OpenAI has no such flag to map. */
function withoutIsErrorFalse(body: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body), (key, value) => (key === 'is_error' && value === false ? undefined : value));
}

describe('convertToAnthropicRequest against the recorded Anthropic requests', () => {
  const interactions = readCassette('anthropic/cassette-parallel-tool-use-roundtrip.yaml');
  const first = cassetteRequestJson(interactions[0]!);
  const second = withoutIsErrorFalse(cassetteRequestJson(interactions[1]!));
  const system = first['system'] as string;
  const question = 'Alice, Bob, Charlie and Daisy are a family. Who is the youngest?';
  const tools = [
    {
      type: 'function',
      function: {
        name: 'retrieve_entity_info',
        description: 'Get the knowledge about the given entity.',
        parameters: { additionalProperties: false, properties: { name: { type: 'string' } }, required: ['name'], type: 'object' },
      },
    },
  ];
  const opening = { max_tokens: 4096, tool_choice: 'auto', tools, stream: false };

  it('writes the first request of the parallel tool-use round trip as recorded', () => {
    const { request } = convert({ ...opening, messages: [{ role: 'system', content: system }, user(question)] });
    expect(request).toEqual(first);
  });

  it('writes the follow-up (4 tool_use blocks, 4 tool results grouped in one user turn) as recorded', () => {
    // The assistant turn is what the relay itself returned for the recorded first answer.
    const answer = convertAnthropicResponse({ text: cassetteResponseText(interactions[0]!), publicModel: 'm', created: 1 });
    if (!answer.ok) throw answer.error;
    const assistant = (answer.body['choices'] as Array<{ message: Record<string, unknown> }>)[0]!.message;
    const toolCalls = assistant['tool_calls'] as Array<{ id: string }>;
    const results = [
      "alice is bob's wife",
      "bob is alice's husband",
      "charlie is alice's son",
      "daisy is bob's daughter and charlie's younger sister",
    ];
    const { request } = convert({
      ...opening,
      messages: [
        { role: 'system', content: system },
        user(question),
        assistant,
        ...toolCalls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: results[index] })),
      ],
    });
    expect(request).toEqual(second);
  });

  it('writes the streamed round trip of a no-argument tool (llm-anthropic) as recorded', () => {
    const streamed = readCassette('anthropic/cassette-stream-parallel-tool-use-roundtrip.yaml');
    const recordedFirst = cassetteRequestJson(streamed[0]!);
    const recordedSecond = cassetteRequestJson(streamed[1]!);
    const pelicanTools = [
      {
        type: 'function',
        function: { name: 'pelican_name_generator', description: '', parameters: { properties: {}, type: 'object' } },
      },
    ];
    const base = { max_tokens: 8192, temperature: 1.0, tools: pelicanTools, stream: true };
    const prompt = user([{ type: 'text', text: 'Two names for a pet pelican' }]);
    expect(convert({ ...base, messages: [prompt] }, 'claude-haiku-4-5-20251001').request).toEqual(recordedFirst);

    // The tool calls as the relay streamed them to the caller, reassembled by index.
    const transformer = new AnthropicStreamTransformer({ publicModel: 'm', callerWantsUsage: false, secrets: [], created: 1 });
    const calls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> = [];
    for (const event of sseEventsOf(cassetteResponseText(streamed[0]!))) {
      for (const step of transformer.transform(event)) {
        if (step.kind !== 'chunk') continue;
        for (const delta of JSON.parse(step.json).choices[0]?.delta.tool_calls ?? []) {
          calls[delta.index] ??= { id: delta.id, type: 'function', function: { name: delta.function.name, arguments: '' } };
          calls[delta.index]!.function.arguments += delta.function.arguments ?? '';
        }
      }
    }
    const { request } = convert(
      {
        ...base,
        messages: [
          prompt,
          // llm-anthropic sends a one-space text before its tool calls; the caller here does the same.
          { role: 'assistant', content: ' ', tool_calls: calls },
          { role: 'tool', tool_call_id: calls[0]!.id, content: 'Charles' },
          { role: 'tool', tool_call_id: calls[1]!.id, content: 'Sammy' },
        ],
      },
      'claude-haiku-4-5-20251001',
    );
    expect(request).toEqual(recordedSecond);
  });

  it('writes text plus an image URL as an Anthropic url image source, as recorded', () => {
    const [interaction] = readCassette('anthropic/cassette-image-url-source.yaml');
    const recorded = cassetteRequestJson(interaction!);
    const url = 'https://t3.ftcdn.net/jpg/00/85/79/92/360_F_85799278_0BBGV9OAdQDTLnKwAPBCcg1J7QtiieJY.jpg';
    const { request } = convert({
      max_tokens: 4096,
      stream: false,
      messages: [user([{ type: 'text', text: 'What is this vegetable?' }, { type: 'image_url', image_url: { url, detail: 'auto' } }])],
    });
    expect(request).toEqual(recorded);
  });
});


describe('convertToAnthropicRequest parameters', () => {
  const hello = { messages: [user('Hello')] };

  it('maps stop, temperature, top_p, user, service_tier and the stream flag', () => {
    const { request } = convert({
      ...hello,
      stop: 'END',
      temperature: 0.2,
      top_p: 0.9,
      user: 'user-1234',
      service_tier: 'default',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request).toEqual({
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: 64000,
      stop_sequences: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      metadata: { user_id: 'user-1234' },
      service_tier: 'standard_only',
      stream: true,
    });
    expect(convert({ ...hello, stop: ['a', 'b'] }).request.stop_sequences).toEqual(['a', 'b']);
    expect(convert({ ...hello, safety_identifier: 'hash-1', user: 'u' }).request.metadata).toEqual({ user_id: 'hash-1' });
  });

  it('sends top_k, which the Messages API has (issue 28 defect 4), and refuses one that is not a whole number', () => {
    expect(convert({ ...hello, top_k: 64 }).request).toMatchObject({ top_k: 64 });
    expect(convert({ ...hello, top_k: 0 }).request).toMatchObject({ top_k: 0 });
    expect(convert({ ...hello, top_k: null }).request).not.toHaveProperty('top_k');
    expect(conversionErrorFor({ ...hello, top_k: 2.5 }).param).toBe('top_k');
  });

  it('takes max_completion_tokens or max_tokens, and refuses the two when they disagree', () => {
    expect(convert({ ...hello, max_completion_tokens: 300 }).request.max_tokens).toBe(300);
    expect(convert({ ...hello, max_tokens: 200, max_completion_tokens: 200 }).request.max_tokens).toBe(200);
    expect(conversionErrorFor({ ...hello, max_tokens: 100, max_completion_tokens: 200 }).param).toBe('max_tokens');
  });

  it('ignores the OpenAI-only knobs that have no effect upstream', () => {
    const { request } = convert({
      ...hello,
      store: true,
      metadata: { team: 'a' },
      prompt_cache_key: 'k',
      stream_options: { include_usage: true },
      n: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      logprobs: false,
      logit_bias: {},
      reasoning_effort: 'none',
      service_tier: 'auto',
      response_format: { type: 'text' },
      parallel_tool_calls: false,
    });
    expect(request).toEqual({
      model: 'claude-haiku-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      max_tokens: 64000,
      stream: false,
    });
  });

  it.each([
    ['n', { n: 2 }],
    ['seed', { seed: 42 }],
    ['logprobs', { logprobs: true }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['logit_bias', { logit_bias: { '50256': -100 } }],
    ['presence_penalty', { presence_penalty: 0.5 }],
    ['frequency_penalty', { frequency_penalty: -1 }],
    ['service_tier', { service_tier: 'flex' }],
    ['temperature', { temperature: 1.5 }],
    ['functions', { functions: [{ name: 'f' }] }],
    ['function_call', { function_call: 'auto' }],
    ['modalities', { modalities: ['text', 'audio'] }],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }],
    ['prediction', { prediction: { type: 'content', content: 'x' } }],
    ['web_search_options', { web_search_options: {} }],
    ['verbosity', { verbosity: 'low' }],
  ])('refuses %s with a 400 naming it, never dropping or clamping it', (param, extra) => {
    const error = conversionErrorFor({ ...hello, ...extra });
    expect(error.status).toBe(400);
    expect(error.toBody().error).toMatchObject({ type: 'invalid_request_error', param });
    expect(error.message).toContain(param);
  });
});
