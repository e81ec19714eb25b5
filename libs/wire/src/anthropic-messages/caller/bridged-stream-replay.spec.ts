/**
 * Recorded OpenAI, OpenAI-compatible and Gemini streams, each through its upstream
 * StreamTransformer and then ChatToMessagesStream (chainTransformers, as the relay bridges a
 * Messages request): the result must be a valid Messages stream that says what the hub said —
 * the same text, the same tool calls and inputs, the mapped stop reason, the usage — and the
 * official SDK's accumulator must rebuild the same Message from it.
 */
import { GeminiStreamTransformer } from '../../gemini/upstream/gemini-stream-transformer';
import { readGeminiCassette, readGeminiStreamLines } from '../../gemini/testing/gemini-fixtures';
import { chainTransformers } from '../../hub/chain-transformers';
import type { SseEvent, StreamTransformer, StreamTransformerOptions } from '../../hub/upstream-adapter';
import { OpenAiStreamTransformer } from '../../openai-chat/upstream/openai-stream-transformer';
import { ChatToMessagesStream } from './chat-to-messages-stream';
import { cassetteResponseText, readCassette, readStreamFixture, sseEventsOf } from '../testing/anthropic-fixtures';
import { eventsOf, expectValidMessagesStream, sdkFinalMessage } from '../testing/messages-stream-checks';

type Upstream = 'openai' | 'gemini';

/** The bridge asks every upstream for its usage chunk (message_delta needs it). */
const OPTIONS: StreamTransformerOptions = { publicModel: 'claude-bridged', callerWantsUsage: true, secrets: [] };
const upstreamTransformer = (upstream: Upstream): StreamTransformer =>
  upstream === 'openai' ? new OpenAiStreamTransformer(OPTIONS) : new GeminiStreamTransformer({ ...OPTIONS, created: 1 });

interface HubAnswer {
  text: string;
  calls: Array<{ id: string; name: string; arguments: string }>;
  usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } } | undefined;
}

/** What the hub chunks alone say (the upstream transformer on its own), read as an OpenAI SDK would. */
function hubAnswerOf(upstream: Upstream, events: readonly SseEvent[]): HubAnswer {
  const transformer = upstreamTransformer(upstream);
  const steps = [...events.flatMap((event) => transformer.transform(event)), ...transformer.finish()];
  const answer: HubAnswer = { text: '', calls: [], usage: undefined };
  for (const step of steps) {
    if (step.kind !== 'chunk') throw step.error;
    const chunk = JSON.parse(step.json);
    if (chunk.usage) answer.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue;
      answer.text += (choice.delta.content ?? '') + (choice.delta.refusal ?? '');
      for (const delta of choice.delta.tool_calls ?? []) {
        const call = (answer.calls[delta.index] ??= { id: '', name: '', arguments: '' });
        call.id ||= delta.id ?? '';
        call.name ||= delta.function?.name ?? '';
        call.arguments += delta.function?.arguments ?? '';
      }
    }
  }
  return answer;
}

function bridge(upstream: Upstream, events: readonly SseEvent[]) {
  const chain = chainTransformers(upstreamTransformer(upstream), new ChatToMessagesStream({ publicModel: 'claude-bridged' }));
  const steps = [...events.flatMap((event) => chain.transform(event)), ...chain.finish()];
  expect(steps.filter((step) => step.kind === 'error')).toEqual([]);
  return { chain, events: eventsOf(steps) };
}

const cassetteEvents = (path: string, position: number): SseEvent[] =>
  sseEventsOf(cassetteResponseText(readCassette(path)[position]!));
const geminiCassetteEvents = (name: string, position: number): SseEvent[] =>
  (readGeminiCassette(name)[position]?.responseEvents ?? []).map((data) => ({ data }));

const RECORDINGS: Array<[string, Upstream, () => SseEvent[], string]> = [
  ['openai/chat-stream-text.sse', 'openai', () => readStreamFixture('openai/chat-stream-text.sse'), 'end_turn'],
  ['openai/chat-stream-tool-call.sse', 'openai', () => readStreamFixture('openai/chat-stream-tool-call.sse'), 'tool_use'],
  ['openai/chat-stream-parallel-tool-calls.sse', 'openai', () => readStreamFixture('openai/chat-stream-parallel-tool-calls.sse'), 'tool_use'],
  ['openai/chat-stream-finish-length.sse', 'openai', () => readStreamFixture('openai/chat-stream-finish-length.sse'), 'max_tokens'],
  ['openai/chat-stream-refusal.sse', 'openai', () => readStreamFixture('openai/chat-stream-refusal.sse'), 'end_turn'],
  ['openai/chat-stream-logprobs.sse', 'openai', () => readStreamFixture('openai/chat-stream-logprobs.sse'), 'end_turn'],
  ['openai/chat-stream-n3-choices.sse (choice 0)', 'openai', () => readStreamFixture('openai/chat-stream-n3-choices.sse'), 'end_turn'],
  ['openai/chat-completion-text.stream.jsonl', 'openai', () => readStreamFixture('openai/chat-completion-text.stream.jsonl'), 'end_turn'],
  ['openai/cassette-chat-stream-tool-roundtrip.yaml [0]', 'openai', () => cassetteEvents('openai/cassette-chat-stream-tool-roundtrip.yaml', 0), 'tool_use'],
  ['openai/cassette-chat-stream-tool-roundtrip.yaml [1]', 'openai', () => cassetteEvents('openai/cassette-chat-stream-tool-roundtrip.yaml', 1), 'end_turn'],
  // Novita via OpenRouter: id and name repeated on every fragment, and no finish reason at all.
  ['openai-compatible/openrouter-stream-tool-call-variant-a.yaml [0]', 'openai', () => cassetteEvents('openai-compatible/openrouter-stream-tool-call-variant-a.yaml', 0), 'tool_use'],
  ['openai-compatible/openrouter-stream-tool-call-variant-a.yaml [1]', 'openai', () => cassetteEvents('openai-compatible/openrouter-stream-tool-call-variant-a.yaml', 1), 'end_turn'],
  ['openai-compatible/openrouter-stream-tool-call-variant-c.yaml [0]', 'openai', () => cassetteEvents('openai-compatible/openrouter-stream-tool-call-variant-c.yaml', 0), 'tool_use'],
  ['openai-compatible/openrouter-stream-tool-call-variant-c.yaml [1]', 'openai', () => cassetteEvents('openai-compatible/openrouter-stream-tool-call-variant-c.yaml', 1), 'end_turn'],
  ['gemini/generate-content-text.stream.jsonl', 'gemini', () => readGeminiStreamLines('generate-content-text.stream.jsonl').map((data) => ({ data })), 'end_turn'],
  ['gemini/generate-content-tool-call.stream.jsonl', 'gemini', () => readGeminiStreamLines('generate-content-tool-call.stream.jsonl').map((data) => ({ data })), 'tool_use'],
  ['gemini/cassette-stream-thought-signature.yaml [0]', 'gemini', () => geminiCassetteEvents('cassette-stream-thought-signature.yaml', 0), 'tool_use'],
  ['gemini/cassette-stream-thought-signature.yaml [1]', 'gemini', () => geminiCassetteEvents('cassette-stream-thought-signature.yaml', 1), 'end_turn'],
  ['gemini/cassette-stream-tool-roundtrip.yaml [0]', 'gemini', () => geminiCassetteEvents('cassette-stream-tool-roundtrip.yaml', 0), 'tool_use'],
  ['gemini/cassette-stream-tool-roundtrip.yaml [1]', 'gemini', () => geminiCassetteEvents('cassette-stream-tool-roundtrip.yaml', 1), 'tool_use'],
  ['gemini/cassette-stream-tool-roundtrip.yaml [2]', 'gemini', () => geminiCassetteEvents('cassette-stream-tool-roundtrip.yaml', 2), 'end_turn'],
];

const parsedArguments = (text: string): unknown => (text === '' ? {} : JSON.parse(text));

describe('recorded streams bridged into a Messages stream', () => {
  it.each(RECORDINGS)('%s', async (_name, upstream, readEvents, stopReason) => {
    const recorded = readEvents();
    const hub = hubAnswerOf(upstream, recorded);
    const { chain, events } = bridge(upstream, recorded);
    expect(chain.complete).toBe(true);

    const summary = expectValidMessagesStream(events);
    expect(summary.text).toBe(hub.text);
    const hubTools = hub.calls.map((call) => ({ id: call.id, name: call.name, input: parsedArguments(call.arguments) }));
    expect(summary.tools).toEqual(hubTools);
    expect(summary.stopReason).toBe(stopReason);
    if (!hub.usage) throw new Error('the recording has no usage');
    const cached = hub.usage.prompt_tokens_details?.cached_tokens ?? 0;
    expect(summary.usage).toEqual({
      input_tokens: hub.usage.prompt_tokens - cached,
      output_tokens: hub.usage.completion_tokens,
      cache_read_input_tokens: cached,
      cache_creation_input_tokens: 0,
    });

    const final = await sdkFinalMessage(events);
    expect(final.stop_reason).toBe(stopReason);
    expect(final.usage.output_tokens).toBe(hub.usage.completion_tokens);
    const textBlocks = final.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    expect(textBlocks.join('')).toBe(hub.text);
    expect(textBlocks.every((text) => text !== '')).toBe(true);
    const toolUses = final.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : []));
    expect(toolUses).toEqual(hubTools);
  });

  it('a stream cut before its end closes no message: no message_delta, no message_stop', () => {
    const recorded = readStreamFixture('openai/chat-stream-tool-call.sse');
    const cut = recorded.slice(0, 3);
    const chain = chainTransformers(upstreamTransformer('openai'), new ChatToMessagesStream({ publicModel: 'claude-bridged' }));
    const events = eventsOf([...cut.flatMap((event) => chain.transform(event)), ...chain.finish()]);
    expect(chain.complete).toBe(false);
    expect(events.map((event) => event.type)).not.toContain('message_stop');
    expect(events.map((event) => event.type)).not.toContain('message_delta');
    expect(events[0]?.type).toBe('message_start');
  });
});
