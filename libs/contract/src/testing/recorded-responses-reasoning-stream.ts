/**
 * Test-only: OpenAI Responses API traffic copied from the recordings that test-fixtures/openai-responses/
 * holds (file named on each constant; SOURCES.md there gives origin, commit, licence and sha256:
 * pydantic/pydantic-ai MIT, simonw/llm Apache-2.0, vercel/ai Apache-2.0). Inline so the specs
 * stand without the fixture files. Trimmed, nothing else changed: `encrypted_content` cut to its
 * first 24 characters and other strings over 160 characters to their first 100 (each ends in `…`);
 * the Response objects of one stream written once and spread, as they repeat the same settings.
 * Every id, number and other string is as recorded.
 *
 * A stream with a reasoning summary and a function call, as an excerpt.
 */

/** The Response as `response.created` carried it; the later lifecycle events of its stream spread it. */
export const reasoningStreamStart = {
  id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
  object: 'response',
  created_at: 1765552659,
  status: 'in_progress',
  background: false,
  error: null,
  incomplete_details: null,
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  model: 'gpt-5.1-codex-max',
  output: [],
  parallel_tool_calls: true,
  previous_response_id: null,
  prompt_cache_key: null,
  prompt_cache_retention: null,
  reasoning: { effort: 'high', summary: 'detailed' },
  safety_identifier: null,
  service_tier: 'auto',
  store: false,
  temperature: 1,
  text: { format: { type: 'text' }, verbosity: 'medium' },
  tool_choice: 'auto',
  tools: [
    {
      type: 'function',
      description: 'A minimal calculator for basic arithmetic. Call it once per step.',
      name: 'calculator',
      parameters: {
        type: 'object',
        properties: {
          a: { type: 'number', description: 'First operand.' },
          b: { type: 'number', description: 'Second operand.' },
          op: {
            type: 'string',
            enum: ['add', 'subtract', 'multiply', 'divide'],
            default: 'add',
            description: 'Arithmetic operation to perform.',
          },
        },
        required: ['a', 'b', 'op'],
        additionalProperties: false,
      },
      strict: true,
    },
  ],
  top_logprobs: 0,
  top_p: 0.985,
  truncation: 'disabled',
  usage: null,
  user: null,
  metadata: {},
};

/**
 * stream-reasoning-summary-then-tool-calls.stream.jsonl (vercel/ai), first stream: a reasoning summary then a
 * `calculator` call. An excerpt: response.in_progress, 30 of the 32 summary deltas and 12 of the 13 argument
 * deltas left out, sequence numbers as recorded.
 */
export const recordedReasoningStreamExcerpt = [
  { type: 'response.created', sequence_number: 0, response: reasoningStreamStart },
  {
    type: 'response.output_item.added',
    sequence_number: 2,
    output_index: 0,
    item: {
      id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
      type: 'reasoning',
      encrypted_content: 'gAAAAABpPDIUph8czEXzDePC…',
      summary: [],
    },
  },
  {
    type: 'response.reasoning_summary_part.added',
    sequence_number: 3,
    item_id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
    output_index: 0,
    summary_index: 0,
    part: { type: 'summary_text', text: '' },
  },
  {
    type: 'response.reasoning_summary_text.delta',
    sequence_number: 4,
    item_id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
    output_index: 0,
    summary_index: 0,
    delta: '**Calcul',
    obfuscation: '2ajSAGID',
  },
  {
    type: 'response.reasoning_summary_text.delta',
    sequence_number: 35,
    item_id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
    output_index: 0,
    summary_index: 0,
    delta: '.',
    obfuscation: '8qFXCsad7t5wRai',
  },
  {
    type: 'response.reasoning_summary_text.done',
    sequence_number: 36,
    item_id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
    output_index: 0,
    summary_index: 0,
    text: '**Calculating step-by-step using calculator**\n\nI\'ll compute 12 plus 7, then multiply the result by 3…',
  },
  {
    type: 'response.reasoning_summary_part.done',
    sequence_number: 37,
    item_id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
    output_index: 0,
    summary_index: 0,
    part: {
      type: 'summary_text',
      text: '**Calculating step-by-step using calculator**\n\nI\'ll compute 12 plus 7, then multiply the result by 3…',
    },
  },
  {
    type: 'response.output_item.done',
    sequence_number: 38,
    output_index: 0,
    item: {
      id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
      type: 'reasoning',
      encrypted_content: 'gAAAAABpPDIVOKrsHNZ0Gwso…',
      summary: [
        {
          type: 'summary_text',
          text: '**Calculating step-by-step using calculator**\n\nI\'ll compute 12 plus 7, then multiply the result by 3…',
        },
      ],
    },
  },
  {
    type: 'response.output_item.added',
    sequence_number: 39,
    output_index: 1,
    item: {
      id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      name: 'calculator',
    },
  },
  {
    type: 'response.function_call_arguments.delta',
    sequence_number: 40,
    item_id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
    output_index: 1,
    delta: '{"',
    obfuscation: 'hKtg6o5cWUSdCa',
  },
  {
    type: 'response.function_call_arguments.done',
    sequence_number: 53,
    item_id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
    output_index: 1,
    arguments: '{"a":12,"b":7,"op":"add"}',
  },
  {
    type: 'response.output_item.done',
    sequence_number: 54,
    output_index: 1,
    item: {
      id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
      type: 'function_call',
      status: 'completed',
      arguments: '{"a":12,"b":7,"op":"add"}',
      call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      name: 'calculator',
    },
  },
  {
    type: 'response.completed',
    sequence_number: 55,
    response: {
      ...reasoningStreamStart,
      status: 'completed',
      output: [
        {
          id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
          type: 'reasoning',
          encrypted_content: 'gAAAAABpPDIVYBwu2ljdVyeU…',
          summary: [
            {
              type: 'summary_text',
              text: '**Calculating step-by-step using calculator**\n\nI\'ll compute 12 plus 7, then multiply the result by 3…',
            },
          ],
        },
        {
          id: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f',
          type: 'function_call',
          status: 'completed',
          arguments: '{"a":12,"b":7,"op":"add"}',
          call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
          name: 'calculator',
        },
      ],
      service_tier: 'default',
      usage: {
        input_tokens: 134,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 28,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 162,
      },
    },
  },
];
