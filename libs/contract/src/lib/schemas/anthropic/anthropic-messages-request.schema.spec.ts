import type { ZodError, ZodIssue } from 'zod';
import { MAX_OUTPUT_TOKENS } from '../chat-completion-request.schema';
import {
  AnthropicContentBlockParamSchema,
  isKnownAnthropicContentBlockParam,
  type AnthropicContentBlockParam,
} from './anthropic-content-block-param.schema';
import { AnthropicCountTokensRequestSchema } from './anthropic-count-tokens.schema';
import { AnthropicMessagesRequestSchema } from './anthropic-messages-request.schema';
import { AnthropicToolSchema, isAnthropicCustomTool } from './anthropic-tool.schema';

const base = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'Hi' }] };
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const userSays = (...content: unknown[]) => ({ ...base, messages: [{ role: 'user', content }] });

/** Accepted, and forwarded as sent: the parsed output deep-equals the input. */
function expectAccepted(body: unknown): void {
  const result = AnthropicMessagesRequestSchema.safeParse(body);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(body);
}

/** Every issue, the branches of unions included: what the server chooses the reported field from. */
function flatIssues(error: ZodError): ZodIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'invalid_union' ? [issue, ...issue.unionErrors.flatMap(flatIssues)] : [issue],
  );
}

/** Rejected, and `path` is the deepest field named (the one a 400 names). */
function expectRejectedAt(body: unknown, path: (string | number)[]): void {
  const result = AnthropicMessagesRequestSchema.safeParse(body);
  expect(result.success).toBe(false);
  const issues = flatIssues(result.error!);
  expect(issues.map((issue) => issue.path)).toContainEqual(path);
  expect(Math.max(...issues.map((issue) => issue.path.length))).toBe(path.length);
}

const block = (at: number, ...rest: (string | number)[]) => ['messages', 0, 'content', at, ...rest];
const systemText = (cacheControl: object) => [{ type: 'text', text: 'S', cache_control: cacheControl }];

describe('AnthropicMessagesRequestSchema rejects, naming the field', () => {
  it.each([
    ['missing max_tokens', { model: base.model, messages: base.messages }, ['max_tokens']],
    ['max_tokens 0', { ...base, max_tokens: 0 }, ['max_tokens']],
    ['max_tokens beyond the reservation bound', { ...base, max_tokens: MAX_OUTPUT_TOKENS + 1 }, ['max_tokens']],
    ['a role other than user, assistant or system', { ...base, messages: [{ role: 'tool', content: 'x' }] }, ['messages', 0, 'role']],
    ['no messages', { ...base, messages: [] }, ['messages']],
    ['tool_choice tool without a name', { ...base, tools: [weatherTool], tool_choice: { type: 'tool' } }, ['tool_choice', 'name']],
    ['an unknown tool_choice type', { ...base, tool_choice: { type: 'required' } }, ['tool_choice', 'type']],
    ['budget_tokens under 1024', { ...base, thinking: { type: 'enabled', budget_tokens: 1000 } }, ['thinking', 'budget_tokens']],
    ['temperature 1.5', { ...base, temperature: 1.5 }, ['temperature']],
    ['top_k -1', { ...base, top_k: -1 }, ['top_k']],
    ['stop_sequences as a string', { ...base, stop_sequences: 'END' }, ['stop_sequences']],
    ['a tool_use block without an id', userSays({ type: 'tool_use', name: 'f', input: {} }), block(0, 'id')],
    ['a tool_use input that is not an object', userSays({ type: 'tool_use', id: 't1', name: 'f', input: '{}' }), block(0, 'input')],
    ['a text block without text', userSays({ type: 'text' }), block(0, 'text')],
    ['an unknown image source type', userSays({ type: 'image', source: { type: 'path', path: '/x' } }), block(0, 'source', 'type')],
    ['a block that is not an object', userSays('Hi'), block(0)],
    ['a block without a type', userSays({ text: 'Hi' }), block(0, 'type')],
    ['a custom tool without input_schema', { ...base, tools: [{ name: 'f' }] }, ['tools', 0, 'input_schema']],
    [
      'a cache_control ttl of 2h',
      { ...base, system: systemText({ type: 'ephemeral', ttl: '2h' }) },
      ['system', 0, 'cache_control', 'ttl'],
    ],
  ])('%s', (_name, body, path) => {
    expectRejectedAt(body, path);
  });
});

const toolRoundTrip = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
  {
    role: 'user',
    content: [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        is_error: false,
        content: [
          { type: 'text', text: '21°C' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/map.png' } },
          { type: 'search_result', source: 'https://example.com', title: 'W', content: [{ type: 'text', text: 'Sunny' }] },
        ],
      },
    ],
  },
];
const serverToolTurn = [
  { role: 'user', content: 'Search.' },
  {
    role: 'assistant',
    content: [
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
      {
        type: 'web_search_tool_result',
        tool_use_id: 'srvtoolu_1',
        content: [{ type: 'web_search_result', url: 'https://example.com', title: 'E', encrypted_content: 'x' }],
      },
      {
        type: 'code_execution_tool_result',
        tool_use_id: 'srvtoolu_2',
        content: { type: 'code_execution_result', stdout: '', stderr: '', return_code: 0 },
      },
      { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'echo', server_name: 's', input: {} },
    ],
  },
];
const charCitation = {
  type: 'char_location',
  cited_text: 'c',
  document_index: 0,
  document_title: null,
  start_char_index: 0,
  end_char_index: 1,
};
const pdf = { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' };

describe('AnthropicMessagesRequestSchema accepts, keeping every field', () => {
  it.each([
    ['content as a string', base],
    ['system as a string', { ...base, system: 'Be brief.' }],
    ['system text blocks with cache_control and ttl', { ...base, system: systemText({ type: 'ephemeral', ttl: '1h' }) }],
    ['an empty text block (Anthropic decides about it)', userSays({ type: 'text', text: '' })],
    ['a system turn inside messages (typed by the SDK)', { ...base, messages: [{ role: 'system', content: 'Be brief.' }, ...base.messages] }],
    [
      'image sources base64, url and file',
      userSays(
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        { type: 'image', source: { type: 'file', file_id: 'file_01' }, cache_control: null },
      ),
    ],
    [
      'document sources pdf, text, url, content and file, with title, context and citations',
      userSays(
        { type: 'document', source: pdf, title: 'Report', context: 'Q3', citations: { enabled: true } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Plain.' }, title: null },
        { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
        { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'Part 1' }] } },
        { type: 'document', source: { type: 'file', file_id: 'file_02' } },
      ),
    ],
    ['a text block with citations sent back', userSays({ type: 'text', text: 'Cited.', citations: [charCitation] })],
    ['assistant tool_use, then a tool_result of blocks with is_error', { ...base, messages: toolRoundTrip }],
    ['a tool_result without content', userSays({ type: 'tool_result', tool_use_id: 'toolu_1' })],
    [
      'thinking and redacted_thinking sent back',
      {
        ...base,
        messages: [
          { role: 'user', content: 'Think.' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Hmm', signature: 'sig' },
              { type: 'redacted_thinking', data: 'opaque' },
              { type: 'text', text: 'Done.' },
            ],
          },
        ],
      },
    ],
    ['server tool blocks and block types the relay does not model', { ...base, messages: serverToolTurn }],
    [
      'custom tools (type absent, custom or null) and server tools',
      {
        ...base,
        tools: [
          weatherTool,
          { ...weatherTool, name: 'b', type: 'custom', cache_control: { type: 'ephemeral' }, strict: true },
          { ...weatherTool, name: 'c', type: null },
          { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
          { type: 'bash_20250124', name: 'bash' },
        ],
      },
    ],
    [
      'tool_choice tool, with disable_parallel_tool_use',
      { ...base, tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } },
    ],
    ['tool_choice auto', { ...base, tools: [weatherTool], tool_choice: { type: 'auto', disable_parallel_tool_use: false } }],
    ['tool_choice any', { ...base, tools: [weatherTool], tool_choice: { type: 'any' } }],
    ['tool_choice none, and metadata.user_id', { ...base, tool_choice: { type: 'none' }, metadata: { user_id: 'u1' } }],
    ['thinking enabled with display', { ...base, thinking: { type: 'enabled', budget_tokens: 1024, display: 'summarized' } }],
    ['thinking adaptive', { ...base, thinking: { type: 'adaptive' } }],
    ['thinking disabled', { ...base, thinking: { type: 'disabled' } }],
    ['sampling and stop options', { ...base, temperature: 1, top_p: 0.9, top_k: 0, stop_sequences: ['END'], stream: true }],
    [
      'request-level fields the relay does not read',
      {
        ...base,
        output_config: { effort: 'high' },
        service_tier: 'auto',
        container: 'cntr_1',
        mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 's' }],
        context_management: { edits: [] },
        cache_control: { type: 'ephemeral', ttl: '5m' },
      },
    ],
  ])('%s', (_name, body) => {
    expectAccepted(body);
  });
});

describe('AnthropicCountTokensRequestSchema', () => {
  it('needs no max_tokens and keeps the prompt fields', () => {
    const { max_tokens: _omitted, ...prompt } = base;
    const body = { ...prompt, system: 'S', tools: [weatherTool], thinking: { type: 'adaptive' } };
    expect(AnthropicCountTokensRequestSchema.parse(body)).toEqual(body);
  });

  it('still checks the prompt: no messages is refused at messages', () => {
    const result = AnthropicCountTokensRequestSchema.safeParse({ model: base.model, messages: [] });
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['messages']]);
  });
});

describe('the guards that narrow past unknown block and tool types', () => {
  const parseBlock = (block: unknown): AnthropicContentBlockParam => AnthropicContentBlockParamSchema.parse(block);

  it('isKnownAnthropicContentBlockParam: true for a modelled block, false for a kept unknown one', () => {
    const known = parseBlock({ type: 'text', text: 'Hi' });
    const unknown = parseBlock({ type: 'container_upload', file_id: 'file_1' });
    expect(isKnownAnthropicContentBlockParam(known) && known.type === 'text' ? known.text : undefined).toBe('Hi');
    expect(isKnownAnthropicContentBlockParam(unknown)).toBe(false);
    expect(unknown).toEqual({ type: 'container_upload', file_id: 'file_1' });
  });

  it('isAnthropicCustomTool: custom tools only', () => {
    const sent = [weatherTool, { ...weatherTool, type: 'custom' }, { type: 'web_search_20250305', name: 'web_search' }];
    const tools = sent.map((tool) => AnthropicToolSchema.parse(tool));
    expect(tools.map(isAnthropicCustomTool)).toEqual([true, true, false]);
  });
});
