import { ChatCompletionRequestSchema, MAX_CHOICES, MAX_OUTPUT_TOKENS } from '@chat-relay/contract';
import { isPlainChatRequest } from './plain-chat-request';
import { serverContract } from './server-contract';
import { seededRandom } from '../../test/testing/seeded-random';

/** Numbers at and past every bound, and the ones float arithmetic gets wrong (issue 10 defect 3). */
const EXTREME_NUMBERS: number[] = [
  1e300, -1e300, 1e21, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.MAX_VALUE,
  Number.MIN_VALUE, 1e-300, -0, MAX_OUTPUT_TOKENS, MAX_OUTPUT_TOKENS + 1, MAX_CHOICES, MAX_CHOICES + 1, Number.NaN,
  Number.NEGATIVE_INFINITY,
];

const ODD_VALUES: unknown[] = [null, true, false, 0, -1, 1, 0.5, 1.5, 2, 2.5, 3, 20, 21, 128, 129, -2, -2.5, Number.POSITIVE_INFINITY, '', 'x', [], ['a'], {}, { a: 1 }, ...EXTREME_NUMBERS];

const FIELD_VALUES: Record<string, unknown[]> = {
  model: ['gpt-4o', '', 7, null],
  stream: [true, false, null, 'yes'],
  stream_options: [null, {}, { include_usage: true }, { include_usage: 'yes' }, { include_obfuscation: false, other: 1 }, []],
  parallel_tool_calls: [true, null],
  temperature: [0, 2, 2.01, -0.1, null, '1', ...EXTREME_NUMBERS],
  top_p: [0, 1, 1.01, null],
  frequency_penalty: [-2, 2, -2.01, 2.01, null],
  presence_penalty: [-2, 0, 3, null],
  n: [1, 128, 0, 129, 1.5, null, ...EXTREME_NUMBERS],
  seed: [0, -5, 1.5, null, ...EXTREME_NUMBERS],
  max_tokens: [1, 0, -1, 2.5, null, ...EXTREME_NUMBERS],
  max_completion_tokens: [1, 4096, 0, null, ...EXTREME_NUMBERS],
  logprobs: [true, null, 1],
  top_logprobs: [0, 20, 21, null, ...EXTREME_NUMBERS],
  user: ['u', null],
  store: [false, null],
  reasoning_effort: ['low', null, 1],
  service_tier: ['auto', null],
  tools: [[{ type: 'function', function: { name: 'f' } }], []],
  stop: ['x', ['a', 'b'], null],
  metadata: [{ a: 'b' }, null],
  response_format: [{ type: 'json_object' }],
  logit_bias: [{ '1': 2 }],
  unknown_field: [...ODD_VALUES],
};

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)] as T;
}

const PLAIN_MESSAGES: unknown[] = [
  { role: 'user', content: 'hi' },
  { role: 'system', content: 'Be brief.', name: 'policy' },
  { role: 'assistant', content: 'Hello' },
  { role: 'developer', content: '' },
  { role: 'tool', content: '{}', tool_call_id: 'call_1' },
];

function message(next: () => number): unknown {
  // Mostly well-formed text messages, some anything-goes ones.
  if (next() < 0.75) return structuredClone(pick(next, PLAIN_MESSAGES));
  const role = pick(next, ['system', 'developer', 'user', 'assistant', 'tool', 'function', 'robot', 5]);
  const out: Record<string, unknown> = { role };
  if (next() < 0.9) out['content'] = pick(next, ['hi', '', null, [{ type: 'text', text: 'hi' }], 3, [{ type: 'text' }]]);
  if (next() < 0.2) out['name'] = pick(next, ['n', '', 1, null]);
  if (next() < 0.3) out['tool_call_id'] = pick(next, ['call_1', '', 2]);
  if (next() < 0.1) out['tool_calls'] = [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }];
  if (next() < 0.1) out['refusal'] = pick(next, ['no', null]);
  if (next() < 0.1) out['extra'] = pick(next, ODD_VALUES);
  return out;
}

function request(next: () => number): unknown {
  const out: Record<string, unknown> = {};
  if (next() < 0.95) out['model'] = next() < 0.9 ? 'gpt-4o' : pick(next, FIELD_VALUES['model'] as unknown[]);
  if (next() < 0.95) {
    const count = Math.floor(next() * 4) + (next() < 0.05 ? 0 : 1);
    out['messages'] = next() < 0.03 ? 'not a list' : Array.from({ length: count }, () => message(next));
  }
  for (const [field, values] of Object.entries(FIELD_VALUES)) {
    // The first values of each list are the ones the contract accepts: favour them.
    const likely = next() < 0.7 ? values.slice(0, Math.ceil(values.length / 2)) : values;
    if (field !== 'model' && next() < 0.1) out[field] = pick(next, likely);
  }
  return out;
}

describe('isPlainChatRequest', () => {
  it('vouches only for bodies the contract accepts and returns unchanged (5,000 random bodies, seeded)', () => {
    const next = seededRandom(20261121);
    let vouched = 0;
    let leftToZod = 0;
    for (let index = 0; index < 5000; index += 1) {
      const body = request(next);
      const parsed = ChatCompletionRequestSchema.safeParse(body);
      if (isPlainChatRequest(body)) {
        vouched += 1;
        if (!parsed.success) throw new Error(`vouched for a body zod refuses: ${JSON.stringify(body)}`);
        expect(parsed.data).toEqual(body);
      } else if (parsed.success) {
        leftToZod += 1;
      }
    }
    // Both paths are exercised, so the comparison above means something.
    expect(vouched).toBeGreaterThan(500);
    expect(leftToZod).toBeGreaterThan(200);
  });

  it('vouches for text conversations with simple parameters and unknown fields', () => {
    expect(
      isPlainChatRequest({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi', name: 'ann', x_custom: [1] },
          { role: 'assistant', content: 'Hello' },
          { role: 'tool', content: '{}', tool_call_id: 'call_1' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.2,
        max_completion_tokens: 100,
        vendor_option: { anything: true },
      }),
    ).toBe(true);
  });

  it.each([
    ['tools', { tools: [{ type: 'function', function: { name: 'f' } }] }],
    ['content parts', { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }],
    ['an assistant tool call', { messages: [{ role: 'assistant', content: null, tool_calls: [] }] }],
    ['a tool message without its id', { messages: [{ role: 'tool', content: 'x' }] }],
    ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}') as object],
    ['temperature out of range', { temperature: 2.5 }],
  ])('leaves a body with %s to zod', (_case, fields) => {
    expect(isPlainChatRequest({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...fields })).toBe(false);
  });
});

describe('serverContract', () => {
  const body = serverContract.chat.createChatCompletion.body;

  it('hands back a vouched-for body itself, without a copy', () => {
    const sent = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const result = body.safeParse(sent);
    expect(result.success && result.data).toBe(sent);
  });

  it('answers anything else with the contract schema, errors included', () => {
    const sent = { model: 'm', messages: [{ role: 'robot', content: 'hi' }] };
    const result = body.safeParse(sent);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual(ChatCompletionRequestSchema.safeParse(sent).error?.issues);
  });
});
