/**
 * Test-only: OpenAI Responses API traffic copied from the recordings that test-fixtures/openai-responses/
 * holds (file named on each constant; SOURCES.md there gives origin, commit, licence and sha256:
 * pydantic/pydantic-ai MIT, simonw/llm Apache-2.0, vercel/ai Apache-2.0). Inline so the specs
 * stand without the fixture files. Trimmed, nothing else changed: `encrypted_content` cut to its
 * first 24 characters and other strings over 160 characters to their first 100 (each ends in `…`);
 * the Response objects of one stream written once and spread, as they repeat the same settings.
 * Every id, number and other string is as recorded.
 *
 * OpenAI's answers to non-streamed calls: the Response object.
 */

/** cassette-text.yaml (pydantic-ai): the answer to recordedTextRequest, one message. */
export const recordedTextResponse = {
  background: false,
  created_at: 1757604033,
  error: null,
  id: 'resp_68c2e8c147ac819491bcd667055eadbc02e845978fbbb592',
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: {},
  model: 'gpt-4o-2024-08-06',
  object: 'response',
  output: [
    {
      content: [{ annotations: [], logprobs: [], text: 'The capital of France is Paris.', type: 'output_text' }],
      id: 'msg_68c2e8c26114819489dae5b59fceb7bf02e845978fbbb592',
      role: 'assistant',
      status: 'completed',
      type: 'message',
    },
  ],
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  reasoning: { effort: null, summary: null },
  safety_identifier: null,
  service_tier: 'default',
  status: 'completed',
  store: true,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: 1,
  truncation: 'disabled',
  usage: {
    input_tokens: 14,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 8,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 22,
  },
  user: null,
};

/**
 * cassette-reasoning-encrypted-roundtrip.yaml (simonw/llm), first answer of the conversation
 * recordedReasoningRoundTripRequest continues: reasoning (encrypted_content, empty summary) then a function_call.
 */
export const recordedReasoningCallResponse = {
  id: 'resp_0f4809b27460351d0169fab217db348196b980331b574f45c6',
  object: 'response',
  created_at: 1778037271,
  status: 'completed',
  background: false,
  billing: { payer: 'developer' },
  completed_at: 1778037274,
  error: null,
  frequency_penalty: 0,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'gpt-5.5-2026-04-23',
  moderation: null,
  output: [
    {
      id: 'rs_0f4809b27460351d0169fab21897dc8196960e8680fb72a88d',
      type: 'reasoning',
      encrypted_content: 'gAAAAABp-rIaNe6WknTMnPCT…',
      summary: [],
    },
    {
      id: 'fc_0f4809b27460351d0169fab21a34f08196b14c2bd71a22cd6a',
      type: 'function_call',
      status: 'completed',
      arguments: '{"country":"Pundora"}',
      call_id: 'call_uy7tfNVokIN7NjFF6k7OtLyl',
      name: 'lookup_population',
    },
  ],
  parallel_tool_calls: true,
  presence_penalty: 0,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: '24h',
  reasoning: { effort: 'high', summary: null },
  safety_identifier: null,
  service_tier: 'default',
  store: false,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [
    {
      type: 'function',
      description: 'Returns the current population of the specified fictional country.',
      name: 'lookup_population',
      parameters: { properties: { country: { type: 'string' } }, required: ['country'], type: 'object', additionalProperties: false },
      strict: true,
    },
    {
      type: 'function',
      description: 'Returns True if the specified population can have dragons.',
      name: 'can_have_dragons',
      parameters: { properties: { population: { type: 'integer' } }, required: ['population'], type: 'object', additionalProperties: false },
      strict: true,
    },
  ],
  top_logprobs: 0,
  top_p: 0.98,
  truncation: 'disabled',
  usage: {
    input_tokens: 94,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 85,
    output_tokens_details: { reasoning_tokens: 63 },
    total_tokens: 179,
  },
  user: null,
  metadata: {},
};

/**
 * cassette-reasoning-summary.yaml (pydantic-ai), the answer to recordedReasoningSummaryRequest: reasoning with a
 * summary and encrypted_content, then the message.
 */
export const recordedReasoningSummaryResponse = {
  background: false,
  billing: { payer: 'developer' },
  created_at: 1765995744,
  error: null,
  id: 'resp_0b028a7a2aca8d68006942f4e05a848193a3052f1530ea1deb',
  incomplete_details: null,
  instructions: 'You are a helpful coding assistant.',
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: {},
  model: 'gpt-5.2-2025-12-11',
  object: 'response',
  output: [
    {
      encrypted_content: 'gAAAAABpQvTkJZft62qJKaLh…',
      id: 'rs_0b028a7a2aca8d68006942f4e0d380819398dfa502c33bce7b',
      summary: [
        {
          text: '**Generating factorial function**\n\nI need to respond with a Python function for calculating the fact…',
          type: 'summary_text',
        },
      ],
      type: 'reasoning',
    },
    {
      content: [
        {
          annotations: [],
          logprobs: [],
          text: '```python\ndef factorial(n: int) -> int:\n    """\n    Return n! (the factorial of n).\n\n    Steps:\n    …',
          type: 'output_text',
        },
      ],
      id: 'msg_0b028a7a2aca8d68006942f4e484e08193afa69324a01f6707',
      role: 'assistant',
      status: 'completed',
      type: 'message',
    },
  ],
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: null,
  reasoning: { effort: 'high', summary: 'detailed' },
  safety_identifier: null,
  service_tier: 'default',
  status: 'completed',
  store: true,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [],
  top_logprobs: 0,
  top_p: 0.98,
  truncation: 'disabled',
  usage: {
    input_tokens: 34,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 226,
    output_tokens_details: { reasoning_tokens: 59 },
    total_tokens: 260,
  },
  user: null,
};
