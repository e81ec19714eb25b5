import Anthropic from '@anthropic-ai/sdk';
import { argumentsFromSchema } from '@chat-relay/upstream-sim';
import {
  anthropicError,
  anthropicKind,
  anthropicWeatherTools,
  channelKinds,
  CLAUDE,
  geminiKind,
  namedEventsOf,
  openAiKind,
  postAnthropic,
  startAnthropicRelay,
  textOf,
  toolUsesOf,
  type AnthropicE2e,
  type NamedEvent,
} from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { readStreamRecording } from './recorded-traffic';
import { startRecordingUpstream, type RecordingUpstream } from './recording-upstream';
import { askForBoth } from './weather-tools';

/**
 * Bugs other relays shipped in their Anthropic Messages support, one spec each, named after the
 * bug: each proves this relay does not have it (issue 12).
 */

const thinking = { type: 'enabled', budget_tokens: 2048 } as const;
const askTools: Anthropic.MessageCreateParamsNonStreaming = {
  model: CLAUDE,
  max_tokens: 4096,
  messages: [{ role: 'user', content: askForBoth }],
  tools: anthropicWeatherTools,
};
/** The same request answered in text: no tools offered. */
const askText: Anthropic.MessageCreateParamsNonStreaming = {
  model: CLAUDE,
  max_tokens: 4096,
  messages: [{ role: 'user', content: 'Hello there' }],
};
const longStory = { model: CLAUDE, max_tokens: 256, messages: [{ role: 'user' as const, content: 'Tell me a long story' }] };
const expectedInputs = Object.fromEntries(anthropicWeatherTools.map((tool) => [tool.name, argumentsFromSchema(tool.input_schema)]));

/** The relay's raw Messages stream for `body`, event by event. */
async function rawEvents(e2e: E2eRelay, body: object, headers: Record<string, string> = {}): Promise<NamedEvent[]> {
  const response = await postAnthropic(e2e, '/v1/messages', { ...body, stream: true }, headers);
  expect(response.status).toBe(200);
  return namedEventsOf(await response.text());
}

const dataOf = (event: NamedEvent | undefined): Record<string, unknown> => JSON.parse(event?.data ?? 'null') as Record<string, unknown>;

describe('peer bug: an empty text block when thinking is on', () => {
  describe.each([openAiKind, geminiKind, anthropicKind])('$type channel', (kind) => {
    let e2e: AnthropicE2e;
    beforeEach(async () => {
      e2e = await startAnthropicRelay(kind);
    });
    afterEach(() => e2e.close());

    it('no empty text block when thinking is on, streamed or not, text or tool answer', async () => {
      const answers = [
        await e2e.anthropic.messages.create({ ...askTools, thinking }),
        await e2e.anthropic.messages.stream({ ...askTools, thinking }).finalMessage(),
        await e2e.anthropic.messages.create({ ...askText, thinking }),
        await e2e.anthropic.messages.stream({ ...askText, thinking }).finalMessage(),
      ];
      for (const answer of answers) {
        for (const block of answer.content) {
          if (block.type === 'text') expect(block.text.trim()).not.toBe('');
          if (block.type === 'thinking') expect(block.signature).not.toBe('');
        }
      }
      expect(answers.slice(0, 2).map((answer) => toolUsesOf(answer).length)).toEqual([2, 2]);
      expect(answers.slice(2).map(textOf)).toEqual(['You said: Hello there', 'You said: Hello there']);
    });
  });
});

describe.each(channelKinds)('peer bugs on a $type channel', (kind) => {
  let e2e: AnthropicE2e;
  beforeEach(async () => {
    e2e = await startAnthropicRelay(kind);
  });
  afterEach(() => e2e.close());

  it('streamed tool arguments never arrive as input: {}', async () => {
    const events = await rawEvents(e2e, { ...askTools });
    const starts = events.filter((event) => event.event === 'content_block_start').map(dataOf);
    const toolStarts = starts.filter((start) => (start['content_block'] as { type: string }).type === 'tool_use');
    expect(toolStarts).toHaveLength(2);
    for (const start of toolStarts) {
      const index = start['index'];
      const json = events
        .filter((event) => event.event === 'content_block_delta')
        .map(dataOf)
        .filter((delta) => delta['index'] === index && (delta['delta'] as { type: string }).type === 'input_json_delta')
        .map((delta) => (delta['delta'] as { partial_json: string }).partial_json)
        .join('');
      const block = start['content_block'] as { name: string; input: unknown };
      // The input comes in the deltas (the start's `input: {}` is a placeholder), and it is not empty.
      expect(JSON.parse(json)).toEqual(expectedInputs[block.name]);
      expect(JSON.parse(json)).not.toEqual({});
    }
    const final = await e2e.anthropic.messages.stream(askTools).finalMessage();
    for (const use of toolUsesOf(final)) expect(use.input).toEqual(expectedInputs[use.name]);
  });

  it('message_start comes once', async () => {
    for (const body of [{ ...askTools }, { ...askText }]) {
      const names = (await rawEvents(e2e, body)).map((event) => event.event);
      expect(names[0]).toBe('message_start');
      expect(names.filter((name) => name === 'message_start')).toHaveLength(1);
      expect(names.filter((name) => name === 'message_delta')).toHaveLength(1);
      expect(names.filter((name) => name === 'message_stop')).toHaveLength(1);
      expect(names.at(-1)).toBe('message_stop');
      // Every block opened is closed, once, before the message ends.
      const count = (wanted: string) => names.filter((name) => name === wanted).length;
      expect(count('content_block_start')).toBe(count('content_block_stop'));
    }
  });

  it('message_delta carries cumulative usage', async () => {
    const unstreamed = await e2e.anthropic.messages.create(askTools);
    const events = await rawEvents(e2e, { ...askTools });
    const start = dataOf(events.find((event) => event.event === 'message_start'));
    const delta = dataOf(events.find((event) => event.event === 'message_delta'));
    const usage = delta['usage'] as Anthropic.MessageDeltaUsage;

    // The whole answer's output tokens, not the part after message_start's.
    expect(usage.output_tokens).toBe(unstreamed.usage.output_tokens);
    expect(usage.output_tokens).toBeGreaterThanOrEqual((start['message'] as Anthropic.Message).usage.output_tokens);
    if (usage.input_tokens !== null && usage.input_tokens !== undefined) expect(usage.input_tokens).toBe(unstreamed.usage.input_tokens);
    const final = await e2e.anthropic.messages.stream(askTools).finalMessage();
    expect(final.usage.output_tokens).toBe(unstreamed.usage.output_tokens);
    expect(final.usage.input_tokens).toBe(unstreamed.usage.input_tokens);
  });

  it('anthropic-beta values an upstream would reject are not forwarded to it', async () => {
    const betas = 'claude-code-20250219,interleaved-thinking-2025-05-14';
    const message = await e2e.anthropic.messages.create(askText, { headers: { 'anthropic-beta': betas } });
    expect(textOf(message)).toBe('You said: Hello there');
    const [call] = kind.calls(e2e.sim);
    if (kind === anthropicKind) {
      // Native: forwarded as sent, for Anthropic to judge.
      expect(call?.anthropic).toEqual({ version: e2e.sentHeaders.at(-1)?.get('anthropic-version'), betas: betas.split(',') });
    } else {
      expect(call?.headers['anthropic-beta']).toBeUndefined();
      expect(call?.headers['anthropic-version']).toBeUndefined();
    }
  });
});

describe('peer bug: a beta the upstream rejects (native: forwarded as sent, and its answer relayed)', () => {
  it('an unknown beta reaches the anthropic channel, whose 400 the caller gets; a bridged channel never sees it', async () => {
    const native = await startAnthropicRelay(anthropicKind);
    const bridged = await startAnthropicRelay(openAiKind);
    try {
      const hello = { model: CLAUDE, max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello there' }] };
      const headers = { headers: { 'anthropic-beta': 'made-up-beta-2099-01-01' } };
      const error = await anthropicError(() => native.anthropic.messages.create(hello, headers));
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error.message).toContain('made-up-beta-2099-01-01');

      const answer = await bridged.anthropic.messages.create(hello, headers);
      expect(textOf(answer)).toBe('You said: Hello there');
      expect(openAiKind.calls(bridged.sim)[0]?.headers['anthropic-beta']).toBeUndefined();
    } finally {
      await native.close();
      await bridged.close();
    }
  });
});

describe('peer bug: thinking signatures dropped from streams', () => {
  let e2e: AnthropicE2e;
  beforeEach(async () => {
    e2e = await startAnthropicRelay(anthropicKind);
  });
  afterEach(() => e2e.close());

  it('signature_delta is relayed so the next turn is accepted', async () => {
    const request: Anthropic.MessageCreateParamsNonStreaming = { ...askText, thinking };
    const events = await rawEvents(e2e, request);
    const signatures = events
      .filter((event) => event.event === 'content_block_delta')
      .map((event) => (dataOf(event)['delta'] as { type: string; signature?: string }))
      .filter((delta) => delta.type === 'signature_delta');
    expect(signatures).toHaveLength(1);
    expect(signatures[0]?.signature).not.toBe('');

    const first = await e2e.anthropic.messages.stream(request).finalMessage();
    const next = await e2e.anthropic.messages.create({
      ...request,
      messages: [...request.messages, { role: 'assistant', content: first.content }, { role: 'user', content: 'And again' }],
    });
    expect(textOf(next)).toBe('You said: And again');
  });
});

describe('peer bug: prompt-cache writes not billed', () => {
  let e2e: AnthropicE2e;
  beforeEach(async () => {
    e2e = await startAnthropicRelay(anthropicKind);
  });
  afterEach(() => e2e.close());

  const cached: Anthropic.MessageCreateParamsNonStreaming = {
    model: CLAUDE,
    max_tokens: 256,
    system: [
      { type: 'text', text: 'You are a weather assistant. Answer briefly and in English, always.', cache_control: { type: 'ephemeral' } },
    ],
    tools: anthropicWeatherTools,
    tool_choice: { type: 'none' },
    messages: [{ role: 'user', content: 'Hello there' }],
  };

  it('cache-write tokens are billed', async () => {
    const written = await e2e.anthropic.messages.create(cached);
    const read = await e2e.anthropic.messages.stream(cached).finalMessage();
    expect(written.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(read.usage.cache_read_input_tokens).toBeGreaterThan(0);

    const price = await e2e.relay.services.prices.priceOf(CLAUDE);
    // The seeded list prices: writes dearer than input, reads cheaper.
    expect(price?.cacheWrite).toBeGreaterThan(price?.input ?? Infinity);
    expect(price?.cacheRead).toBeLessThan(price?.input ?? 0);
    const { cacheRead, cacheWrite } = price!;
    const input = price!.input ?? 0;
    const output = price!.output ?? 0;
    /** Micro-USD as Anthropic bills it: each part of the prompt at its own price, rounded up once. */
    const billed = (usage: Anthropic.Usage): number =>
      Math.ceil(
        (usage.input_tokens * input +
          (usage.cache_creation_input_tokens ?? 0) * (cacheWrite ?? input) +
          (usage.cache_read_input_tokens ?? 0) * (cacheRead ?? input) +
          usage.output_tokens * output) /
          1_000_000,
      );

    const rows = (await e2e.usageRows(2)).slice(-2);
    for (const [row, usage] of [
      [rows[0], written.usage],
      [rows[1], read.usage],
    ] as const) {
      // The prompt counted in full, its cache reads and writes apart, each priced as such.
      expect(row).toMatchObject({
        promptTokens: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
        cacheWriteTokens: usage.cache_creation_input_tokens ?? 0,
        cacheReadTokens: usage.cache_read_input_tokens ?? 0,
        completionTokens: usage.output_tokens,
        usageEstimated: false,
        cost: billed(usage),
      });
    }
    // The write costs more than the same tokens as plain input would.
    const asInput = Math.ceil(((rows[0]?.promptTokens ?? 0) * input + written.usage.output_tokens * output) / 1_000_000);
    expect(rows[0]?.cost).toBeGreaterThan(asInput);
  });
});

describe('peer bug: a cut stream passed off as complete', () => {
  describe.each([anthropicKind, openAiKind])('simulator cutting a $type stream', (kind) => {
    let e2e: AnthropicE2e;
    beforeEach(async () => {
      e2e = await startAnthropicRelay(kind);
    });
    afterEach(() => e2e.close());

    it('a stream that ends without the upstream’s end is an error event, not a clean stop', async () => {
      e2e.sim.failNext({ kind: 'cut' });
      const events = await rawEvents(e2e, longStory);
      const names = events.map((event) => event.event);
      expect(names[0]).toBe('message_start');
      expect(names.at(-1)).toBe('error');
      expect(names).not.toContain('message_stop');
      expect(names).not.toContain('message_delta');
      expect(dataOf(events.at(-1))).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.any(String) } });

      e2e.sim.failNext({ kind: 'cut' });
      const stream = e2e.anthropic.messages.stream(longStory);
      await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
    });
  });

  describe.each([
    // Anthropic's cut before message_delta and message_stop; OpenAI's before the finish chunk and what follows it.
    { type: 'anthropic' as const, recording: 'anthropic/stream-text-then-tool-use.sse', cutBefore: 'event: message_delta' },
    { type: 'openai' as const, recording: 'openai/chat-stream-text.sse', cutBefore: '"finish_reason":"stop"' },
  ])('an upstream closing a $type stream cleanly before its end', ({ type, recording, cutBefore }) => {
    let e2e: E2eRelay;
    let upstream: RecordingUpstream;
    const full = readStreamRecording(recording);
    // Whole events only, up to the one holding `cutBefore`: the upstream just stops there.
    const truncated = full.slice(0, full.lastIndexOf('\n\n', full.indexOf(cutBefore)) + 2);

    beforeEach(async () => {
      upstream = await startRecordingUpstream(() => ({ contentType: 'text/event-stream', body: truncated }));
      e2e = await startE2eRelay();
      await e2e.addChannel(upstream.baseUrl, { type, models: [CLAUDE] });
    });
    afterEach(async () => {
      await e2e.close();
      await upstream.close();
    });

    it('a stream that ends without the upstream’s end is an error event, not a clean stop', async () => {
      expect(full.indexOf(cutBefore)).toBeGreaterThan(0);
      expect(truncated.endsWith('\n\n')).toBe(true);
      const events = await rawEvents(e2e, { model: CLAUDE, max_tokens: 256, messages: [{ role: 'user', content: 'Hello there' }] });
      const names = events.map((event) => event.event);
      expect(names[0]).toBe('message_start');
      expect(names.at(-1)).toBe('error');
      expect(names).not.toContain('message_stop');

      const rows = await e2e.usageRows(1);
      expect(rows.at(-1)?.errorCode).not.toBeNull();
    });
  });
});

