import fc from 'fast-check';
import { setPath } from './chat-requests';
import type { FuzzContext } from './fuzz-context';
import { deepNestingArb } from './hostile-values';
import { appendTo, dropPath, fromValue, lit, obj, str, withEntry, type JsonNode } from './json-text';
import type { Twist } from './messages-twists';
import { RESPONSES_TOOLS } from './responses-bodies';

/**
 * Responses-specific shapes a request may take, valid or not: input items, tools and tool
 * choices, text formats, reasoning, limits, state (`previous_response_id`, `store`,
 * `background`), fields newer than the relay. Each names itself in the family.
 */

const value = fromValue;
const field = (name: string, key: string, content: unknown): Twist => ({ name: `${key}:${name}`, apply: (base) => withEntry(base, key, value(content)) });
const input = (name: string, items: unknown): Twist => ({ name: `input:${name}`, apply: (base) => withEntry(base, 'input', value(items)) });
const question = { role: 'user', content: 'What is the weather in Paris?' };
const many = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

const INPUT_TWISTS: Twist[] = [
  input('empty-list', []),
  input('empty-string', ''),
  input('whitespace', ' \n '),
  input('not-a-list', { role: 'user', content: 'hi' }),
  input('number', 42),
  { name: 'input:missing', apply: (base) => dropPath(base, ['input']) },
  { name: 'input:missing-with-instructions', apply: (base) => withEntry(dropPath(base, ['input']), 'instructions', str('Say hello.')) },
  input('role-tool', [{ role: 'tool', content: 'x' }, question]),
  input('role-system', [{ role: 'system', content: 'Be brief.' }, question]),
  input('no-role', [{ content: 'hi' }]),
  input('content-null', [{ role: 'user', content: null }]),
  input('content-number', [{ role: 'user', content: 7 }]),
  input('unknown-part', [{ role: 'user', content: [{ type: 'input_fuzz', data: 1 }, { type: 'input_text', text: 'hi' }] }]),
  input('part-without-type', [{ role: 'user', content: [{ text: 'hi' }] }]),
  input('input-text-missing-text', [{ role: 'user', content: [{ type: 'input_text' }] }]),
  input('image-url', [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: 'http://127.0.0.1:9/cat.png', detail: 'high' }] }]),
  input('image-original', [{ role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'original' }] }]),
  input('image-file-id', [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-fuzz1' }] }]),
  input('image-bad-detail', [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'ultra' }] }]),
  input('file-data', [{ role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' }, { type: 'input_text', text: 'Summarise.' }] }]),
  input('file-id', [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-fuzz1' }] }]),
  input('output-text-from-user', [{ role: 'user', content: [{ type: 'output_text', text: 'odd' }] }]),
  input('refusal-replayed', [question, { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot.' }] }, question]),
  input('assistant-last', [question, { role: 'assistant', content: 'The weather in Paris is' }]),
  input('output-without-call-id', [question, { type: 'function_call_output', output: 'x' }]),
  input('output-orphan', [question, { type: 'function_call_output', call_id: 'call_nowhere', output: 'x' }]),
  input('output-parts', [
    question,
    { type: 'function_call', call_id: 'call_p', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_p', output: [{ type: 'input_text', text: 'Sunny' }] },
  ]),
  input('call-unanswered', [question, { type: 'function_call', call_id: 'call_u', name: 'get_weather', arguments: '{}' }, { role: 'user', content: 'Never mind.' }]),
  input('call-bad-arguments', [question, { type: 'function_call', call_id: 'call_b', name: 'get_weather', arguments: '{not json' }, { type: 'function_call_output', call_id: 'call_b', output: 'x' }]),
  input('call-arguments-object', [question, { type: 'function_call', call_id: 'call_o', name: 'get_weather', arguments: { city: 'Paris' } }]),
  input('call-status-null', [question, { type: 'function_call', call_id: 'call_n', name: 'get_weather', arguments: '{}', status: null }, { type: 'function_call_output', call_id: 'call_n', output: 'x' }]),
  input('duplicate-call-ids', [
    question,
    { type: 'function_call', call_id: 'call_d', name: 'get_weather', arguments: '{}' },
    { type: 'function_call', call_id: 'call_d', name: 'get_time', arguments: '{}' },
    { type: 'function_call_output', call_id: 'call_d', output: 'x' },
  ]),
  input('reasoning-encrypted', [question, { type: 'reasoning', id: 'rs_e', summary: [], encrypted_content: 'gAAAAABfuzz' }, question]),
  input('reasoning-no-summary', [question, { type: 'reasoning', id: 'rs_n' }, question]),
  input('item-reference', [{ type: 'item_reference', id: 'msg_fuzz_earlier' }, question]),
  input('item-reference-no-id', [{ type: 'item_reference' }, question]),
  input('hosted-call-item', [question, { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'Paris' } }, question]),
  input('unknown-item', [{ type: 'fuzz_item', payload: { a: 1 } }, question]),
  input('many', many(300, (index) => (index % 2 === 0 ? { role: 'user', content: `turn ${index}` } : { role: 'assistant', content: `reply ${index}` }))),
  input('long-text', 'Paris '.repeat(20_000)),
];

const TOOL_TWISTS: Twist[] = [
  field('hosted-web-search', 'tools', [{ type: 'web_search' }]),
  field('hosted-and-function', 'tools', [...RESPONSES_TOOLS, { type: 'file_search', vector_store_ids: ['vs_fuzz'] }]),
  field('mcp', 'tools', [{ type: 'mcp', server_label: 'fuzz', server_url: 'http://127.0.0.1:9/mcp' }]),
  field('custom', 'tools', [{ type: 'custom', name: 'grammar', description: 'Free text' }]),
  field('no-name', 'tools', [{ type: 'function', parameters: { type: 'object' } }]),
  field('empty-name', 'tools', [{ type: 'function', name: '' }]),
  field('chat-shaped', 'tools', [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }]),
  field('no-parameters', 'tools', [{ type: 'function', name: 'get_weather' }]),
  field('parameters-string', 'tools', [{ type: 'function', name: 'get_weather', parameters: 'city' }]),
  field('strict-null', 'tools', [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: null }]),
  field('duplicate-names', 'tools', [RESPONSES_TOOLS[0], RESPONSES_TOOLS[0]]),
  field('not-a-list', 'tools', { get_weather: RESPONSES_TOOLS[0] }),
  field('empty', 'tools', []),
  field('two-hundred', 'tools', many(200, (index) => ({ type: 'function', name: `tool_${index}`, parameters: { type: 'object', properties: {} } }))),
  field('required', 'tool_choice', 'required'),
  field('none', 'tool_choice', 'none'),
  field('auto', 'tool_choice', 'auto'),
  field('named', 'tool_choice', { type: 'function', name: 'get_time' }),
  field('named-unknown', 'tool_choice', { type: 'function', name: 'get_nothing' }),
  field('named-without-name', 'tool_choice', { type: 'function' }),
  field('hosted', 'tool_choice', { type: 'web_search' }),
  field('allowed-tools', 'tool_choice', { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] }),
  field('bogus', 'tool_choice', 'sometimes'),
  field('off', 'parallel_tool_calls', false),
  field('string', 'parallel_tool_calls', 'yes'),
];

const TEXT_TWISTS: Twist[] = [
  field('json-schema', 'text', { format: { type: 'json_schema', name: 'weather', schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] } } }),
  field('json-schema-no-name', 'text', { format: { type: 'json_schema', schema: { type: 'object' } } }),
  field('json-schema-no-schema', 'text', { format: { type: 'json_schema', name: 'x' } }),
  field('json-schema-ref', 'text', { format: { type: 'json_schema', name: 'tree', schema: { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' } } }),
  field('json-object', 'text', { format: { type: 'json_object' } }),
  field('format-unknown', 'text', { format: { type: 'yaml' } }),
  field('format-string', 'text', { format: 'json' }),
  field('verbosity', 'text', { verbosity: 'low' }),
  field('not-an-object', 'text', 'json'),
];

const SETTINGS_TWISTS: Twist[] = [
  field('effort-minimal', 'reasoning', { effort: 'minimal' }),
  field('effort-high-detailed', 'reasoning', { effort: 'high', summary: 'detailed' }),
  field('effort-bogus', 'reasoning', { effort: 'maximum' }),
  field('null', 'reasoning', null),
  field('generate-summary', 'reasoning', { generate_summary: 'concise' }),
  field('one', 'max_output_tokens', 1),
  field('zero', 'max_output_tokens', 0),
  field('huge', 'max_output_tokens', 1_000_000_000),
  field('string', 'max_output_tokens', '16'),
  field('null', 'max_output_tokens', null),
  field('too-hot', 'temperature', 2.5),
  field('zero', 'temperature', 0),
  field('too-wide', 'top_p', 1.5),
  field('five', 'top_logprobs', 5),
  field('too-many', 'top_logprobs', 21),
  field('encrypted-reasoning', 'include', ['reasoning.encrypted_content']),
  field('logprobs', 'include', ['message.output_text.logprobs']),
  field('bogus', 'include', ['fuzz.everything']),
  field('on', 'background', true),
  { name: 'background:without-store', apply: (base) => withEntry(withEntry(base, 'background', lit('true')), 'store', lit('false')) },
  field('auto', 'truncation', 'auto'),
  field('bogus', 'truncation', 'sometimes'),
  field('off', 'store', false),
  field('string', 'store', 'yes'),
  field('many-keys', 'metadata', Object.fromEntries(many(20, (index): [string, string] => [`k${index}`, 'v']))),
  field('number-value', 'metadata', { n: 1 }),
  field('obfuscation-off', 'stream_options', { include_obfuscation: false }),
  field('cache-key', 'prompt_cache_key', 'fuzz-session-1'),
  field('flex', 'service_tier', 'flex'),
  field('set', 'safety_identifier', 'user-fuzz'),
  field('set', 'user', 'user-fuzz'),
  field('id', 'conversation', 'conv_fuzz1'),
  field('stored', 'prompt', { id: 'pmpt_fuzz1', version: '2' }),
  field('set', 'max_tool_calls', 2),
  field('new-field', 'x_future_setting', { enabled: true }),
];

/** `previous_response_id` to each stored response, a missing one, and ids of no shape at all. */
const previousTwistArb = (context: FuzzContext): fc.Arbitrary<Twist> => {
  const { previous, deletable } = context.responses;
  return fc
    .constantFrom<[string, unknown]>(
      ['native', previous.native],
      ['bridged', previous.bridged],
      ['chained', previous.chained],
      ['unstored', previous.unstored],
      ['deletable', deletable[0]],
      ['unknown', 'resp_0123456789abcdef0123456789abcdef0123456789abcdef'],
      ['empty', ''],
      ['null', null],
      ['number', 7],
      ['long', `resp_${'a'.repeat(5_000)}`],
      ['percent', '%ff%00'],
      ['traversal', '../../api/tokens'],
    )
    .map(([name, id]) => field(name, 'previous_response_id', id));
};

/** A huge or deep value in a schema or beside it. */
const deepTwistArb: fc.Arbitrary<Twist> = fc
  .tuple(deepNestingArb, fc.constantFrom<Array<string | number>>(['tools', 0, 'parameters', 'properties', 'city'], ['tools', 0, 'x_deep'], ['text', 'format', 'schema'], ['input', 0, 'x_deep'], ['metadata'], ['reasoning']))
  .map(([deep, path]) => ({
    name: `deep:${path.join('.')}`,
    apply: (base) => setPath(path[0] === 'text' ? withEntry(base, 'text', value({ format: { type: 'json_schema', name: 'deep', schema: {} } })) : path[0] === 'input' ? withEntry(base, 'input', value([{ role: 'user', content: 'hi' }])) : base, path, deep),
  }));

/** Keys repeated: the parser keeps the last one, a validator that looks twice may not. */
export const duplicateKeyTwistArb: fc.Arbitrary<Twist> = fc.constantFrom('model', 'input', 'stream', 'previous_response_id', 'tools').map((key) => ({
  name: `duplicate-key:${key}`,
  apply: (base: JsonNode) => (base.kind === 'object' ? obj([...base.entries, [key, key === 'input' ? lit('[]') : key === 'tools' ? str('x') : lit('1e300')]]) : base),
}));

/** A required field (or one a converter reads) left out. */
const MISSING_TWISTS: Twist[] = [['model'], ['input', 0, 'role'], ['input', 0, 'content'], ['tools', 0, 'name'], ['tools', 0, 'type'], ['text', 'format', 'type']].map((path) => ({
  name: `missing:${path.join('.')}`,
  apply: (base: JsonNode) => dropPath(base, path),
}));

/** Every twist, the parametrised ones drawn. */
export const responsesTwistArb = (context: FuzzContext): fc.Arbitrary<Twist> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...INPUT_TWISTS) },
    { weight: 5, arbitrary: fc.constantFrom(...TOOL_TWISTS) },
    { weight: 3, arbitrary: fc.constantFrom(...TEXT_TWISTS) },
    { weight: 6, arbitrary: fc.constantFrom(...SETTINGS_TWISTS) },
    { weight: 4, arbitrary: previousTwistArb(context) },
    { weight: 2, arbitrary: fc.constantFrom(...MISSING_TWISTS) },
    { weight: 1, arbitrary: deepTwistArb },
    { weight: 1, arbitrary: fc.constant<Twist>({ name: 'tools:appended-hosted', apply: (base) => appendTo(base, 'tools', value({ type: 'code_interpreter', container: { type: 'auto' } })) }) },
  );
