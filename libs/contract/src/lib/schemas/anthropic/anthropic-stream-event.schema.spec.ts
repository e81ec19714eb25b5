import { isKnownAnthropicContentBlock } from './anthropic-content-block.schema';
import { AnthropicMessageSchema } from './anthropic-message.schema';
import { ANTHROPIC_STREAM_EVENT_TYPES, AnthropicStreamEventSchema } from './anthropic-stream-event.schema';

const issuePaths = (value: unknown) => AnthropicStreamEventSchema.safeParse(value).error?.issues.map((issue) => issue.path);

describe('AnthropicStreamEventSchema', () => {
  it('ANTHROPIC_STREAM_EVENT_TYPES lists exactly the events of the union', () => {
    expect([...AnthropicStreamEventSchema.optionsMap.keys()].sort()).toEqual([...ANTHROPIC_STREAM_EVENT_TYPES].sort());
  });

  it.each([
    ['ping', { type: 'ping' }],
    ['message_stop', { type: 'message_stop' }],
    ['an error after the 200', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }],
    [
      'a citations_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'citations_delta', citation: { type: 'char_location', cited_text: 'c', document_index: 0 } },
      },
    ],
    ['a signature_delta', { type: 'content_block_delta', index: 1, delta: { type: 'signature_delta', signature: 'EqQB' } }],
    [
      'a message_delta with cumulative input counts, some null',
      {
        type: 'message_delta',
        delta: { stop_reason: 'pause_turn', stop_sequence: null },
        usage: {
          output_tokens: 12,
          input_tokens: 30,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: 0,
          server_tool_use: { web_search_requests: 1 },
        },
      },
    ],
    [
      'the start of a block type the relay does not model',
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_1', content: {} },
      },
    ],
  ])('accepts %s, unchanged', (_name, event) => {
    expect(AnthropicStreamEventSchema.parse(event)).toEqual(event);
  });

  it.each([
    ['an unknown event type', { type: 'message_pause' }, [['type']]],
    [
      'an unknown delta type',
      { type: 'content_block_delta', index: 0, delta: { type: 'audio_delta', audio: '' } },
      [['delta', 'type']],
    ],
    ['a negative index', { type: 'content_block_stop', index: -1 }, [['index']]],
    [
      'message_delta without usage.output_tokens',
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} },
      [['usage', 'output_tokens']],
    ],
    [
      'an unknown stop_reason',
      { type: 'message_delta', delta: { stop_reason: 'length' }, usage: { output_tokens: 1 } },
      [['delta', 'stop_reason']],
    ],
  ])('rejects %s at the field', (_name, event, paths) => {
    expect(issuePaths(event)).toEqual(paths);
  });
});

describe('AnthropicMessageSchema', () => {
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [
      { type: 'thinking', thinking: 'Hmm', signature: 'sig' },
      { type: 'text', text: 'Hi', citations: null },
      { type: 'container_upload', file_id: 'file_1' },
    ],
    stop_reason: 'refusal',
    stop_sequence: null,
    stop_details: { type: 'refusal', category: null, explanation: null },
    usage: {
      input_tokens: 3,
      output_tokens: 5,
      cache_read_input_tokens: null,
      service_tier: 'standard',
      inference_geo: 'global',
    },
  };

  it('keeps blocks of types it does not model, and fields added later', () => {
    const parsed = AnthropicMessageSchema.parse(message);
    expect(parsed).toEqual(message);
    expect(parsed.content.map(isKnownAnthropicContentBlock)).toEqual([true, true, false]);
  });

  it('requires stop_sequence (null when none) and a known stop_reason', () => {
    const paths = (value: unknown) => AnthropicMessageSchema.safeParse(value).error?.issues.map((issue) => issue.path);
    const { stop_sequence: _dropped, ...withoutStopSequence } = message;
    expect(paths(withoutStopSequence)).toEqual([['stop_sequence']]);
    expect(paths({ ...message, stop_reason: 'length' })).toEqual([['stop_reason']]);
  });
});
