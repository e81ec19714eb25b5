/**
 * Test-only: OpenAI Responses API traffic copied from the recordings that test-fixtures/openai-responses/
 * holds (file named on each constant; SOURCES.md there gives origin, commit, licence and sha256:
 * pydantic/pydantic-ai MIT, simonw/llm Apache-2.0, vercel/ai Apache-2.0). Inline so the specs
 * stand without the fixture files. Trimmed, nothing else changed: `encrypted_content` cut to its
 * first 24 characters and other strings over 160 characters to their first 100 (each ends in `…`);
 * the Response objects of one stream written once and spread, as they repeat the same settings.
 * Every id, number and other string is as recorded.
 *
 * Streams: a text answer, an in-stream error, and events from before `sequence_number` existed.
 */

/** The Response as `response.created` carried it; the later lifecycle events of its stream spread it. */
export const textStreamStart = {
  id: 'resp_00592e63e61b66660169fab1b9f8e481a2b321356198d7ac1b',
  object: 'response',
  created_at: 1778037177,
  status: 'in_progress',
  background: false,
  completed_at: null,
  error: null,
  frequency_penalty: 0,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'gpt-5.5-2026-04-23',
  moderation: null,
  output: [],
  parallel_tool_calls: true,
  presence_penalty: 0,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: '24h',
  reasoning: { effort: 'low', summary: null },
  safety_identifier: null,
  service_tier: 'auto',
  store: false,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: 0.98,
  truncation: 'disabled',
  usage: null,
  user: null,
  metadata: {},
};

/** cassette-stream-text.yaml (simonw/llm): gpt-5.5 answers "pong", every event as recorded. */
export const recordedTextStream = [
  { type: 'response.created', response: textStreamStart, sequence_number: 0 },
  { type: 'response.in_progress', response: textStreamStart, sequence_number: 1 },
  {
    type: 'response.output_item.added',
    item: {
      id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
      type: 'message',
      status: 'in_progress',
      content: [],
      phase: 'final_answer',
      role: 'assistant',
    },
    output_index: 0,
    sequence_number: 2,
  },
  {
    type: 'response.content_part.added',
    content_index: 0,
    item_id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
    output_index: 0,
    part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    sequence_number: 3,
  },
  {
    type: 'response.output_text.delta',
    content_index: 0,
    delta: 'pong',
    item_id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
    logprobs: [],
    obfuscation: 'mZhSFjZXJr0X',
    output_index: 0,
    sequence_number: 4,
  },
  {
    type: 'response.output_text.done',
    content_index: 0,
    item_id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
    logprobs: [],
    output_index: 0,
    sequence_number: 5,
    text: 'pong',
  },
  {
    type: 'response.content_part.done',
    content_index: 0,
    item_id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
    output_index: 0,
    part: { type: 'output_text', annotations: [], logprobs: [], text: 'pong' },
    sequence_number: 6,
  },
  {
    type: 'response.output_item.done',
    item: {
      id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
      type: 'message',
      status: 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'pong' }],
      phase: 'final_answer',
      role: 'assistant',
    },
    output_index: 0,
    sequence_number: 7,
  },
  {
    type: 'response.completed',
    response: {
      ...textStreamStart,
      status: 'completed',
      completed_at: 1778037178,
      output: [
        {
          id: 'msg_00592e63e61b66660169fab1bada8481a28ef92eb62c168ead',
          type: 'message',
          status: 'completed',
          content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'pong' }],
          phase: 'final_answer',
          role: 'assistant',
        },
      ],
      service_tier: 'default',
      usage: {
        input_tokens: 11,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 16,
      },
    },
    sequence_number: 8,
  },
];

/** The Response as `response.created` carried it; the later lifecycle events of its stream spread it. */
export const quotaStreamStart = {
  id: 'resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424',
  object: 'response',
  created_at: 1763474589,
  status: 'in_progress',
  background: false,
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'gpt-5-nano-2025-08-07',
  output: [],
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: null,
  reasoning: { effort: 'medium', summary: null },
  safety_identifier: null,
  service_tier: 'auto',
  store: true,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: 1,
  truncation: 'disabled',
  usage: null,
  user: null,
  metadata: {},
};

/**
 * stream-error-insufficient-quota.stream.jsonl (vercel/ai): the in-stream `error` (nested form) then
 * `response.failed`, as recorded.
 */
export const recordedQuotaErrorStream = [
  { type: 'response.created', sequence_number: 0, response: quotaStreamStart },
  { type: 'response.in_progress', sequence_number: 1, response: quotaStreamStart },
  {
    type: 'error',
    sequence_number: 2,
    error: {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota, please check your plan and billing details. For more information on…',
      param: null,
    },
  },
  {
    type: 'response.failed',
    sequence_number: 3,
    response: {
      ...quotaStreamStart,
      status: 'failed',
      error: {
        code: 'insufficient_quota',
        message: 'You exceeded your current quota, please check your plan and billing details. For more information on…',
      },
    },
  },
];

/**
 * cassette-stream-function-call-roundtrip-2025-03.yaml (pydantic-ai), recorded March 2025: before events carried
 * `sequence_number`.
 */
export const recordedEventsWithoutSequenceNumbers = [
  {
    type: 'response.output_item.added',
    output_index: 0,
    item: {
      type: 'function_call',
      id: 'fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2',
      call_id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL',
      name: 'get_capital',
      arguments: '',
      status: 'in_progress',
    },
  },
  {
    type: 'response.function_call_arguments.delta',
    item_id: 'fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2',
    output_index: 0,
    delta: '{"',
  },
];
