import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { convertAnthropicResponse } from './convert-anthropic-response';
import { cassetteResponseText, readCassette, readFixture } from '../testing/anthropic-fixtures';

const openAiSpec = createOpenAiSpecValidator();

/** Converts and checks the result against the official OpenAI schema. */
function convert(text: string) {
  const converted = convertAnthropicResponse({ text, publicModel: 'my-model', created: 1700000000 });
  if (!converted.ok) throw converted.error;
  expect(openAiSpec.errorsFor('CreateChatCompletionResponse', converted.body)).toEqual([]);
  return converted;
}

const parallel = readCassette('anthropic/cassette-parallel-tool-use-roundtrip.yaml');

describe('convertAnthropicResponse on recorded answers', () => {
  it('converts a text message (message-text.json)', () => {
    const converted = convert(readFixture('anthropic/message-text.json'));
    expect(converted.body).toEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      object: 'chat.completion',
      created: 1700000000,
      model: 'my-model',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
            refusal: null,
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 29, total_tokens: 41, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(converted.usage).toEqual({ promptTokens: 12, completionTokens: 29 });
  });

  it('converts text plus four parallel tool_use blocks, keeping the toolu_ ids in order', () => {
    const converted = convert(cassetteResponseText(parallel[0]!));
    const call = (id: string, name: string) => ({
      id,
      type: 'function',
      function: { name: 'retrieve_entity_info', arguments: JSON.stringify({ name }) },
    });
    expect(converted.body['choices']).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content:
            "I'll help you find out who is the youngest by retrieving information about each family member. I'll retrieve their entity information to compare their ages.",
          refusal: null,
          tool_calls: [
            call('toolu_0167cfEnoQaPviGdVXA95zcu', 'Alice'),
            call('toolu_01EEe2V5HD1Ac4rKiUR4HD2T', 'Bob'),
            call('toolu_01XFyAjstT3966qvRynZyVPo', 'Charlie'),
            call('toolu_013mnQZbgtK2oe3Mo3XKJsx3', 'Daisy'),
          ],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
    expect(converted.body['usage']).toEqual({
      prompt_tokens: 423,
      completion_tokens: 202,
      total_tokens: 625,
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it('converts the final answer of the round trip and the image answer', () => {
    const final = convert(cassetteResponseText(parallel[1]!));
    const [choice] = final.body['choices'] as Array<{ message: { content: string }; finish_reason: string }>;
    expect(choice!.message.content).toMatch(/^Based on the retrieved information/);
    expect(choice!.message.content).toContain('Therefore, Daisy is the youngest in the family.');
    expect(choice!.finish_reason).toBe('stop');
    expect(final.usage).toEqual({ promptTokens: 771, completionTokens: 77 });

    const [image] = readCassette('anthropic/cassette-image-url-source.yaml');
    const potato = convert(cassetteResponseText(image!));
    expect((potato.body['choices'] as Array<{ message: { content: string } }>)[0]!.message.content).toMatch(/^This is a potato\./);
    expect(potato.usage).toEqual({ promptTokens: 296, completionTokens: 91 });
  });

  it('reports the recorded cache read apart, within the whole prompt (cassette-count-tokens-cache-control.yaml)', () => {
    const [, messages] = readCassette('anthropic-inbound/cassette-count-tokens-cache-control.yaml');
    const converted = convert(cassetteResponseText(messages!));
    // Recorded: input_tokens 3, cache_read_input_tokens 1111, cache_creation_input_tokens 0.
    expect(converted.usage).toEqual({ promptTokens: 1114, completionTokens: 414, cacheReadTokens: 1111 });
    expect(converted.body['usage']).toEqual({
      prompt_tokens: 1114,
      completion_tokens: 414,
      total_tokens: 1528,
      prompt_tokens_details: { cached_tokens: 1111 },
    });
  });
});

describe('convertAnthropicResponse details', () => {
  const base = JSON.parse(readFixture('anthropic/message-text.json'));

  it('counts cache reads and writes into prompt_tokens, cache reads as cached_tokens', () => {
    const usage = { ...base.usage, input_tokens: 12, cache_creation_input_tokens: 100, cache_read_input_tokens: 2000 };
    const converted = convert(JSON.stringify({ ...base, usage }));
    expect(converted.body['usage']).toEqual({
      prompt_tokens: 2112,
      completion_tokens: 29,
      total_tokens: 2141,
      prompt_tokens_details: { cached_tokens: 2000, cache_write_tokens: 100 },
    });
    expect(converted.usage).toEqual({ promptTokens: 2112, completionTokens: 29, cacheReadTokens: 2000, cacheWriteTokens: 100 });
  });

  it.each([
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'length'],
  ])('maps stop_reason %s to %s', (stopReason, finishReason) => {
    const converted = convert(JSON.stringify({ ...base, stop_reason: stopReason }));
    expect((converted.body['choices'] as Array<{ finish_reason: string }>)[0]!.finish_reason).toBe(finishReason);
  });

  it('gives the JSON-response tool input back as the message text, finishing with stop', () => {
    const content = [{ type: 'tool_use', id: 'toolu_01', name: 'json_response__city_answer', input: { city: 'Paris' } }];
    const converted = convert(JSON.stringify({ ...base, content, stop_reason: 'tool_use' }));
    expect((converted.body['choices'] as unknown[])[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: '{"city":"Paris"}', refusal: null },
      logprobs: null,
      finish_reason: 'stop',
    });
  });

  it('leaves thinking blocks out of the message', () => {
    const content = [{ type: 'thinking', thinking: 'Hmm.', signature: 'sig' }, ...base.content];
    const converted = convert(JSON.stringify({ ...base, content }));
    expect((converted.body['choices'] as Array<{ message: { content: string } }>)[0]!.message.content).toBe(base.content[0].text);
  });

  it.each([
    ['not JSON', '<html>'],
    ['not a message', JSON.stringify({ hello: 'world' })],
    ['a tool_use block without input', JSON.stringify({ ...base, content: [{ type: 'tool_use', id: 'toolu_1', name: 'f' }] })],
  ])('reports %s as a bad_response upstream error', (_name, text) => {
    const converted = convertAnthropicResponse({ text, publicModel: 'm', created: 1 });
    expect(converted.ok).toBe(false);
    if (!converted.ok) expect(converted.error.toBody().error).toMatchObject({ type: 'upstream_error', code: 'bad_response' });
  });
});
