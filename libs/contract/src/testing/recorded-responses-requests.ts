/**
 * Test-only: OpenAI Responses API traffic copied from the recordings that test-fixtures/openai-responses/
 * holds (file named on each constant; SOURCES.md there gives origin, commit, licence and sha256:
 * pydantic/pydantic-ai MIT, simonw/llm Apache-2.0, vercel/ai Apache-2.0). Inline so the specs
 * stand without the fixture files. Trimmed, nothing else changed: `encrypted_content` cut to its
 * first 24 characters and other strings over 160 characters to their first 100 (each ends in `…`);
 * the Response objects of one stream written once and spread, as they repeat the same settings.
 * Every id, number and other string is as recorded.
 *
 * Request bodies as the SDKs sent them, and the one 400 answer recorded.
 */

/** cassette-text.yaml (pydantic-ai): an untyped `{role, content}` message. */
export const recordedTextRequest = { input: [{ content: 'What is the capital of France?', role: 'user' }], model: 'gpt-4o', stream: false };

/**
 * cassette-function-call-roundtrip.yaml (pydantic-ai), second request: the call echoed back (`status: null`)
 * with its output.
 */
export const recordedFunctionCallRequest = {
  input: [
    { content: 'What is the capital of PotatoLand?', role: 'user' },
    {
      arguments: '{"country":"PotatoLand"}',
      call_id: 'call_YfwRsW8sUxDKipwyhWTzOXCA',
      name: 'get_capital',
      status: null,
      type: 'function_call',
    },
    { call_id: 'call_YfwRsW8sUxDKipwyhWTzOXCA', output: 'Potato City', type: 'function_call_output' },
  ],
  model: 'gpt-4o',
  stream: false,
  tool_choice: 'auto',
  tools: [
    {
      description: null,
      name: 'get_capital',
      parameters: { additionalProperties: false, properties: { country: { type: 'string' } }, required: ['country'], type: 'object' },
      strict: true,
      type: 'function',
    },
  ],
};

/**
 * cassette-previous-response-id-chain.yaml (pydantic-ai), third request: only a function_call_output, the call
 * held by OpenAI under previous_response_id.
 */
export const recordedChainedRequest = {
  input: [
    {
      call_id: 'call_P1vN20XNjvNyIm0VshHYzmSA',
      output: 'Location not recognized. The tool only supports the airport code "NYC". Call again with city="NYC".\n\nFix the errors and try again.',
      type: 'function_call_output',
    },
  ],
  model: 'gpt-4.1',
  previous_response_id: 'resp_0435eb6c2aa8e9eb0069e15ffeb3fc81959cd2d1e915a8c7ea',
  store: true,
  stream: false,
  tool_choice: 'auto',
  tools: [
    {
      description: null,
      name: 'get_weather',
      parameters: { additionalProperties: false, properties: { city: { type: 'string' } }, required: ['city'], type: 'object' },
      strict: true,
      type: 'function',
    },
  ],
};

/**
 * cassette-reasoning-encrypted-roundtrip.yaml (simonw/llm), second request: stateless, the reasoning item
 * re-sent with its encrypted_content.
 */
export const recordedReasoningRoundTripRequest = {
  include: ['reasoning.encrypted_content'],
  input: [
    {
      role: 'user',
      content: 'Pick a clever country name, look up its population, then check whether it can have dragons. Be brief.',
    },
    {
      type: 'reasoning',
      id: 'rs_0f4809b27460351d0169fab21897dc8196960e8680fb72a88d',
      encrypted_content: 'gAAAAABp-rIaNe6WknTMnPCT…',
      summary: [],
    },
    {
      type: 'function_call',
      call_id: 'call_uy7tfNVokIN7NjFF6k7OtLyl',
      name: 'lookup_population',
      arguments: '{"country": "Pundora"}',
    },
    { type: 'function_call_output', call_id: 'call_uy7tfNVokIN7NjFF6k7OtLyl', output: '123124' },
  ],
  model: 'gpt-5.5',
  reasoning: { effort: 'high' },
  store: false,
  stream: false,
  tools: [
    {
      type: 'function',
      name: 'lookup_population',
      description: 'Returns the current population of the specified fictional country.',
      parameters: { properties: { country: { type: 'string' } }, required: ['country'], type: 'object' },
    },
    {
      type: 'function',
      name: 'can_have_dragons',
      description: 'Returns True if the specified population can have dragons.',
      parameters: { properties: { population: { type: 'integer' } }, required: ['population'], type: 'object' },
    },
  ],
};

/** cassette-reasoning-summary.yaml (pydantic-ai): instructions, reasoning {effort, summary}, include. */
export const recordedReasoningSummaryRequest = {
  include: ['reasoning.encrypted_content'],
  input: [{ content: 'Write a Python function that calculates the factorial of a number. Think step by step.', role: 'user' }],
  instructions: 'You are a helpful coding assistant.',
  model: 'gpt-5.2',
  reasoning: { effort: 'high', summary: 'auto' },
  stream: false,
};

/** cassette-stream-text.yaml (simonw/llm): the request of recordedTextStream. */
export const recordedStreamRequest = {
  include: ['reasoning.encrypted_content'],
  input: [{ role: 'user', content: 'Reply with exactly: pong' }],
  model: 'gpt-5.5',
  reasoning: { effort: 'low' },
  store: false,
  stream: true,
};

/**
 * cassette-error-400-invalid-value.yaml (pydantic-ai): temperature -1, which OpenAI answered with
 * recordedNegativeTemperatureError (HTTP 400).
 */
export const recordedNegativeTemperatureRequest = {
  input: [{ content: 'What is the capital of France?', role: 'user' }],
  instructions: '',
  model: 'gpt-4o',
  stream: true,
  temperature: -1,
};

/** The 400 answer to recordedNegativeTemperatureRequest. */
export const recordedNegativeTemperatureError = {
  error: {
    code: 'decimal_below_min_value',
    message: 'Invalid \'temperature\': decimal below minimum value. Expected a value >= 0, but got -1 instead.',
    param: 'temperature',
    type: 'invalid_request_error',
  },
};
