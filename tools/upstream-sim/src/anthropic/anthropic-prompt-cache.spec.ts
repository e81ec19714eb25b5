import { parseSse, postAnthropic, readAll } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { AnthropicMessageResponse, AnthropicStreamEvent, AnthropicUsage } from './anthropic-api';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const ephemeral = { type: 'ephemeral' };
const cachedSystem = [
  { type: 'text', text: 'You are a careful assistant. Answer briefly, in plain words, and cite what you use.', cache_control: ephemeral },
];
const weatherTool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const ask = (body: Record<string, unknown>) => ({ model: 'claude-sonnet-4-5', max_tokens: 256, ...body });

async function usageOf(body: Record<string, unknown>, key?: string): Promise<AnthropicUsage> {
  const response = await postAnthropic(sim, ask(body), { key });
  expect(response.status).toBe(200);
  return ((await response.json()) as AnthropicMessageResponse).usage;
}

async function countOf(body: Record<string, unknown>): Promise<number> {
  const response = await postAnthropic(sim, { model: 'claude-sonnet-4-5', ...body }, { path: '/messages/count_tokens' });
  expect(response.status).toBe(200);
  return ((await response.json()) as { input_tokens: number }).input_tokens;
}

const promptOf = (usage: AnthropicUsage) => usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;

describe('prompt caching', () => {
  it('writes the prefix up to a breakpoint the first time, reads it after; the rest is input_tokens', async () => {
    const body = { system: cachedSystem, messages: [user('Hi there')] };
    const first = await usageOf(body);
    expect(first.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.cache_read_input_tokens).toBe(0);
    expect(first.input_tokens).toBeGreaterThan(0);
    expect(first.cache_creation).toEqual({ ephemeral_5m_input_tokens: first.cache_creation_input_tokens, ephemeral_1h_input_tokens: 0 });
    expect(promptOf(first)).toBe(await countOf(body));

    const again = await usageOf(body);
    expect(again).toMatchObject({
      input_tokens: first.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: first.cache_creation_input_tokens,
    });
    // Another question after the same system prompt still reads it.
    const other = await usageOf({ system: cachedSystem, messages: [user('Something else entirely')] });
    expect(other.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('keys the cache by model and by content, not by the cache_control marker', async () => {
    const body = { system: cachedSystem, messages: [user('Hi there')] };
    const first = await usageOf(body);
    expect((await usageOf({ ...body, model: 'claude-haiku-4-5' })).cache_read_input_tokens).toBe(0);
    const changed = [{ ...cachedSystem[0], text: `${cachedSystem[0]?.text} Be kind.` }];
    expect((await usageOf({ system: changed, messages: [user('Hi there')] })).cache_read_input_tokens).toBe(0);
    const explicitTtl = [{ ...cachedSystem[0], cache_control: { type: 'ephemeral', ttl: '5m' } }];
    expect((await usageOf({ system: explicitTtl, messages: [user('Hi there')] })).cache_read_input_tokens).toBe(
      first.cache_creation_input_tokens,
    );
  });

  it("keeps each API key's cache apart: a key is a workspace, and Anthropic isolates caches between workspaces", async () => {
    const body = { system: cachedSystem, messages: [user('Hi there')] };
    const first = await usageOf(body, 'sk-ant-workspace-a');
    expect(first.cache_creation_input_tokens).toBeGreaterThan(0);
    const otherKey = await usageOf(body, 'sk-ant-workspace-b');
    expect(otherKey).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: first.cache_creation_input_tokens });
    expect((await usageOf(body, 'sk-ant-workspace-a')).cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('automatic caching (top-level cache_control) reads the previous turn and writes the new part', async () => {
    const turn1 = [user('What is the capital of France?')];
    const first = await usageOf({ cache_control: ephemeral, messages: turn1 });
    expect(first).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0 });
    expect(first.cache_creation_input_tokens).toBe(await countOf({ messages: turn1 }));

    const turn2 = [...turn1, assistant('You said: What is the capital of France?'), user('And of Spain?')];
    const second = await usageOf({ cache_control: ephemeral, messages: turn2 });
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBe((await countOf({ messages: turn2 })) - first.cache_creation_input_tokens);
    expect(second.input_tokens).toBe(0);
  });

  it('finds an earlier breakpoint within 20 blocks of a later one, but not beyond', async () => {
    const blocks = (count: number, word = 'fact') =>
      Array.from({ length: count }, (_, index) => ({ type: 'text', text: `${word} ${index}` }));
    const marked = (list: Array<Record<string, unknown>>) => [...list.slice(0, -1), { ...list.at(-1), cache_control: ephemeral }];
    const base = blocks(5);
    const first = await usageOf({ messages: [user(marked(base))] });
    const near = await usageOf({ messages: [user(marked([...base, ...blocks(19, 'more')]))] });
    expect(near.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    sim.reset();
    await usageOf({ messages: [user(marked(base))] });
    const far = await usageOf({ messages: [user(marked([...base, ...blocks(20, 'more')]))] });
    expect(far.cache_read_input_tokens).toBe(0);
  });

  it('puts writes in the 1h or 5m bucket of the breakpoint that covers them', async () => {
    const system = [{ ...cachedSystem[0], cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const messages = [user([{ type: 'text', text: 'A long question about caches', cache_control: ephemeral }])];
    const usage = await usageOf({ system, messages });
    const systemOnly = await countOf({ system: cachedSystem, messages: [user('x')] });
    const { ephemeral_1h_input_tokens: hour, ephemeral_5m_input_tokens: minutes } = usage.cache_creation;
    expect(hour).toBe(systemOnly - (await countOf({ messages: [user('x')] })));
    expect(minutes).toBeGreaterThan(0);
    expect(hour + minutes).toBe(usage.cache_creation_input_tokens);
  });

  it('caches tools with a breakpoint on the last tool', async () => {
    const tools = [{ ...weatherTool, cache_control: ephemeral }];
    const first = await usageOf({ tools, tool_choice: { type: 'none' }, messages: [user('hi')] });
    const again = await usageOf({ tools, tool_choice: { type: 'none' }, messages: [user('something else')] });
    expect(first.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(again.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  });

  it('streams the cache fields in message_start and the cumulative usage in message_delta', async () => {
    const body = ask({ system: cachedSystem, messages: [user('Hi there')], stream: true });
    const usages = async (): Promise<[AnthropicUsage, Omit<AnthropicUsage, 'cache_creation'>]> => {
      const events = parseSse((await readAll(await postAnthropic(sim, body))).text).map(
        (event) => JSON.parse(event.data) as AnthropicStreamEvent,
      );
      const start = events[0];
      const delta = events.at(-2);
      if (start?.type !== 'message_start' || delta?.type !== 'message_delta') throw new Error('unexpected stream');
      return [start.message.usage, delta.usage];
    };
    const [start, delta] = await usages();
    expect(start.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(delta).toMatchObject({
      input_tokens: start.input_tokens,
      cache_creation_input_tokens: start.cache_creation_input_tokens,
      cache_read_input_tokens: 0,
    });
    const [, secondDelta] = await usages();
    expect(secondDelta).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: start.cache_creation_input_tokens });
  });

  it('writes nothing for a request that is refused or failed, nor for count_tokens; reset() forgets', async () => {
    const body = { system: cachedSystem, messages: [user('Hi there')] };
    expect((await postAnthropic(sim, ask({ ...body, x_sim: { fault: 'status:529' } }))).status).toBe(529);
    await countOf(body);
    const first = await usageOf(body);
    expect(first.cache_read_input_tokens).toBe(0);
    sim.reset();
    expect((await usageOf(body)).cache_read_input_tokens).toBe(0);
  });
});

describe('prompt caching: what the API refuses', () => {
  async function rejectionOf(body: Record<string, unknown>): Promise<{ status: number; message: string }> {
    const response = await postAnthropic(sim, ask(body));
    const json = (await response.json()) as { error: { type: string; message: string } };
    expect(json.error.type).toBe('invalid_request_error');
    return { status: response.status, message: json.error.message };
  }

  it('more than four breakpoints', async () => {
    const marked = Array.from({ length: 5 }, (_, index) => ({ type: 'text', text: `part ${index}`, cache_control: ephemeral }));
    expect(await rejectionOf({ messages: [user(marked)] })).toEqual({
      status: 400,
      message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    });
  });

  it('a ttl other than 5m or 1h, a type other than ephemeral', async () => {
    const tenMinutes = [{ ...cachedSystem[0], cache_control: { type: 'ephemeral', ttl: '10m' } }];
    const badTtl = await rejectionOf({ system: tenMinutes, messages: [user('x')] });
    expect(badTtl.status).toBe(400);
    expect(badTtl.message).toMatch(/^system\.0\.cache_control\.ttl: /);
    const badType = await rejectionOf({ cache_control: { type: 'persistent' }, messages: [user('x')] });
    expect(badType.message).toMatch(/^cache_control\.type: /);
  });

  it('an empty or blank system text block, in the API words', async () => {
    expect(await rejectionOf({ system: [{ type: 'text', text: '' }], messages: [user('x')] })).toEqual({
      status: 400,
      message: 'system: text content blocks must be non-empty',
    });
    expect((await rejectionOf({ system: [{ type: 'text', text: '  ' }], messages: [user('x')] })).message).toBe(
      'system: text content blocks must contain non-whitespace text',
    );
  });
});
