import fc from 'fast-check';
import { setPath } from './chat-requests';
import { deepNestingArb } from './hostile-values';
import { appendTo, arr, dropPath, fromValue, lit, obj, str, withEntry, type JsonNode } from './json-text';
import { TOOL_LOOP_MESSAGES, userTurn, WEATHER_QUESTION } from './messages-bodies';

/**
 * Anthropic-specific shapes a Messages request may take, valid or not: block types, conversation
 * shapes, thinking configs, tool choices, stop sequences, tools. Each names itself in the family.
 */
export interface Twist {
  name: string;
  apply(base: JsonNode): JsonNode;
}

const value = fromValue;
/** A block appended to the first user turn (whose content is a block array in every base). */
const block = (name: string, content: unknown): Twist => ({ name: `block:${name}`, apply: (base) => setPath(base, ['messages', 0, 'content', 1], value(content)) });
const field = (name: string, key: string, content: unknown): Twist => ({ name: `${key}:${name}`, apply: (base) => withEntry(base, key, value(content)) });
const turns = (name: string, messages: unknown[]): Twist => ({ name: `turns:${name}`, apply: (base) => withEntry(base, 'messages', value(messages)) });

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF_HEAD = Buffer.from('%PDF-1.4\n%fuzz\n').toString('base64');

const BLOCK_TWISTS: Twist[] = [
  block('unknown-type', { type: 'fuzz_block', payload: { a: 1 } }),
  block('known-type-in-caps', { type: 'Text', text: 'hi' }),
  block('type-number', { type: 7, text: 'hi' }),
  block('no-type', { text: 'hi' }),
  block('empty-text', { type: 'text', text: '' }),
  block('whitespace-text', { type: 'text', text: ' \n\t' }),
  block('text-missing', { type: 'text' }),
  block('text-citations', { type: 'text', text: 'quoted', citations: [{ type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 }] }),
  block('text-bad-citations', { type: 'text', text: 'quoted', citations: 'all of them' }),
  block('image-png', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }),
  block('image-bad-base64', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '!!not base64!!' } }),
  block('image-empty-data', { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } }),
  block('image-bad-media-type', { type: 'image', source: { type: 'base64', media_type: 'image/x-fuzz', data: PNG_1X1 } }),
  block('image-big-base64', { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'A'.repeat(40_000) } }),
  block('image-url', { type: 'image', source: { type: 'url', url: 'http://127.0.0.1:9/cat.png' } }),
  block('image-file', { type: 'image', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' } }),
  block('image-unknown-source', { type: 'image', source: { type: 'fuzz', data: PNG_1X1 } }),
  block('image-no-source', { type: 'image' }),
  block('document-pdf', { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF_HEAD }, title: 'Report', citations: { enabled: true } }),
  block('document-text', { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'The grass is green.' }, context: 'botany' }),
  block('document-content', { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'Part one.' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }] } }),
  block('document-url', { type: 'document', source: { type: 'url', url: 'http://127.0.0.1:9/doc.pdf' } }),
  block('document-wrong-media', { type: 'document', source: { type: 'base64', media_type: 'text/html', data: PDF_HEAD } }),
  block('document-file', { type: 'document', source: { type: 'file', file_id: 'file_011' } }),
  block('search-result', { type: 'search_result', source: 'https://example.com/a', title: 'A', content: [{ type: 'text', text: 'found' }] }),
  block('container-upload', { type: 'container_upload', file_id: 'file_011' }),
  block('tool-result-orphan', { type: 'tool_result', tool_use_id: 'toolu_nowhere', content: 'x' }),
  block('tool-use-in-user-turn', { type: 'tool_use', id: 'toolu_user', name: 'get_weather', input: { city: 'Paris' } }),
  block('tool-use-input-array', { type: 'tool_use', id: 'toolu_user', name: 'get_weather', input: ['Paris'] }),
  block('thinking-in-user-turn', { type: 'thinking', thinking: 'hmm', signature: 'sig' }),
  block('redacted-thinking', { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' }),
  block('server-tool-use', { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather' } }),
  block('cache-control-1h', { type: 'text', text: 'cached', cache_control: { type: 'ephemeral', ttl: '1h' } }),
  block('cache-control-bad-ttl', { type: 'text', text: 'cached', cache_control: { type: 'ephemeral', ttl: '2h' } }),
  block('cache-control-bad-type', { type: 'text', text: 'cached', cache_control: { type: 'persistent' } }),
  block('cache-control-null', { type: 'text', text: 'cached', cache_control: null }),
];

const toolUse = (id: string, extra: unknown[] = []) => ({
  role: 'assistant',
  content: [...extra, { type: 'tool_use', id, name: 'get_weather', input: { city: 'Paris' } }],
});
const toolResult = (id: string, content: unknown = 'Sunny, 21°C', isError?: boolean) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError === undefined ? {} : { is_error: isError }) }],
});
const question = userTurn(WEATHER_QUESTION);

const CONVERSATION_TWISTS: Twist[] = [
  turns('empty', []),
  turns('assistant-first', [{ role: 'assistant', content: 'Hello.' }, question]),
  turns('two-users', [question, userTurn('And in Rome?')]),
  turns('prefill', [question, { role: 'assistant', content: 'The weather in Paris is' }]),
  turns('prefill-trailing-space', [question, { role: 'assistant', content: [{ type: 'text', text: 'The weather is ' }] }]),
  turns('empty-final-assistant', [question, { role: 'assistant', content: [] }]),
  turns('empty-user-content', [{ role: 'user', content: [] }]),
  turns('string-content', [{ role: 'user', content: WEATHER_QUESTION }]),
  turns('empty-string-content', [{ role: 'user', content: '' }]),
  turns('tool-use-unanswered', [question, toolUse('toolu_A'), userTurn('Never mind.')]),
  turns('tool-result-mismatch', [question, toolUse('toolu_A'), toolResult('toolu_B')]),
  turns('tool-result-first', [toolResult('toolu_A'), toolUse('toolu_A')]),
  turns('duplicate-tool-use-ids', [question, { role: 'assistant', content: [toolUse('toolu_A').content[0], toolUse('toolu_A').content[0]] }, toolResult('toolu_A')]),
  turns('tool-result-after-text', [question, toolUse('toolu_A'), { role: 'user', content: [{ type: 'text', text: 'here:' }, toolResult('toolu_A').content[0]] }]),
  turns('tool-result-error-blocks', [
    question,
    toolUse('toolu_A'),
    toolResult('toolu_A', [{ type: 'text', text: 'failed' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }], true),
  ]),
  turns('tool-result-unknown-block', [question, toolUse('toolu_A'), toolResult('toolu_A', [{ type: 'fuzz_result', x: 1 }])]),
  turns('tool-result-empty', [question, toolUse('toolu_A'), toolResult('toolu_A', [])]),
  turns('tool-result-no-content', [question, toolUse('toolu_A'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_A' }] }]),
  turns('tool-result-object', [question, toolUse('toolu_A'), toolResult('toolu_A', { temperature: 21 })]),
  turns('bridged-thinking', [question, toolUse('toolu_A', [{ type: 'thinking', thinking: 'Use the tool.', signature: 'chat-relay:bridged' }]), toolResult('toolu_A')]),
  turns('forged-thinking', [question, toolUse('toolu_A', [{ type: 'thinking', thinking: 'Use the tool.', signature: 'EqQBCkYIBxgC' }]), toolResult('toolu_A')]),
  turns('redacted-thinking', [question, toolUse('toolu_A', [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3' }]), toolResult('toolu_A')]),
  turns('server-tool-round-trip', [
    question,
    {
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'Paris weather' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://example.com', title: 'Weather', encrypted_content: 'Eo8B', page_age: null }] },
        { type: 'text', text: 'It is sunny.', citations: [{ type: 'web_search_result_location', url: 'https://example.com', title: 'Weather', encrypted_index: 'Eo8B', cited_text: 'sunny' }] },
      ],
    },
    userTurn('Thanks. And tomorrow?'),
  ]),
  turns('web-search-error', [
    question,
    { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } }] },
    userTurn('Go on.'),
  ]),
  turns('system-role-turn', [{ role: 'system', content: 'Be brief.' }, question]),
  turns('unknown-roles', [{ role: 'tool', content: 'x' }, { role: 'developer', content: 'y' }, question]),
  turns('many', Array.from({ length: 400 }, (_, index) => (index % 2 === 0 ? userTurn(`turn ${index}`) : { role: 'assistant', content: `reply ${index}` }))),
  turns('tool-loop-with-thinking-off', TOOL_LOOP_MESSAGES),
];

const THINKING_CONFIGS: Array<[string, unknown]> = [
  ['budget-0', { type: 'enabled', budget_tokens: 0 }],
  ['budget-1023', { type: 'enabled', budget_tokens: 1_023 }],
  ['budget-1024', { type: 'enabled', budget_tokens: 1_024 }],
  ['budget-at-max', { type: 'enabled', budget_tokens: 2_048 }],
  ['budget-over-max', { type: 'enabled', budget_tokens: 64_000 }],
  ['budget-negative', { type: 'enabled', budget_tokens: -1 }],
  ['budget-fraction', { type: 'enabled', budget_tokens: 1_500.5 }],
  ['budget-string', { type: 'enabled', budget_tokens: '2048' }],
  ['budget-missing', { type: 'enabled' }],
  ['adaptive', { type: 'adaptive' }],
  ['adaptive-omitted', { type: 'adaptive', display: 'omitted' }],
  ['disabled', { type: 'disabled' }],
  ['disabled-with-budget', { type: 'disabled', budget_tokens: 2_048 }],
  ['between-tools', { type: 'between_tools' }],
  ['unknown-type', { type: 'deep' }],
  ['no-type', {}],
  ['null', null],
  ['string', 'enabled'],
];

/** Thinking configs with room for a budget (max_tokens 2048), sometimes with an effort beside. */
const thinkingTwistArb: fc.Arbitrary<Twist> = fc
  .tuple(fc.constantFrom(...THINKING_CONFIGS), fc.constantFrom(undefined, 'low', 'high', 'max', 'bogus'))
  .map(([[name, config], effort]) => ({
    name: `thinking:${name}${effort ? `+effort-${effort}` : ''}`,
    apply: (base) => {
      const withThinking = withEntry(withEntry(base, 'max_tokens', lit('2048')), 'thinking', value(config));
      return effort ? withEntry(withThinking, 'output_config', value({ effort })) : withThinking;
    },
  }));

const TOOL_CHOICES: Array<[string, unknown]> = [
  ['auto', { type: 'auto' }],
  ['any', { type: 'any' }],
  ['tool', { type: 'tool', name: 'get_weather' }],
  ['tool-unknown-name', { type: 'tool', name: 'no_such_tool' }],
  ['tool-no-name', { type: 'tool' }],
  ['none', { type: 'none' }],
  ['auto-no-parallel', { type: 'auto', disable_parallel_tool_use: true }],
  ['any-parallel-string', { type: 'any', disable_parallel_tool_use: 'yes' }],
  ['required', { type: 'required' }],
  ['string', 'auto'],
  ['openai-shape', { type: 'function', function: { name: 'get_weather' } }],
];

const toolChoiceTwistArb: fc.Arbitrary<Twist> = fc.tuple(fc.constantFrom(...TOOL_CHOICES), fc.boolean()).map(([[name, choice], dropTools]) => ({
  name: `tool_choice:${name}${dropTools ? '+no-tools' : ''}`,
  apply: (base) => {
    const chosen = withEntry(base, 'tool_choice', value(choice));
    return dropTools && chosen.kind === 'object' ? obj(chosen.entries.filter(([key]) => key !== 'tools')) : chosen;
  },
}));

const STOP_SEQUENCE_TWISTS: Twist[] = [
  field('none', 'stop_sequences', []),
  field('human', 'stop_sequences', ['\n\nHuman:']),
  field('four', 'stop_sequences', ['a', 'b', 'c', 'd']),
  field('five', 'stop_sequences', ['a', 'b', 'c', 'd', 'e']),
  field('hundred', 'stop_sequences', Array.from({ length: 100 }, (_, index) => `stop-${index}`)),
  field('ten-thousand', 'stop_sequences', Array.from({ length: 10_000 }, (_, index) => `s${index}`)),
  field('empty-string', 'stop_sequences', ['']),
  field('long', 'stop_sequences', ['x'.repeat(10_000)]),
  field('numbers', 'stop_sequences', [1, 2]),
  field('null-item', 'stop_sequences', [null]),
  field('string', 'stop_sequences', 'STOP'),
];

const SERVER_TOOLS: Array<[string, unknown]> = [
  ['web-search', { type: 'web_search_20250305', name: 'web_search', max_uses: 5, allowed_domains: ['example.com'] }],
  ['web-fetch', { type: 'web_fetch_20250910', name: 'web_fetch', max_uses: 2 }],
  ['bash', { type: 'bash_20250124', name: 'bash' }],
  ['text-editor', { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }],
  ['code-execution', { type: 'code_execution_20250825', name: 'code_execution' }],
  ['computer', { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 }],
  ['memory', { type: 'memory_20250818', name: 'memory' }],
  ['mcp-toolset', { type: 'mcp_toolset', mcp_server_name: 'fuzz' }],
  ['custom-null-type', { type: null, name: 'get_time', input_schema: { type: 'object' } }],
  ['custom-type', { type: 'custom', name: 'get_time', input_schema: { type: 'object', properties: {} } }],
  ['custom-strict', { name: 'get_time', strict: true, defer_loading: true, input_examples: [{}], input_schema: { type: 'object', properties: {} } }],
];

const weather = (schema: unknown, name = 'get_weather') => ({ name, description: 'Weather', input_schema: schema });
const many = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

const TOOL_TWISTS: Twist[] = [
  field('no-input-schema', 'tools', [{ name: 'get_weather' }]),
  field('schema-string-type', 'tools', [weather({ type: 'string' })]),
  field('schema-empty', 'tools', [weather({})]),
  field('schema-properties-string', 'tools', [weather({ type: 'object', properties: 'city' })]),
  field('schema-ref-loop', 'tools', [weather({ type: 'object', properties: { a: { $ref: '#' } }, $defs: { x: { $ref: '#/$defs/x' } } })]),
  field('schema-many-properties', 'tools', [weather({ type: 'object', properties: Object.fromEntries(many(2_000, (index): [string, unknown] => [`p${index}`, { type: 'string' }])) })]),
  field('schema-huge-enum', 'tools', [weather({ type: 'object', properties: { city: { type: 'string', enum: many(5_000, (index) => `city-${index}`) } } })]),
  field('schema-wide-anyof', 'tools', [weather({ type: 'object', properties: { v: { anyOf: many(500, (index) => ({ type: 'object', properties: { [`k${index}`]: { type: 'integer' } } })) } } })]),
  field('three-hundred-tools', 'tools', many(300, (index) => weather({ type: 'object', properties: {} }, `tool_${index}`))),
  field('duplicate-names', 'tools', [weather({ type: 'object' }), weather({ type: 'object' })]),
  field('empty-name', 'tools', [weather({ type: 'object' }, '')]),
  field('odd-name', 'tools', [weather({ type: 'object' }, 'get weather/ü?'.repeat(20))]),
  field('object-not-array', 'tools', { get_weather: weather({ type: 'object' }) }),
  field('empty', 'tools', []),
  field('huge-description', 'tools', [{ ...weather({ type: 'object' }), description: 'd'.repeat(30_000) }]),
];

/** Fields naming what lives at Anthropic, and fields newer than the relay. */
const EXTRA_FIELD_TWISTS: Twist[] = [
  field('mcp', 'mcp_servers', [{ type: 'url', url: 'http://127.0.0.1:9/sse', name: 'fuzz' }]),
  field('container', 'container', 'container_011'),
  field('context-management', 'context_management', { edits: [{ type: 'clear_tool_uses_20250919' }] }),
  field('json-schema', 'output_config', { format: { type: 'json_schema', schema: { type: 'object', properties: { answer: { type: 'string' } } } } }),
  field('format-unknown', 'output_config', { format: { type: 'yaml' } }),
  field('effort-only', 'output_config', { effort: 'medium' }),
  field('request-breakpoint', 'cache_control', { type: 'ephemeral' }),
  field('service-tier', 'service_tier', 'standard_only'),
  field('top-k', 'top_k', 40),
  field('temperature-2', 'temperature', 2),
  field('system-string', 'system', 'You are terse.'),
  field('system-empty-block', 'system', [{ type: 'text', text: '' }]),
  field('system-image', 'system', [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }]),
  field('system-five-breakpoints', 'system', many(5, (index) => ({ type: 'text', text: `part ${index}`, cache_control: { type: 'ephemeral' } }))),
];

/** A huge or deep tool schema: the schema itself, or nested beside it. */
const deepToolTwistArb: fc.Arbitrary<Twist> = fc
  .tuple(deepNestingArb, fc.constantFrom<Array<string | number>>(['tools', 0, 'input_schema', 'properties', 'city'], ['tools', 0, 'input_schema'], ['tools', 0, 'x_deep'], ['messages', 0, 'content', 0, 'x_deep'], ['metadata']))
  .map(([deep, path]) => ({ name: `deep:${path.join('.')}`, apply: (base) => setPath(base, path, deep) }));

/** A required field (or one a converter reads) left out. */
const MISSING_FIELD_TWISTS: Twist[] = [
  ['model'],
  ['max_tokens'],
  ['messages'],
  ['messages', 0, 'role'],
  ['messages', 0, 'content'],
  ['messages', 0, 'content', 0, 'type'],
  ['messages', 0, 'content', 0, 'text'],
  ['tools', 0, 'name'],
  ['tools', 0, 'input_schema'],
  ['tools', 0, 'input_schema', 'type'],
  ['system', 1, 'text'],
  ['thinking', 'budget_tokens'],
].map((path) => ({ name: `missing:${path.join('.')}`, apply: (base: JsonNode) => dropPath(base, path) }));

/** Every twist, the parametrised ones drawn. */
export const twistArb: fc.Arbitrary<Twist> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...BLOCK_TWISTS) },
  { weight: 5, arbitrary: fc.constantFrom(...CONVERSATION_TWISTS) },
  { weight: 3, arbitrary: thinkingTwistArb },
  { weight: 2, arbitrary: toolChoiceTwistArb },
  { weight: 2, arbitrary: fc.constantFrom(...STOP_SEQUENCE_TWISTS) },
  { weight: 2, arbitrary: fc.constantFrom(...SERVER_TOOLS).map(([name, tool]): Twist => ({ name: `tools:server-${name}`, apply: (base) => appendTo(base, 'tools', value(tool)) })) },
  { weight: 3, arbitrary: fc.constantFrom(...TOOL_TWISTS) },
  { weight: 2, arbitrary: fc.constantFrom(...EXTRA_FIELD_TWISTS) },
  { weight: 2, arbitrary: fc.constantFrom(...MISSING_FIELD_TWISTS) },
  { weight: 1, arbitrary: deepToolTwistArb },
);

/** Keys repeated: the parser keeps the last one, a validator that looks twice may not. */
export const duplicateKeyTwistArb: fc.Arbitrary<Twist> = fc.constantFrom('model', 'messages', 'max_tokens', 'stream', 'thinking').map((key) => ({
  name: `duplicate-key:${key}`,
  apply: (base) => (base.kind === 'object' ? obj([...base.entries, [key, key === 'messages' ? str('x') : key === 'thinking' ? arr([]) : lit('1e300')]]) : base),
}));
