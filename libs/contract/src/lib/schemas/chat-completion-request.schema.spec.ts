import { ChatCompletionRequestSchema, MAX_CHOICES, MAX_OUTPUT_TOKENS } from './chat-completion-request.schema';

const base = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] };
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** Accepted, and forwarded as sent: the parsed output deep-equals the input (SPEC §7). */
function expectAccepted(body: unknown): void {
  const result = ChatCompletionRequestSchema.safeParse(body);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(body);
}

/** Rejected with exactly one issue, at `path` (what the server turns into §9's `param`). */
function expectRejectedAt(body: unknown, path: (string | number)[]): void {
  const result = ChatCompletionRequestSchema.safeParse(body);
  expect(result.success).toBe(false);
  expect(result.error?.issues.map((issue) => issue.path)).toEqual([path]);
}

describe('ChatCompletionRequestSchema accepts every message role', () => {
  it.each([
    ['system', { role: 'system', content: 'Be brief.' }],
    ['system with text parts', { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] }],
    ['developer', { role: 'developer', content: 'Answer in French.', name: 'ops' }],
    ['user with a string', { role: 'user', content: 'Hello' }],
    [
      'user with text and image_url parts',
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
        ],
      },
    ],
    [
      'assistant with tool_calls and content null',
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        ],
      },
    ],
    [
      'assistant without a content key',
      { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
    ],
    ['assistant with text', { role: 'assistant', content: 'Sunny.' }],
    ['tool with tool_call_id', { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_1' }],
    ['legacy function', { role: 'function', name: 'get_weather', content: '{"temp":21}' }],
  ])('%s', (_name, message) => {
    expectAccepted({ ...base, messages: [message] });
  });
});

describe('ChatCompletionRequestSchema accepts every tool_choice form', () => {
  it.each([
    ['none', 'none'],
    ['auto', 'auto'],
    ['required', 'required'],
    ['a named function', { type: 'function', function: { name: 'get_weather' } }],
    [
      'allowed_tools',
      {
        type: 'allowed_tools',
        allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
      },
    ],
    ['a custom tool', { type: 'custom', custom: { name: 'run_sql' } }],
  ])('%s', (_name, toolChoice) => {
    expectAccepted({ ...base, tools: [weatherTool], tool_choice: toolChoice });
  });

  it('rejects an unknown tool_choice string', () => {
    expectRejectedAt({ ...base, tool_choice: 'always' }, ['tool_choice']);
  });
});

describe('ChatCompletionRequestSchema accepts the other request options', () => {
  it.each([
    ['parallel_tool_calls', { tools: [weatherTool], parallel_tool_calls: false }],
    ['stream with include_usage', { stream: true, stream_options: { include_usage: true } }],
    ['response_format text', { response_format: { type: 'text' } }],
    ['response_format json_object', { response_format: { type: 'json_object' } }],
    [
      'response_format json_schema',
      {
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'answer', strict: true, schema: { type: 'object', properties: { a: { type: 'string' } } } },
        },
      },
    ],
    [
      'legacy functions and function_call',
      { functions: [weatherTool.function], function_call: { name: 'get_weather' } },
    ],
    ['legacy function_call auto', { functions: [weatherTool.function], function_call: 'auto' }],
    [
      'sampling and limits',
      { temperature: 0.2, top_p: 1, n: 2, seed: 7, stop: ['\n'], max_tokens: 100, max_completion_tokens: 200, user: 'u-1' },
    ],
    ['nullable options sent as null', { temperature: null, stream: null, stream_options: null, n: null }],
    ['limits at their bounds', { n: MAX_CHOICES, max_tokens: MAX_OUTPUT_TOKENS, max_completion_tokens: MAX_OUTPUT_TOKENS }],
  ])('%s', (_name, options) => {
    expectAccepted({ ...base, ...options });
  });
});

describe('ChatCompletionRequestSchema keeps unknown fields (forwarded, never dropped)', () => {
  it('at the top level', () => {
    expectAccepted({ ...base, prediction: { type: 'content', content: 'x' }, modalities: ['text'], vendor_extension: 1 });
  });

  it('inside messages and content parts', () => {
    expectAccepted({
      ...base,
      messages: [
        { role: 'system', content: 'Be brief.', cache_control: { type: 'ephemeral' } },
        {
          role: 'user',
          content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }],
          vendor_message_id: 'm-1',
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'thinking…',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' }, extra: true }],
        },
      ],
    });
  });

  it('inside tools and their functions', () => {
    expectAccepted({
      ...base,
      tools: [
        {
          ...weatherTool,
          cache_control: { type: 'ephemeral' },
          function: { ...weatherTool.function, strict: true, examples: [] },
        },
      ],
    });
  });

  it('stream_options.include_usage survives as a typed field', () => {
    const request = ChatCompletionRequestSchema.parse({ ...base, stream: true, stream_options: { include_usage: true } });
    expect(request.stream_options?.include_usage).toBe(true);
  });
});

describe('ChatCompletionRequestSchema rejects, naming the field', () => {
  it.each([
    ['a missing model', { messages: base.messages }, ['model']],
    ['an empty model', { ...base, model: '' }, ['model']],
    ['empty messages', { ...base, messages: [] }, ['messages']],
    ['missing messages', { model: 'gpt-4o' }, ['messages']],
    ['an unknown role', { ...base, messages: [{ role: 'robot', content: 'Hi' }] }, ['messages', 0, 'role']],
    ['a user message without content', { ...base, messages: [{ role: 'user' }] }, ['messages', 0, 'content']],
    [
      'a tool message without tool_call_id',
      { ...base, messages: [{ role: 'tool', content: '21' }] },
      ['messages', 0, 'tool_call_id'],
    ],
    [
      'a tool without a function name',
      { ...base, tools: [{ type: 'function', function: { parameters: {} } }] },
      ['tools', 0, 'function', 'name'],
    ],
    [
      'a function name with a space',
      { ...base, tools: [{ type: 'function', function: { name: 'get weather' } }] },
      ['tools', 0, 'function', 'name'],
    ],
    ['an unknown tool type', { ...base, tools: [{ type: 'browser' }] }, ['tools', 0, 'type']],
    ['temperature 3', { ...base, temperature: 3 }, ['temperature']],
    ['n = 0', { ...base, n: 0 }, ['n']],
    ['max_tokens 0', { ...base, max_tokens: 0 }, ['max_tokens']],
    // Money fields are bounded integers (issue 10 defect 3: 1e300 wiped the quota).
    ['max_tokens 1e300', { ...base, max_tokens: 1e300 }, ['max_tokens']],
    ['max_tokens one past the bound', { ...base, max_tokens: MAX_OUTPUT_TOKENS + 1 }, ['max_tokens']],
    ['max_completion_tokens 1e300', { ...base, max_completion_tokens: 1e300 }, ['max_completion_tokens']],
    ['max_completion_tokens 2.5', { ...base, max_completion_tokens: 2.5 }, ['max_completion_tokens']],
    ['n 1e300', { ...base, n: 1e300 }, ['n']],
    ['n one past the bound', { ...base, n: MAX_CHOICES + 1 }, ['n']],
    ['stream as a string', { ...base, stream: 'yes' }, ['stream']],
    [
      'a json_schema response_format without a name',
      { ...base, response_format: { type: 'json_schema', json_schema: { schema: {} } } },
      ['response_format', 'json_schema', 'name'],
    ],
  ])('%s', (_name, body, path) => {
    expectRejectedAt(body, path as (string | number)[]);
  });

  it('names the bad message by its index in a longer conversation', () => {
    const messages = [{ role: 'system', content: 'x' }, { role: 'user', content: 'y' }, { role: 'tool', content: 'z' }];
    expectRejectedAt({ ...base, messages }, ['messages', 2, 'tool_call_id']);
  });
});
