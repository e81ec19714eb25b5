import { postAnthropic, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse } from './anthropic-api';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const user = (content: unknown) => ({ role: 'user', content });
const finalResult = {
  name: 'final_result',
  description: 'The final response which ends this conversation',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, country: { type: 'string' } },
    required: ['city', 'country'],
  },
};
/** The prompt of a recorded count_tokens call (pydantic-ai's adaptive-thinking + output-tool test). */
const prompt = {
  model: 'claude-opus-4-6',
  messages: [user([{ type: 'text', text: 'What is the capital of France?' }])],
  system: [{ type: 'text', text: 'Answer with the final_result tool.' }],
  thinking: { type: 'adaptive' },
  tool_choice: { type: 'any' },
  tools: [finalResult, { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
};

function countTokens(body: unknown, init: { beta?: string; key?: string } = {}): Promise<Response> {
  return postAnthropic(sim, body, { ...init, path: '/messages/count_tokens' });
}

async function counted(body: unknown): Promise<number> {
  const response = await countTokens(body);
  const json = (await response.json()) as { input_tokens: number };
  expect(response.status).toBe(200);
  expect(Object.keys(json)).toEqual(['input_tokens']);
  return json.input_tokens;
}

async function errorOf(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

const invalid = (message: string) => ({ type: 'error', error: { type: 'invalid_request_error', message } });

describe('POST /v1/messages/count_tokens', () => {
  it('counts what /v1/messages reports as its prompt: input + cache writes + cache reads', async () => {
    const tokens = await counted(prompt);
    const response = await postAnthropic(sim, { ...prompt, max_tokens: 4096 });
    const { usage } = (await response.json()) as AnthropicMessageResponse;
    expect(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(tokens);

    const cached = { ...prompt, cache_control: { type: 'ephemeral', ttl: '5m' } };
    expect(await counted(cached)).toBe(tokens);
    const written = ((await (await postAnthropic(sim, { ...cached, max_tokens: 4096 })).json()) as AnthropicMessageResponse).usage;
    expect(written.cache_creation_input_tokens).toBe(tokens);
  });

  it('counts tools, system and every turn: the count grows with each', async () => {
    const bare = await counted({ model: prompt.model, messages: prompt.messages });
    const withSystem = await counted({ model: prompt.model, messages: prompt.messages, system: prompt.system });
    const withTools = await counted({ model: prompt.model, messages: prompt.messages, system: prompt.system, tools: prompt.tools });
    expect(bare).toBeGreaterThan(0);
    expect(withSystem).toBeGreaterThan(bare);
    expect(withTools).toBeGreaterThan(withSystem);
    const longer = [...prompt.messages, { role: 'assistant', content: 'Paris.' }, user('And Spain?')];
    expect(await counted({ model: prompt.model, messages: longer })).toBeGreaterThan(bare);
  });

  it('answers 404 not_found_error for a model it does not know, as the API does', async () => {
    expect(await errorOf(await countTokens({ model: 'claude-does-not-exist', messages: [user('hello')] }))).toEqual({
      status: 404,
      body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-does-not-exist' } },
    });
  });

  it('refuses max_tokens and stream, which belong to /v1/messages', async () => {
    expect(await errorOf(await countTokens({ ...prompt, max_tokens: 1024 }))).toEqual({
      status: 400,
      body: invalid('max_tokens: Extra inputs are not permitted'),
    });
    expect(await errorOf(await countTokens({ ...prompt, stream: false }))).toEqual({
      status: 400,
      body: invalid('stream: Extra inputs are not permitted'),
    });
  });

  it('refuses what /v1/messages refuses: blank text, a forged thinking signature, a small budget', async () => {
    const empty = await countTokens({ model: prompt.model, messages: [user([{ type: 'text', text: '' }])] });
    expect(await errorOf(empty)).toEqual({ status: 400, body: invalid('messages: text content blocks must be non-empty') });
    const forged = [
      user('a'),
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 'bm90IGl0' }, { type: 'text', text: 'b' }] },
      user('c'),
    ];
    expect(await errorOf(await countTokens({ model: prompt.model, messages: forged }))).toEqual({
      status: 400,
      body: invalid('messages.1.content.0: Invalid `signature` in `thinking` block'),
    });
    const budget = await countTokens({ ...prompt, thinking: { type: 'enabled', budget_tokens: 100 } });
    expect(await errorOf(budget)).toEqual({
      status: 400,
      body: invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'),
    });
    // No max_tokens to compare with: any budget from 1024 up is fine.
    expect(await counted({ ...prompt, thinking: { type: 'enabled', budget_tokens: 100_000 } })).toBe(await counted(prompt));
  });

  it('checks the headers like /v1/messages, and plays no queued fault', async () => {
    expect((await countTokens(prompt, { key: '' })).status).toBe(401);
    expect((await countTokens(prompt, { beta: 'made-up-2099-01-01' })).status).toBe(400);
    expect((await countTokens(prompt, { beta: 'token-counting-2024-11-01' })).status).toBe(200);
    sim.failNext({ kind: 'status', status: 529 });
    expect((await countTokens(prompt)).status).toBe(200);
    expect((await postAnthropic(sim, { ...prompt, max_tokens: 4096 })).status).toBe(529);
  });
});
