import { lost } from '../../testing/lost';
import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { cassetteRequestJson, readCassette, readFixture } from '../testing/anthropic-fixtures';
import { bridgeRequest } from '../testing/bridge-request';

const openAiSpec = createOpenAiSpecValidator();

describe('convertMessagesToChat: sampling and bookkeeping', () => {
  it('maps every parameter with a counterpart under its Chat Completions name', () => {
    const { request, warnings, nativeOnly } = bridgeRequest({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      stop_sequences: ['END', '\n\nHuman:'],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'user-7' },
      service_tier: 'standard_only',
    });
    expect(request).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 2048,
      stop: ['END', '\n\nHuman:'],
      temperature: 0.3,
      top_p: 0.9,
      top_k: 40,
      user: 'user-7',
      service_tier: 'default',
    });
    expect([warnings, nativeOnly]).toEqual([[], undefined]);
  });

  it('a stream always asks for the usage chunk (message_delta needs it); no stream asks for neither', () => {
    expect(bridgeRequest({ stream: true }).request).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const unstreamed = bridgeRequest({ stream: false }).request;
    expect(unstreamed).not.toHaveProperty('stream');
    expect(unstreamed).not.toHaveProperty('stream_options');
  });

  it('more than 4 stop sequences is Anthropic only; the first 4 are kept so the request still reads', () => {
    const { request, nativeOnly } = bridgeRequest({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] });
    expect(nativeOnly?.toBody().error).toMatchObject({ param: 'stop_sequences', type: 'invalid_request_error' });
    expect(request.stop).toEqual(['a', 'b', 'c', 'd']);
    expect(bridgeRequest({ stop_sequences: [] }).request).not.toHaveProperty('stop');
  });

  it('service_tier auto is the default on both sides; other tiers are warned about and not sent', () => {
    expect(bridgeRequest({ service_tier: 'auto' })).toMatchObject({ warnings: [] });
    expect(bridgeRequest({ service_tier: 'auto' }).request).not.toHaveProperty('service_tier');
    const { request, warnings } = bridgeRequest({ service_tier: 'priority' });
    expect(request).not.toHaveProperty('service_tier');
    expect(warnings).toEqual([lost('service_tier', 'dropped', { from: 'priority' })]);
  });

  it('metadata other than user_id, and an empty user_id, send nothing', () => {
    const { request, warnings } = bridgeRequest({ metadata: { user_id: '', tenant: 't' } });
    expect(request).not.toHaveProperty('user');
    expect(warnings).toEqual([lost('metadata.tenant')]);
  });

  it('a top-level cache_control is dropped with a warning', () => {
    const { request, warnings } = bridgeRequest({ cache_control: { type: 'ephemeral', ttl: '5m' } });
    expect(request).not.toHaveProperty('cache_control');
    expect(warnings).toEqual([lost('cache_control')]);
  });
});

describe('convertMessagesToChat: fields of another dialect', () => {
  it('unknown top-level fields are not sent upstream, and each is named in a warning', () => {
    const { request, warnings, nativeOnly } = bridgeRequest({
      context_management: { edits: [{ type: 'clear_thinking_20251015' }] },
      inference_geo: 'us',
    });
    expect(request).not.toHaveProperty('context_management');
    expect(request).not.toHaveProperty('inference_geo');
    expect(warnings).toEqual([lost('context_management'), lost('inference_geo')]);
    expect(nativeOnly).toBeUndefined();
  });

  it.each([
    ['container', { container: 'container_1' }],
    ['mcp_servers', { mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }] }],
  ])('%s is Anthropic only', (param, fields) => {
    const { request, nativeOnly } = bridgeRequest(fields);
    expect(nativeOnly?.param).toBe(param);
    expect(request).not.toHaveProperty(param);
  });

  it('output_config.format json_schema → a strict response_format json_schema', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
    const { request, nativeOnly } = bridgeRequest({ output_config: { format: { type: 'json_schema', schema } } });
    expect(request.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema, strict: true } });
    expect(nativeOnly).toBeUndefined();
  });

  it('an output format the hub cannot express is Anthropic only; other output_config fields are warned about', () => {
    const { nativeOnly, warnings } = bridgeRequest({ output_config: { format: { type: 'regex', pattern: 'a+' }, verbosity: 'low' } });
    expect(nativeOnly?.param).toBe('output_config.format');
    expect(warnings).toEqual([lost('output_config.verbosity')]);
  });
});

describe('convertMessagesToChat on recorded requests', () => {
  it("Claude Code's request body becomes a Chat Completions request OpenAI's own schema accepts", () => {
    const body = JSON.parse(readFixture('anthropic-inbound/claude-code-request.json')) as Record<string, unknown>;
    const { request, warnings, nativeOnly } = bridgeRequest(body);
    expect(nativeOnly).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateChatCompletionRequest', request)).toEqual([]);

    const system = body['system'] as Array<{ text: string }>;
    expect(request.messages[0]).toEqual({ role: 'system', content: system.map((block) => block.text).join('\n\n') });
    const tools = body['tools'] as Array<{ name: string; input_schema: unknown }>;
    expect(request.tools?.map((tool) => tool.type === 'function' && [tool.function.name, tool.function.parameters])).toEqual(
      tools.map((tool) => [tool.name, tool.input_schema]),
    );
    expect(request).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_completion_tokens: 32000,
      reasoning_effort: 'high',
      stream: true,
      stream_options: { include_usage: true },
      user: (body['metadata'] as { user_id: string }).user_id,
    });
    expect(warnings).toEqual([lost('context_management'), lost('cache_control')]);
  });

  it.each([
    ['cassette-image-base64-stream.yaml', 0],
    ['cassette-document-pdf-base64.yaml', 0],
    ['cassette-thinking-tool-result-roundtrip.yaml', 1],
    ['cassette-stream-thinking-display-tool-chain.yaml', 1],
  ])('%s (request %d) bridges without refusal into a request OpenAI accepts', (name, position) => {
    const body = cassetteRequestJson(readCassette(`anthropic-inbound/${name}`)[position]!);
    const { request, nativeOnly } = bridgeRequest(body);
    expect(nativeOnly).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateChatCompletionRequest', request)).toEqual([]);
  });

  it('cassette-thinking-tool-result-roundtrip.yaml: thinking dropped, the call and its result kept as a pair', () => {
    const body = cassetteRequestJson(readCassette('anthropic-inbound/cassette-thinking-tool-result-roundtrip.yaml')[1]!);
    const { request, warnings } = bridgeRequest(body);
    expect(request.messages).toEqual([
      { role: 'user', content: 'What is the largest city in the user country?' },
      {
        role: 'assistant',
        content: "I'll help you find the largest city in your country. First, let me determine which country you're from.",
        tool_calls: [{ id: 'toolu_01YGzqpRE16Vricda3Aqcejo', type: 'function', function: { name: 'get_user_country', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_01YGzqpRE16Vricda3Aqcejo', content: 'Mexico' },
    ]);
    expect(request).toMatchObject({ reasoning_effort: 'low', tool_choice: 'auto', max_completion_tokens: 4096 });
    expect(warnings).toEqual([lost('messages[*].content[*].thinking')]);
  });
});
