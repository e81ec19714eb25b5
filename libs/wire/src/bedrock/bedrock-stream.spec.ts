import type { ChatCompletionChunk } from '@chat-relay/contract';
import { AwsEventStreamDecoder, encodeAwsEvent, encodeAwsException } from '../aws/aws-event-stream';
import type { SseEvent, StreamStep, StreamTransformer } from '../hub/upstream-adapter';
import { readFixture } from '../testing/fixtures';
import { bedrockClaudeAdapter } from './bedrock-claude-adapter';
import { bedrockClaudeNativeAdapter } from './bedrock-claude-native-adapter';

const options = { publicModel: 'my-claude', callerWantsUsage: true, secrets: ['AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'] };

/** One Anthropic event as Bedrock sends it: a `chunk` whose `bytes` is the event's JSON, base64. */
const chunk = (event: Record<string, unknown>): Uint8Array => encodeAwsEvent('chunk', JSON.stringify({ bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdefgh' }));

const metrics = { 'amazon-bedrock-invocationMetrics': { inputTokenCount: 12, outputTokenCount: 5, invocationLatency: 321, firstByteLatency: 120 } };
const claudeEvents: Record<string, unknown>[] = [
  { type: 'message_start', message: { id: 'msg_bdrk_01', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, cache_read_input_tokens: 3, cache_creation_input_tokens: 0, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
  { type: 'message_stop', ...metrics },
];

/** The body as the server reads it: AWS's decoder over pieces, then the transformer. */
function run(transformer: StreamTransformer, pieces: readonly Uint8Array[]): StreamStep[] {
  const decoder = new AwsEventStreamDecoder();
  const events: SseEvent[] = pieces.flatMap((piece) => decoder.push(piece));
  return [...events.flatMap((event) => transformer.transform(event)), ...transformer.finish()];
}

const chunksOf = (steps: readonly StreamStep[]): ChatCompletionChunk[] => steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as ChatCompletionChunk] : []));

describe('Claude\'s Bedrock stream through the hub', () => {
  it('becomes chat chunks with Anthropic\'s usage, cache reads included', () => {
    const transformer = bedrockClaudeAdapter.createStreamTransformer(options);
    const steps = run(transformer, claudeEvents.map(chunk));
    const chunks = chunksOf(steps);
    expect(chunks.map((item) => item.choices[0]?.delta.content).join('')).toBe('Hello');
    expect(chunks.find((item) => item.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.every((item) => item.model === 'my-claude')).toBe(true);
    expect(transformer.complete).toBe(true);
    expect(transformer.usage).toEqual(expect.objectContaining({ promptTokens: 15, completionTokens: 5, cacheReadTokens: 3 }));
  });

  it('ends on a mid-stream throttlingException with a 429 rate-limit error, nothing after it', () => {
    const transformer = bedrockClaudeAdapter.createStreamTransformer(options);
    const steps = run(transformer, [chunk(claudeEvents[0] ?? {}), encodeAwsException('throttlingException', 'Too many tokens, please wait before trying again.'), chunk(claudeEvents[1] ?? {})]);
    const errors = steps.flatMap((step) => (step.kind === 'error' ? [step.error] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'throttlingException' });
    expect(steps.at(-1)?.kind).toBe('error');
    expect(transformer.complete).toBe(false);
  });

  it.each([
    ['modelStreamErrorException', 502, 'upstream_error'],
    ['internalServerException', 502, 'upstream_error'],
    ['serviceUnavailableException', 503, 'upstream_error'],
    ['modelTimeoutException', 504, 'upstream_error'],
    ['validationException', 400, 'invalid_request_error'],
  ])('maps %s to %s %s', (exception, status, type) => {
    const steps = run(bedrockClaudeAdapter.createStreamTransformer(options), [encodeAwsException(exception, 'Something happened.')]);
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ status, type, code: exception }) }]);
  });

  it('ends on a chunk whose bytes are no Anthropic event, as a malformed answer', () => {
    const broken = encodeAwsEvent('chunk', JSON.stringify({ bytes: Buffer.from('{not json').toString('base64') }));
    const steps = run(bedrockClaudeAdapter.createStreamTransformer(options), [chunk(claudeEvents[0] ?? {}), broken]);
    expect(steps.at(-1)).toEqual({ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) });
  });
});

describe('Claude\'s Bedrock stream to a Messages caller', () => {
  it('relays Anthropic\'s own events, the model renamed and Bedrock\'s invocation metrics cut off', () => {
    const transformer = bedrockClaudeNativeAdapter.createStreamTransformer(options);
    const steps = run(transformer, claudeEvents.map(chunk));
    const relayed = steps.map((step) => (step.kind === 'chunk' ? [step.event, JSON.parse(step.json) as Record<string, unknown>] : step));
    expect(relayed.map((item) => (Array.isArray(item) ? item[0] : 'error'))).toEqual(claudeEvents.map((event) => event['type']));
    expect(relayed[0]).toEqual(['message_start', expect.objectContaining({ message: expect.objectContaining({ model: 'my-claude' }) })]);
    expect(relayed.at(-1)).toEqual(['message_stop', { type: 'message_stop' }]);
    expect(relayed[2]).toEqual(['content_block_delta', claudeEvents[2]]);
    expect(transformer.usage).toEqual(expect.objectContaining({ promptTokens: 15, completionTokens: 5 }));
  });

  it('redacts the channel\'s secret access key from an exception\'s words', () => {
    const steps = run(bedrockClaudeNativeAdapter.createStreamTransformer(options), [encodeAwsException('internalServerException', 'failed for wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')]);
    expect(steps[0]?.kind === 'error' && steps[0].error.message).not.toContain('wJalrXUtnFEMI');
  });
});

describe('a recorded Bedrock stream (test-fixtures/bedrock, Envoy AI Gateway\'s capture of Claude Sonnet 4.5 on InvokeModelWithResponseStream)', () => {
  // The body's pieces as the network delivered them, the first holding four whole messages.
  const pieces = readFixture('bedrock/invoke-stream-claude-sonnet-4-5.chunks.b64')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => Buffer.from(line, 'base64'));

  it('decodes byte by byte into the same events as piece by piece', () => {
    const whole = Buffer.concat(pieces);
    const byteWise = new AwsEventStreamDecoder();
    const events = [...whole].flatMap((byte) => byteWise.push(Uint8Array.of(byte)));
    const pieceWise = new AwsEventStreamDecoder();
    expect(events).toEqual(pieces.flatMap((piece) => pieceWise.push(piece)));
    expect(events).toHaveLength(10);
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(['chunk']));
  });

  it('reads to the recorded text and usage through the hub', () => {
    const transformer = bedrockClaudeAdapter.createStreamTransformer(options);
    const chunks = chunksOf(run(transformer, pieces));
    expect(chunks.map((item) => item.choices[0]?.delta.content ?? '').join('')).toBe('Hi! 👋 How are you doing today?');
    expect(transformer.usage).toEqual(expect.objectContaining({ promptTokens: 10, completionTokens: 15 }));
    expect(transformer.complete).toBe(true);
  });

  it('relays the recorded events to a Messages caller, the last without its invocation metrics', () => {
    const steps = run(bedrockClaudeNativeAdapter.createStreamTransformer(options), pieces);
    expect(steps.map((step) => step.kind === 'chunk' && step.event)).toEqual([
      'message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta',
      'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(steps.at(-1)).toEqual({ kind: 'chunk', event: 'message_stop', json: '{"type":"message_stop"}' });
    // Untouched events keep Bedrock's bytes (the padding `p` was the envelope's, not the event's).
    expect(steps[2]).toEqual({ kind: 'chunk', event: 'content_block_delta', json: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}' });
  });
});
