import { postAnthropic, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import { splitIntoStreamTokens } from '../tokens';
import type { AnthropicMessageResponse, ResponseContentBlock } from './anthropic-api';
import { signThinking } from './thinking-signature';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());

const weatherTool = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const enabled = { type: 'enabled', budget_tokens: 1024 };
const ask = (body: Record<string, unknown>) => ({ model: 'claude-sonnet-4-5', max_tokens: 2048, thinking: enabled, ...body });

async function answer(body: Record<string, unknown>): Promise<AnthropicMessageResponse> {
  const response = await postAnthropic(sim, ask(body));
  const json = (await response.json()) as AnthropicMessageResponse;
  expect({ status: response.status, json }).toMatchObject({ status: 200 });
  return json;
}

async function rejection(body: Record<string, unknown>): Promise<{ status: number; type: string; message: string }> {
  const response = await postAnthropic(sim, ask(body));
  const json = (await response.json()) as { error: { type: string; message: string } };
  return { status: response.status, type: json.error.type, message: json.error.message };
}

type ThinkingBlock = Extract<ResponseContentBlock, { type: 'thinking' }>;
function thinkingOf(message: AnthropicMessageResponse): ThinkingBlock {
  const [first] = message.content;
  if (first?.type !== 'thinking') throw new Error(`expected a thinking block first, got ${JSON.stringify(message.content)}`);
  return first;
}

const invalid = (message: string) => ({ status: 400, type: 'invalid_request_error', message });

describe('thinking: the answer', () => {
  it('starts with a signed thinking block, then the usual text; thinking tokens count as output', async () => {
    const message = await answer({ messages: [user('Hello there')] });
    const thinking = thinkingOf(message);
    expect(thinking.thinking).toContain('Hello there');
    expect(Buffer.from(thinking.signature, 'base64')).toHaveLength(32);
    expect(message.content.slice(1)).toEqual([{ type: 'text', text: 'You said: Hello there' }]);
    const plain = await answer({ messages: [user('Hello there')], thinking: undefined });
    expect(message.usage.output_tokens - plain.usage.output_tokens).toBe(splitIntoStreamTokens(thinking.thinking).length);
    // The prompt does not change with thinking on.
    expect(message.usage.input_tokens).toBe(plain.usage.input_tokens);
  });

  it('thinks with adaptive thinking, not with thinking disabled', async () => {
    const adaptive = await answer({ thinking: { type: 'adaptive' }, messages: [user('hi')] });
    expect(adaptive.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const disabled = await answer({ thinking: { type: 'disabled' }, messages: [user('hi')] });
    expect(disabled.content.map((block) => block.type)).toEqual(['text']);
  });

  it('thinks before tool calls: thinking, then the tool_use blocks', async () => {
    const message = await answer({ messages: [user('get the weather')], tools: [weatherTool] });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(thinkingOf(message).thinking).toContain('get_weather');
    expect(message.stop_reason).toBe('tool_use');
  });

  it('counts thinking toward max_tokens: the text gets what is left, stop_reason max_tokens', async () => {
    const long = 'one two three four five six seven eight';
    const message = await answer({ thinking: { type: 'adaptive' }, max_tokens: 18, messages: [user(long)] });
    const thoughtTokens = splitIntoStreamTokens(thinkingOf(message).thinking).length;
    expect(thoughtTokens).toBeLessThan(18);
    const text = message.content[1];
    expect(text?.type === 'text' ? splitIntoStreamTokens(text.text).length : -1).toBe(18 - thoughtTokens);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(18);

    // A budget the thinking alone uses up: the thinking is cut, no text block follows.
    const short = await answer({ thinking: { type: 'adaptive' }, max_tokens: 5, messages: [user(long)] });
    expect(short.content.map((block) => block.type)).toEqual(['thinking']);
    expect(splitIntoStreamTokens(thinkingOf(short).thinking)).toHaveLength(5);
    expect([short.stop_reason, short.usage.output_tokens]).toEqual(['max_tokens', 5]);
  });

  it('shows no thinking text with display "omitted", but still signs the block', async () => {
    const message = await answer({ thinking: { ...enabled, display: 'omitted' }, messages: [user('Hello there')] });
    const thinking = thinkingOf(message);
    expect(thinking.thinking).toBe('');
    expect(thinking.signature).toBe(signThinking(''));
    const shown = await answer({ messages: [user('Hello there')] });
    expect(message.usage.output_tokens).toBe(shown.usage.output_tokens);
  });
});

describe('thinking: the budget, like the API', () => {
  it('refuses a budget under 1024 tokens', async () => {
    expect(await rejection({ thinking: { type: 'enabled', budget_tokens: 1023 }, messages: [user('hi')] })).toEqual(
      invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'),
    );
  });

  it('refuses a budget that is not below max_tokens, and takes one that is', async () => {
    expect(await rejection({ max_tokens: 1024, messages: [user('hi')] })).toEqual(
      invalid(
        '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at ' +
          'https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
      ),
    );
    expect((await postAnthropic(sim, ask({ max_tokens: 1025, messages: [user('hi')] }))).status).toBe(200);
  });

  it('refuses an unknown thinking type', async () => {
    const { status, message } = await rejection({ thinking: { type: 'sometimes' }, messages: [user('hi')] });
    expect(status).toBe(400);
    expect(message).toMatch(/^thinking\.type: /);
  });
});

describe('thinking: blocks sent back', () => {
  /** The first turn of a tool loop, and the conversation that answers it. */
  async function toolLoop(): Promise<{ turn: ResponseContentBlock[]; followUp: (turn: unknown[]) => Record<string, unknown> }> {
    const first = await answer({ messages: [user('get the weather')], tools: [weatherTool] });
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    if (toolUse?.type !== 'tool_use') throw new Error('expected a tool call');
    const result = user([{ type: 'tool_result', tool_use_id: toolUse.id, content: 'rain' }]);
    return {
      turn: first.content,
      followUp: (turn) => ({ tools: [weatherTool], messages: [user('get the weather'), assistant(turn), result] }),
    };
  }

  it('accepts its own thinking block back unchanged and goes on with the tool loop', async () => {
    const { turn, followUp } = await toolLoop();
    const final = await answer(followUp(turn));
    expect(final.content.slice(1)).toEqual([{ type: 'text', text: 'Here is what I found: get_weather: rain.' }]);
  });

  it('refuses a thinking block whose text changed, or whose signature is empty', async () => {
    const { turn, followUp } = await toolLoop();
    const [thinking, ...rest] = turn;
    if (thinking?.type !== 'thinking') throw new Error('expected thinking first');
    const wrong = invalid('messages.1.content.0: Invalid `signature` in `thinking` block');
    expect(await rejection(followUp([{ ...thinking, thinking: `${thinking.thinking} Also.` }, ...rest]))).toEqual(wrong);
    expect(await rejection(followUp([{ ...thinking, signature: '' }, ...rest]))).toEqual(wrong);
    expect(await rejection(followUp([{ ...thinking, signature: signThinking('other') }, ...rest]))).toEqual(wrong);
  });

  it('refuses a thinking block without a signature, in the API words', async () => {
    const { turn, followUp } = await toolLoop();
    const [thinking, ...rest] = turn;
    if (thinking?.type !== 'thinking') throw new Error('expected thinking first');
    expect(await rejection(followUp([{ type: 'thinking', thinking: thinking.thinking }, ...rest]))).toEqual(
      invalid('messages.1.content.0.thinking.signature: Field required'),
    );
  });

  it('checks signatures even when this request does not think', async () => {
    const forged = [{ type: 'thinking', thinking: 'made up', signature: 'c2lnbmF0dXJl' }, { type: 'text', text: 'ok' }];
    const body = { thinking: undefined, messages: [user('a'), assistant(forged), user('b')] };
    expect(await rejection(body)).toEqual(invalid('messages.1.content.0: Invalid `signature` in `thinking` block'));
    const signed = [{ type: 'thinking', thinking: 'made up', signature: signThinking('made up') }, { type: 'text', text: 'ok' }];
    expect((await postAnthropic(sim, ask({ ...body, messages: [user('a'), assistant(signed), user('b')] }))).status).toBe(200);
  });

  it('accepts redacted_thinking blocks in place of thinking', async () => {
    const { turn, followUp } = await toolLoop();
    const redacted = [{ type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' }, ...turn.slice(1)];
    expect((await postAnthropic(sim, ask(followUp(redacted)))).status).toBe(200);
  });

  it('with thinking on, wants the tool-use turn to start with its thinking block', async () => {
    const { turn, followUp } = await toolLoop();
    const { status, type, message } = await rejection(followUp(turn.slice(1)));
    expect([status, type]).toEqual([400, 'invalid_request_error']);
    expect(message).toContain(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. ' +
        'When `thinking` is enabled, a final `assistant` message must start with a thinking block',
    );
    const withoutThinking = await postAnthropic(sim, ask({ ...followUp(turn.slice(1)), thinking: { type: 'disabled' } }));
    expect(withoutThinking.status).toBe(200);
  });
});
