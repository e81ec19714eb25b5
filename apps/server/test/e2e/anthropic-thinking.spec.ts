import Anthropic from '@anthropic-ai/sdk';
import { signThinking } from '@chat-relay/upstream-sim';
import {
  anthropicClient,
  anthropicError,
  anthropicKind,
  anthropicWeatherTools,
  CLAUDE,
  openAiKind,
  startAnthropicRelay,
  textOf,
  toolUsesOf,
  type AnthropicE2e,
} from './anthropic-e2e';
import { startRecordingUpstream, type RecordingUpstream } from './recording-upstream';
import { askForBoth, runWeatherTool } from './weather-tools';

const thinking = { type: 'enabled', budget_tokens: 2048 } as const;
const user: Anthropic.MessageParam = { role: 'user', content: 'Hello there' };
const thinkingRequest: Anthropic.MessageCreateParamsNonStreaming = { model: CLAUDE, max_tokens: 4096, thinking, messages: [user] };

const thinkingBlocksOf = (message: Anthropic.Message): Anthropic.ThinkingBlock[] =>
  message.content.filter((block): block is Anthropic.ThinkingBlock => block.type === 'thinking');

/** The next turn of a conversation: the assistant's content sent back as it came, and a new user text. */
const nextTurn = (answer: Anthropic.Message, text: string): Anthropic.MessageParam[] => [
  user,
  { role: 'assistant', content: answer.content },
  { role: 'user', content: text },
];

describe('e2e: extended thinking through an anthropic channel', () => {
  let e2e: AnthropicE2e;
  let client: Anthropic;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(anthropicKind);
    client = e2e.anthropic;
  });
  afterEach(() => e2e.close());

  it('non-streamed: a signed thinking block first; sent back unchanged, the next turn is accepted', async () => {
    const first = await client.messages.create(thinkingRequest);

    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const [block] = thinkingBlocksOf(first);
    expect(block?.thinking).not.toBe('');
    expect(block?.signature).toBe(signThinking(block?.thinking ?? ''));

    const second = await client.messages.create({ ...thinkingRequest, messages: nextTurn(first, 'And again') });
    expect(textOf(second)).toBe('You said: And again');
    // What the upstream got back is the block as it was answered.
    const sentBack = (e2e.sim.requests[1]?.body as { messages: { content: unknown[] }[] }).messages[1]?.content[0];
    expect(sentBack).toEqual(expect.objectContaining({ type: 'thinking', thinking: block?.thinking, signature: block?.signature }));
  });

  it('the simulator does verify: an altered signature is refused (so the test above can fail)', async () => {
    const first = await client.messages.create(thinkingRequest);
    const [block] = thinkingBlocksOf(first);
    const tampered: Anthropic.Message = {
      ...first,
      content: first.content.map((part) => (part.type === 'thinking' ? { ...part, signature: signThinking('something else') } : part)),
    };
    expect(block).toBeDefined();

    const error = await anthropicError(() => client.messages.create({ ...thinkingRequest, messages: nextTurn(tampered, 'And again') }));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toContain('Invalid `signature` in `thinking` block');
  });

  it('streamed: a signature_delta arrives, finalMessage carries the signature, and the next turn is accepted', async () => {
    const stream = client.messages.stream(thinkingRequest);
    const deltaTypes: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta') deltaTypes.push(event.delta.type);
    });
    const final = await stream.finalMessage();

    expect(deltaTypes).toContain('thinking_delta');
    expect(deltaTypes.filter((type) => type === 'signature_delta')).toHaveLength(1);
    const [block] = thinkingBlocksOf(final);
    expect(block?.signature).toBe(signThinking(block?.thinking ?? ''));
    expect(block?.signature).not.toBe('');

    const second = await client.messages.stream({ ...thinkingRequest, messages: nextTurn(final, 'Once more') }).finalMessage();
    expect(textOf(second)).toBe('You said: Once more');
  });

  it('streamed with tools: thinking then tool_use, the tool results answered in a turn the upstream accepts', async () => {
    const ask: Anthropic.MessageCreateParamsNonStreaming = {
      ...thinkingRequest,
      messages: [{ role: 'user', content: askForBoth }],
      tools: anthropicWeatherTools,
    };
    const first = await client.messages.stream(ask).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content[0]?.type).toBe('thinking');
    const uses = toolUsesOf(first);
    expect(uses).toHaveLength(2);

    const final = await client.messages
      .stream({
        ...ask,
        messages: [
          ...ask.messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: uses.map((use) => ({
              type: 'tool_result' as const,
              tool_use_id: use.id,
              content: runWeatherTool(use.name, use.input as Record<string, unknown>),
            })),
          },
        ],
      })
      .finalMessage();
    expect(final.stop_reason).toBe('end_turn');
    expect(textOf(final)).toContain('sunny');
  });
});

/** A reasoning model behind the OpenAI channel: gpt-4o takes no reasoning_effort, so the relay would leave it out (issue 28). */
const OPENAI_REASONER = 'o3';

describe('e2e: thinking bridged to an openai channel', () => {
  let e2e: AnthropicE2e;
  let client: Anthropic;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(openAiKind, { model_mapping: { [CLAUDE]: OPENAI_REASONER } });
    client = e2e.anthropic;
  });
  afterEach(() => e2e.close());

  const upstreamBodies = () => openAiKind.calls(e2e.sim).map((call) => call.body as Record<string, unknown>);

  it('the upstream receives reasoning_effort for the budget, and the answer has no empty text block', async () => {
    const message = await client.messages.create(thinkingRequest);
    expect(textOf(message)).toBe('You said: Hello there');
    for (const block of message.content) if (block.type === 'text') expect(block.text).not.toBe('');

    const [body] = upstreamBodies();
    // 2048 tokens of budget read as a low effort; no Anthropic field leaks upstream.
    expect(body).toMatchObject({ model: OPENAI_REASONER, reasoning_effort: 'low', max_completion_tokens: 4096 });
    expect(body).not.toHaveProperty('thinking');
  });

  it('streamed with tools: only tool_use blocks, none of them an empty text block', async () => {
    const ask = { ...thinkingRequest, messages: [{ role: 'user' as const, content: askForBoth }], tools: anthropicWeatherTools };
    const stream = client.messages.stream(ask);
    const started: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_start') started.push(event.content_block.type);
    });
    const final = await stream.finalMessage();

    expect(final.stop_reason).toBe('tool_use');
    expect(started).toEqual(['tool_use', 'tool_use']);
    expect(final.content.map((block) => block.type)).toEqual(['tool_use', 'tool_use']);
    expect(upstreamBodies()[0]).toMatchObject({ reasoning_effort: 'low', stream: true });
  });
});

/** A reasoning model behind an OpenAI-compatible API (DeepSeek, vLLM): its reasoning as `reasoning_content`. */
const reasoningChunk = (delta: object, finishReason: string | null = null): string =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-r1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'deepseek-reasoner',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  })}\n\n`;
const reasoningStream =
  reasoningChunk({ role: 'assistant', reasoning_content: 'The user greets me; I will greet back.' }) +
  reasoningChunk({ content: 'Hi!' }) +
  reasoningChunk({}, 'stop') +
  'data: [DONE]\n\n';

describe('e2e: a conversation moving from a bridged reasoning model to an anthropic channel', () => {
  let e2e: AnthropicE2e;
  let reasoner: RecordingUpstream;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(anthropicKind);
    reasoner = await startRecordingUpstream(() => ({ contentType: 'text/event-stream', body: reasoningStream }));
    await e2e.addChannel(reasoner.baseUrl, { type: 'openai', models: ['deepseek-reasoner'] });
  });
  afterEach(async () => {
    await e2e.close();
    await reasoner.close();
  });

  it('the bridged thinking block comes to the caller, and is not sent to Anthropic with the next turn', async () => {
    const client = anthropicClient(e2e);
    const first = await client.messages.stream({ ...thinkingRequest, model: 'deepseek-reasoner' }).finalMessage();
    expect(first.content).toEqual([
      expect.objectContaining({ type: 'thinking', thinking: 'The user greets me; I will greet back.', signature: expect.any(String) }),
      expect.objectContaining({ type: 'text', text: 'Hi!' }),
    ]);

    const next = await client.messages.create({ ...thinkingRequest, messages: nextTurn(first, 'And now in Claude') });
    expect(textOf(next)).toBe('You said: And now in Claude');
    const sent = anthropicKind.calls(e2e.sim)[0]?.body as { messages: Array<{ role: string; content: unknown }> };
    // Only the text of the bridged turn: a foreign signature would make Anthropic refuse the request.
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [expect.objectContaining({ type: 'text', text: 'Hi!' })] });
  });
});
