/**
 * One spec per Anthropic trap of issue 5 ("Known traps"), each fed recorded traffic from
 * test-fixtures/. The exact outputs of every fixture are pinned in the converter and
 * transformer specs; these name the bug each guard prevents.
 */
import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { convertAnthropicResponse } from './convert-anthropic-response';
import {
  cassetteRequestJson,
  cassetteResponseText,
  readCassette,
  readFixture,
  readStreamFixture,
  sseEventsOf,
} from '../testing/anthropic-fixtures';
import { convertForTest } from '../testing/convert-for-test';
import { deltasOf, reassembleToolCalls, runAnthropicStream } from '../testing/run-anthropic-stream';

const openAiSpec = createOpenAiSpecValidator();
const streamedParallelCalls = () => {
  const [first] = readCassette('anthropic/cassette-stream-parallel-tool-use-roundtrip.yaml');
  return runAnthropicStream(sseEventsOf(cassetteResponseText(first!)), true);
};

describe('Anthropic known traps (issue 5)', () => {
  it('parallel tool calls are streamed with distinct indexes, not all with index 0', () => {
    const calls = reassembleToolCalls(streamedParallelCalls().chunks);
    expect(calls.map(({ index, id }) => [index, id])).toEqual([
      [0, 'toolu_01LtHJmixrs9NcWQkK8hu8hj'],
      [1, 'toolu_01N8a4jWyf116qKTMqKKmjyt'],
    ]);
  });

  it('the tool name (and id) come in the first delta of a call only, never empty, never repeated', () => {
    for (const run of [streamedParallelCalls(), runAnthropicStream(readStreamFixture('anthropic/stream-text-then-tool-use.sse'))]) {
      for (const call of reassembleToolCalls(run.chunks)) {
        expect(call).toMatchObject({ idDeltas: 1, nameDeltas: 1 });
        expect(call.name).toMatch(/^[a-z_]+$/i);
        const first = run.chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []).find((delta) => delta.index === call.index);
        expect(first).toEqual({ index: call.index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } });
      }
      for (const chunk of run.chunks) expect(openAiSpec.errorsFor('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    }
  });

  it('a no-argument tool streamed as "" ends as arguments "{}"', () => {
    const noArgs = runAnthropicStream(readStreamFixture('anthropic/message-tool-no-args.stream.jsonl'));
    expect(reassembleToolCalls(noArgs.chunks).map((call) => call.arguments)).toEqual(['{}']);
    expect(reassembleToolCalls(streamedParallelCalls().chunks).map((call) => call.arguments)).toEqual(['{}', '{}']);
  });

  it('the Anthropic content-block index is not reused as the OpenAI tool index', () => {
    // In both recordings the tool_use block is content block 1, after a text block.
    for (const fixture of ['anthropic/stream-text-then-tool-use.sse', 'anthropic/message-tool-no-args.stream.jsonl']) {
      const events = readStreamFixture(fixture).map((event) => JSON.parse(event.data));
      expect(events.find((event) => event.content_block?.type === 'tool_use')?.index).toBe(1);
      expect(reassembleToolCalls(runAnthropicStream(readStreamFixture(fixture)).chunks).map((call) => call.index)).toEqual([0]);
    }
  });

  it('content is null, not "", on an answer with only tool calls, and no empty text block is sent back', () => {
    const recorded = JSON.parse(cassetteResponseText(readCassette('anthropic/cassette-parallel-tool-use-roundtrip.yaml')[0]!));
    const toolsOnly = { ...recorded, content: recorded.content.filter((block: { type: string }) => block.type === 'tool_use') };
    const converted = convertAnthropicResponse({ text: JSON.stringify(toolsOnly), publicModel: 'm', created: 1 });
    if (!converted.ok) throw converted.error;
    expect(openAiSpec.errorsFor('CreateChatCompletionResponse', converted.body)).toEqual([]);
    const message = (converted.body['choices'] as Array<{ message: { content: unknown; tool_calls: unknown[] } }>)[0]!.message;
    expect(message.content).toBeNull();
    expect(message.tool_calls).toHaveLength(4);

    for (const content of [null, '', undefined]) {
      const call = { id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } };
      const { request } = convertForTest({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content, tool_calls: [call] },
          { role: 'tool', tool_call_id: 'toolu_1', content: 'ok' },
        ],
      });
      expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] });
    }
  });

  it('empty text blocks are left out and same-role turns merged, so roles alternate (OpenRouter follow-up)', () => {
    // The recorded follow-up sends an assistant "" and then a second assistant message with the call.
    const followUp = cassetteRequestJson(readCassette('openai-compatible/openrouter-stream-tool-call-variant-a.yaml')[1]!);
    const messages = [...(followUp['messages'] as unknown[]), { role: 'user', content: '' }, { role: 'user', content: 'Thanks' }];
    const { request } = convertForTest({ ...followUp, messages });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'What is the current llm version?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: '0', name: 'llm_version', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: '0', content: '0.fixed-version' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it("tool-call ids breaking ^[a-zA-Z0-9_-]+$ are rewritten the same way in tool_use and tool_result", () => {
    const cassette = readCassette('openai-compatible/openrouter-stream-tool-call-variant-c.yaml');
    const recordedId = sseEventsOf(cassetteResponseText(cassette[0]!))
      .flatMap((event) => (event.data === '[DONE]' ? [] : (JSON.parse(event.data).choices ?? [])))
      .flatMap((choice: { delta: { tool_calls?: Array<{ id?: string }> } }) => choice.delta.tool_calls ?? [])
      .find((call: { id?: string }) => call.id)?.id;
    expect(recordedId).toBe('llm_version:0');
    const followUp = cassetteRequestJson(cassette[1]!);
    // The caller sends back the id it was given, as any OpenAI client does.
    const messages = JSON.parse(JSON.stringify(followUp['messages']).replaceAll('"0"', JSON.stringify(recordedId)));
    const { request } = convertForTest({ ...followUp, messages });
    const toolUse = request.messages[1]!.content[0] as { id: string };
    const toolResult = request.messages[2]!.content[0] as { tool_use_id: string };
    expect(toolUse.id).toMatch(/^llm_version_0_[0-9a-f]{12}$/);
    expect(toolResult.tool_use_id).toBe(toolUse.id);
    expect(convertForTest({ ...followUp, messages }).request).toEqual(request);
  });

  it('the final usage chunk comes once, last, with choices [] — and only when the caller asked', () => {
    const events = readStreamFixture('anthropic/message-tool-no-args.stream.jsonl');
    const withUsage = runAnthropicStream(events, true).chunks;
    expect(withUsage.filter((chunk) => chunk.usage)).toEqual([withUsage.at(-1)]);
    expect(withUsage.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 565, completion_tokens: 48, total_tokens: 613, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(openAiSpec.errorsFor('CreateChatCompletionStreamResponse', withUsage.at(-1))).toEqual([]);
    const withoutUsage = runAnthropicStream(events, false);
    expect(withoutUsage.chunks.some((chunk) => chunk.usage !== undefined || chunk.choices.length === 0)).toBe(false);
    expect(withoutUsage.transformer.usage).toEqual({ promptTokens: 565, completionTokens: 48 });
  });

  it('max_tokens reached in the middle of tool input: finish_reason length, the partial arguments as they came', () => {
    const events = readStreamFixture('anthropic/stream-max-tokens-mid-tool-input.sse');
    const run = runAnthropicStream(events, true);
    const fragments = events
      .map((event) => JSON.parse(event.data))
      .filter((event) => event.delta?.type === 'input_json_delta')
      .map((event) => event.delta.partial_json as string);
    const [call] = reassembleToolCalls(run.chunks);
    expect(call).toMatchObject({ index: 0, id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY', name: 'make_file', arguments: fragments.join('') });
    expect(() => JSON.parse(call!.arguments)).toThrow();
    expect(deltasOf(run.chunks).at(-1)).toEqual([{}, 'length']);
    expect(run.transformer).toMatchObject({ complete: true, usage: { promptTokens: 450, completionTokens: 124 } });
    for (const chunk of run.chunks) expect(openAiSpec.errorsFor('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    expect(readFixture('anthropic/stream-max-tokens-mid-tool-input.sse')).not.toContain('content_block_stop","index":1');
  });
});
