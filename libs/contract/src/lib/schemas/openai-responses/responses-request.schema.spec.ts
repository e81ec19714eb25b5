import type { ZodError, ZodIssue } from 'zod';
import { MAX_OUTPUT_TOKENS } from '../chat-completion-request.schema';
import { ResponseInputItemSchema } from './responses-item.schema';
import { ResponsesRequestSchema } from './responses-request.schema';

const base = { model: 'gpt-4.1', input: 'Hi' };
const withInput = (...input: unknown[]) => ({ model: base.model, input });
const weatherTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const call = { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };

/** Accepted, and forwarded as sent: the parsed output deep-equals the input. */
function expectAccepted(body: unknown): void {
  const result = ResponsesRequestSchema.safeParse(body);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(body);
}

/**
 * The issue a 400 names: inside unions, the first of the deepest issues of every branch (what
 * the server's `mostSpecificIssue` picks). Known members come before the kept-unknown fallback,
 * so a malformed known item is named by its own field, not by its `type`.
 */
function reportedIssue(error: ZodError): ZodIssue {
  let best: ZodIssue | undefined;
  for (const issue of error.issues) {
    const candidate =
      issue.code === 'invalid_union' ? issue.unionErrors.map(reportedIssue).reduce((a, b) => (b.path.length > a.path.length ? b : a)) : issue;
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  return best!;
}

function expectRejectedAt(body: unknown, path: (string | number)[]): void {
  const result = ResponsesRequestSchema.safeParse(body);
  expect(result.success).toBe(false);
  expect(reportedIssue(result.error!).path).toEqual(path);
}

describe('ResponsesRequestSchema accepts, unchanged', () => {
  it.each([
    ['a string input', base],
    ['no input at all (previous_response_id, prompt or conversation supply it)', { model: base.model, previous_response_id: 'resp_1' }],
    [
      'untyped {role, content} messages of every role',
      withInput(
        { role: 'developer', content: 'Answer in French.' },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'Which city?' },
        { role: 'user', content: [{ type: 'input_text', text: 'Paris' }] },
      ),
    ],
    [
      'typed messages with image, file and replayed assistant parts',
      withInput(
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in these?' },
            { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'original' },
            { type: 'input_image', file_id: 'file_1', detail: 'low' },
            { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBE' },
            { type: 'input_file', file_url: 'https://example.com/b.pdf' },
          ],
        },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'A cat.', annotations: [], logprobs: [] },
            { type: 'refusal', refusal: 'No.' },
          ],
        },
      ),
    ],
    [
      'a function call round trip, status null as pydantic-ai echoes it, output as text and as parts',
      withInput(
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        { ...call, id: 'fc_1', status: null },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
        { ...call, call_id: 'call_2', status: 'completed' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '{"temp":3}' }] },
      ),
    ],
    [
      'reasoning with a summary and encrypted_content, then an item reference',
      withInput(
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: '**Plan**' }],
          encrypted_content: 'gAAAAABp',
          content: null,
        },
        { type: 'item_reference', id: 'msg_9' },
      ),
    ],
    [
      'item and part types the relay does not model, kept whole',
      withInput(
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'weather' } },
        { type: 'computer_call_output', call_id: 'cu_1', output: { type: 'computer_screenshot', image_url: 'data:…' } },
        { type: 'custom_tool_call', call_id: 'ct_1', name: 'run_sql', input: 'SELECT 1' },
        { type: 'custom_tool_call_output', call_id: 'ct_1', output: '1' },
        { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } }] },
      ),
    ],
    [
      'hosted tools beside a function tool, kept as sent',
      {
        ...base,
        tools: [
          weatherTool,
          { type: 'web_search', search_context_size: 'low' },
          { type: 'file_search', vector_store_ids: ['vs_1'] },
          { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp', require_approval: 'never' },
          { type: 'code_interpreter', container: { type: 'auto' } },
          { type: 'image_generation' },
          { type: 'custom', name: 'run_sql', format: { type: 'grammar', syntax: 'lark', definition: 'start: "SELECT"' } },
        ],
      },
    ],
    ['tool_choice required', { ...base, tools: [weatherTool], tool_choice: 'required' }],
    ['a named function tool_choice', { ...base, tools: [weatherTool], tool_choice: { type: 'function', name: 'get_weather' } }],
    [
      'an allowed_tools tool_choice',
      { ...base, tools: [weatherTool], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] } },
    ],
    ['a hosted tool_choice', { ...base, tool_choice: { type: 'mcp', server_label: 'deepwiki' } }],
    ['text.format text with verbosity', { ...base, text: { format: { type: 'text' }, verbosity: 'low' } }],
    ['text.format json_object', { ...base, text: { format: { type: 'json_object' } } }],
    [
      'text.format json_schema, strict, described',
      { ...base, text: { format: { type: 'json_schema', name: 'answer', description: 'The answer', schema: { type: 'object' }, strict: true } } },
    ],
    ['a reasoning effort newer than the relay (kept as a string)', { ...base, reasoning: { effort: 'xhigh', summary: 'auto' } }],
    [
      'every sampling and state field, nulls included',
      {
        ...base,
        instructions: null,
        max_output_tokens: 1024,
        temperature: 0,
        top_p: 1,
        top_logprobs: 20,
        parallel_tool_calls: false,
        store: false,
        background: false,
        stream: true,
        include: ['reasoning.encrypted_content'],
        metadata: { tenant: 'a' },
        truncation: 'auto',
        prompt_cache_key: null,
        previous_response_id: null,
      },
    ],
    [
      'fields the relay does not read, kept as sent',
      {
        ...base,
        service_tier: 'flex',
        safety_identifier: 'user-hash',
        prompt: { id: 'pmpt_1', version: '2', variables: { city: 'Paris' } },
        conversation: 'conv_1',
        max_tool_calls: 3,
        stream_options: { include_obfuscation: false },
        context_management: [{ type: 'compaction', compact_threshold: 1000 }],
        a_field_from_next_month: { kept: true },
      },
    ],
  ])('%s', (_name, body) => {
    expectAccepted(body);
  });
});

describe('ResponsesRequestSchema rejects, naming the field a 400 names', () => {
  it.each([
    ['a missing model', { input: 'Hi' }, ['model']],
    ['an empty model', { ...base, model: '' }, ['model']],
    ['input that is neither text nor a list', { ...base, input: 42 }, ['input']],
    ['a function_call without call_id', withInput({ role: 'user', content: 'Hi' }, { ...call, call_id: undefined }), ['input', 1, 'call_id']],
    ['a function_call whose arguments are an object', withInput({ ...call, arguments: { city: 'Paris' } }), ['input', 0, 'arguments']],
    ['a function_call with an unknown status', withInput({ ...call, status: 'done' }), ['input', 0, 'status']],
    ['a function_call_output without output', withInput({ type: 'function_call_output', call_id: 'call_1' }), ['input', 0, 'output']],
    ['a function_call_output without call_id', withInput({ type: 'function_call_output', output: 'x' }), ['input', 0, 'call_id']],
    ['a message with role tool', withInput({ role: 'tool', content: 'x' }), ['input', 0, 'role']],
    ['a message without content', withInput({ type: 'message', role: 'user' }), ['input', 0, 'content']],
    ['an untyped item that is no message', withInput({ content: 'Hi' }), ['input', 0, 'role']],
    ['an input_text part without text', withInput({ role: 'user', content: [{ type: 'input_text' }] }), ['input', 0, 'content', 0, 'text']],
    [
      'an input_image of an unknown detail',
      withInput({ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png', detail: 'ultra' }] }),
      ['input', 0, 'content', 0, 'detail'],
    ],
    [
      'a reasoning summary part that is not summary_text',
      withInput({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'text', text: 'x' }] }),
      ['input', 0, 'summary', 0, 'type'],
    ],
    ['an item_reference without id', withInput({ type: 'item_reference' }), ['input', 0, 'id']],
    ['a function tool without name', { ...base, tools: [{ type: 'function', parameters: {} }] }, ['tools', 0, 'name']],
    ['a tool without type', { ...base, tools: [{ name: 'get_weather' }] }, ['tools', 0, 'type']],
    ['a function tool_choice without name', { ...base, tool_choice: { type: 'function' } }, ['tool_choice', 'name']],
    ['tool_choice any (the Anthropic word)', { ...base, tool_choice: 'any' }, ['tool_choice']],
    ['a json_schema format without name', { ...base, text: { format: { type: 'json_schema', schema: {} } } }, ['text', 'format', 'name']],
    ['a json_schema format without schema', { ...base, text: { format: { type: 'json_schema', name: 'a' } } }, ['text', 'format', 'schema']],
    ['a text format of an unknown type', { ...base, text: { format: { type: 'yaml' } } }, ['text', 'format', 'type']],
    ['max_output_tokens 0', { ...base, max_output_tokens: 0 }, ['max_output_tokens']],
    ['a fractional max_output_tokens', { ...base, max_output_tokens: 16.5 }, ['max_output_tokens']],
    ['max_output_tokens beyond the reservation bound', { ...base, max_output_tokens: MAX_OUTPUT_TOKENS + 1 }, ['max_output_tokens']],
    ['temperature 3', { ...base, temperature: 3 }, ['temperature']],
    ['temperature -1 (recorded: OpenAI answers 400 decimal_below_min_value)', { ...base, temperature: -1 }, ['temperature']],
    ['top_p 1.5', { ...base, top_p: 1.5 }, ['top_p']],
    ['top_logprobs 21', { ...base, top_logprobs: 21 }, ['top_logprobs']],
    ['an unknown truncation', { ...base, truncation: 'always' }, ['truncation']],
    ['a metadata value that is not a string', { ...base, metadata: { tenant: 1 } }, ['metadata', 'tenant']],
    ['stream as a string', { ...base, stream: 'yes' }, ['stream']],
  ])('%s', (_name, body, path) => {
    expectRejectedAt(body, path);
  });
});

describe('ResponseInputItemSchema', () => {
  it('reads an item without type as a message, and only as one', () => {
    expect(ResponseInputItemSchema.parse({ role: 'user', content: 'Hi' })).toEqual({ role: 'user', content: 'Hi' });
    // A function_call_output that lost its `type` is reported as a message missing its role.
    const result = ResponseInputItemSchema.safeParse({ call_id: 'call_1', output: 'x' });
    expect(reportedIssue(result.error!).path).toEqual(['role']);
  });

  it('gives a reasoning item without summary an empty one', () => {
    expect(ResponseInputItemSchema.parse({ type: 'reasoning', id: 'rs_1', encrypted_content: 'gAAA' })).toEqual({
      type: 'reasoning',
      id: 'rs_1',
      encrypted_content: 'gAAA',
      summary: [],
    });
  });
});
