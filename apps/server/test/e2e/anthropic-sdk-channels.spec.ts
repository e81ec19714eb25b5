import type Anthropic from '@anthropic-ai/sdk';
import { argumentsFromSchema } from '@chat-relay/upstream-sim';
import { convertMessagesToChat } from '@chat-relay/wire';
import { countPromptTokens } from '../../src/billing/estimate-usage';
import {
  anthropicWeatherTools,
  ANTHROPIC_VERSION,
  channelKinds,
  CLAUDE,
  startAnthropicRelay,
  textOf,
  toolUsesOf,
  type AnthropicE2e,
} from './anthropic-e2e';
import { SIM_KEY } from './e2e-relay';
import { askForBoth, runWeatherTool } from './weather-tools';

const hello: Anthropic.MessageCreateParamsNonStreaming = {
  model: CLAUDE,
  max_tokens: 256,
  messages: [{ role: 'user', content: 'Hello there' }],
};
const askTools: Anthropic.MessageCreateParamsNonStreaming = {
  model: CLAUDE,
  max_tokens: 512,
  messages: [{ role: 'user', content: askForBoth }],
  tools: anthropicWeatherTools,
};

/** The inputs the simulator builds from each tool's schema: what every channel type must deliver, parsed. */
const expectedInputs = Object.fromEntries(anthropicWeatherTools.map((tool) => [tool.name, argumentsFromSchema(tool.input_schema)]));

/** The caller's tool results for an answer's tool_use blocks, in a user turn. */
function toolResultTurn(answer: Anthropic.Message): Anthropic.MessageParam {
  return {
    role: 'user',
    content: toolUsesOf(answer).map((use) => ({
      type: 'tool_result' as const,
      tool_use_id: use.id,
      content: runWeatherTool(use.name, use.input as Record<string, unknown>),
    })),
  };
}

/**
 * The official Anthropic SDK against the relay's `/v1/messages`, for each channel type: the
 * Anthropic one by passthrough, OpenAI and Gemini bridged through the hub (issue 12).
 */
describe.each(channelKinds)('e2e: the Anthropic SDK on a $type channel', (kind) => {
  let e2e: AnthropicE2e;
  let client: Anthropic;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(kind);
    client = e2e.anthropic;
  });
  afterEach(() => e2e.close());

  it('a text answer, non-streamed: a Message under the caller’s model name; usage reported and logged against the channel', async () => {
    const message = await client.messages.create(hello);

    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: CLAUDE, stop_reason: 'end_turn' });
    expect(message.id).toMatch(/^msg_/);
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'You said: Hello there' })]);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message._request_id).toMatch(/^req_/);

    const calls = kind.calls(e2e.sim);
    expect(calls).toHaveLength(1);
    if (kind.type !== 'gemini') expect((calls[0]?.body as { model: string }).model).toBe(kind.upstreamModel);

    const [row] = (await e2e.usageRows(1)).slice(-1);
    expect(row).toMatchObject({
      requestId: message._request_id,
      channelId: e2e.channel.id,
      requestedModel: CLAUDE,
      upstreamModel: kind.upstreamModel,
      status: 200,
      stream: false,
    });
    expect(row?.promptTokens).toBeGreaterThan(0);
    expect(row?.completionTokens).toBeGreaterThan(0);
  });

  it('a text answer, streamed: the same text and stop reason, usage in the final message and the log', async () => {
    const stream = client.messages.stream({ ...hello, messages: [{ role: 'user', content: 'Hello there, streamed' }] });
    const final = await stream.finalMessage();

    expect(final).toMatchObject({ model: CLAUDE, stop_reason: 'end_turn' });
    expect(textOf(final)).toBe('You said: Hello there, streamed');
    expect(final.usage.input_tokens).toBeGreaterThan(0);
    expect(final.usage.output_tokens).toBeGreaterThan(0);

    const [row] = (await e2e.usageRows(1)).slice(-1);
    expect(row).toMatchObject({ channelId: e2e.channel.id, stream: true, status: 200, errorCode: null });
    expect(row?.promptTokens).toBeGreaterThan(0);
    expect(row?.completionTokens).toBeGreaterThan(0);
  });

  it('tools, non-streamed: tool_use blocks with the input as an object, stop_reason tool_use', async () => {
    const message = await client.messages.create(askTools);

    expect(message.stop_reason).toBe('tool_use');
    const uses = toolUsesOf(message);
    expect(uses.map((use) => use.name).sort()).toEqual(['get_time', 'get_weather']);
    for (const use of uses) {
      expect(use.id).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(use.input).toEqual(expectedInputs[use.name]);
    }
    expect(new Set(uses.map((use) => use.id)).size).toBe(2);
  });

  it('tools, streamed: finalMessage reassembles the same inputs as the non-streamed answer, stop_reason tool_use', async () => {
    const unstreamed = await client.messages.create(askTools);
    const stream = client.messages.stream(askTools);
    const jsonDeltas: string[] = [];
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const final = await stream.finalMessage();

    expect(final.stop_reason).toBe('tool_use');
    const inputs = (message: Anthropic.Message) => toolUsesOf(message).map((use) => [use.name, use.input]);
    expect(inputs(final)).toEqual(inputs(unstreamed));
    for (const use of toolUsesOf(final)) expect(use.input).toEqual(expectedInputs[use.name]);
    // The inputs came as input_json_delta fragments, not only in the blocks' starts.
    expect(jsonDeltas.join('')).not.toBe('');
  });

  it('the full round trip: tool_result back → a final text answer that uses the results, end_turn', async () => {
    const first = await client.messages.create(askTools);
    const history: Anthropic.MessageParam[] = [
      ...askTools.messages,
      { role: 'assistant', content: first.content },
      toolResultTurn(first),
    ];

    const final = await client.messages.create({ ...askTools, messages: history });
    expect(final.stop_reason).toBe('end_turn');
    expect(toolUsesOf(final)).toEqual([]);
    expect(textOf(final)).toContain('sunny');
    expect(textOf(final)).toContain('14:05');

    // The same second leg streamed.
    const streamed = await client.messages.stream({ ...askTools, messages: history }).finalMessage();
    expect(streamed.stop_reason).toBe('end_turn');
    expect(textOf(streamed)).toBe(textOf(final));

    const rows = (await e2e.usageRows(3)).slice(-3);
    for (const row of rows) {
      expect(row).toMatchObject({ channelId: e2e.channel.id, status: 200 });
      expect(row.promptTokens).toBeGreaterThan(0);
      expect(row.completionTokens).toBeGreaterThan(0);
    }
  });

  it('client.beta.messages.create (?beta=true, an anthropic-beta header) answers like messages.create', async () => {
    const beta = await client.beta.messages.create({ ...hello, betas: ['token-efficient-tools-2025-02-19'] });
    expect(beta).toMatchObject({ type: 'message', model: CLAUDE, stop_reason: 'end_turn' });
    expect(beta.content).toEqual([expect.objectContaining({ type: 'text', text: 'You said: Hello there' })]);

    const [call] = kind.calls(e2e.sim);
    if (kind.type === 'anthropic') {
      // As the SDK sent them (its own anthropic-version, the betas it was given).
      const sent = e2e.sentHeaders.at(-1);
      expect(sent?.get('anthropic-beta')).toBe('token-efficient-tools-2025-02-19');
      expect(call?.anthropic).toEqual({ version: sent?.get('anthropic-version'), betas: ['token-efficient-tools-2025-02-19'] });
    } else {
      expect(call?.headers['anthropic-beta']).toBeUndefined();
    }
  });
});

describe.each(channelKinds)('e2e: count_tokens through the Anthropic SDK on a $type channel', (kind) => {
  let e2e: AnthropicE2e;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(kind);
  });
  afterEach(() => e2e.close());

  const prompt: Anthropic.MessageCountTokensParams = {
    model: CLAUDE,
    system: 'You are a weather assistant.',
    messages: [{ role: 'user', content: askForBoth }],
    tools: anthropicWeatherTools,
  };

  it(kind.type === 'anthropic' ? 'is the upstream’s own count' : 'is the relay’s tokenizer, no upstream call', async () => {
    const counted = await e2e.anthropic.messages.countTokens(prompt);
    expect(counted.input_tokens).toBeGreaterThan(0);

    if (kind.type === 'anthropic') {
      const upstream = e2e.sim.requests.filter((request) => request.path === '/v1/messages/count_tokens');
      expect(upstream).toHaveLength(1);
      expect(upstream[0]?.body).toEqual({ ...prompt, model: kind.upstreamModel });
      // What the simulator itself says of the same prompt, asked directly.
      const direct = await fetch(`${kind.baseUrl(e2e.sim)}/messages/count_tokens`, {
        method: 'POST',
        headers: { 'x-api-key': SIM_KEY, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
        body: JSON.stringify({ ...prompt, model: kind.upstreamModel }),
      });
      expect(counted).toEqual(await direct.json());
    } else {
      expect(e2e.sim.requests).toEqual([]);
      const hub = convertMessagesToChat({ ...prompt, max_tokens: 1 } as Parameters<typeof convertMessagesToChat>[0]).request;
      expect(counted.input_tokens).toBe(await countPromptTokens(hub));
    }
  });

  it('count_tokens is never charged nor counted as chat (issue 28 defect 7: its rows were chat rows with the count as prompt tokens)', async () => {
    const counts = [await e2e.anthropic.messages.countTokens(prompt), await e2e.anthropic.messages.countTokens(prompt)];
    expect(counts.every((counted) => counted.input_tokens > 0)).toBe(true);

    const rows = (await e2e.usageRows(2)).slice(-2);
    expect(rows.map((row) => [row.endpoint, row.status, row.promptTokens, row.completionTokens, row.cost])).toEqual([
      ['count_tokens', 200, 0, 0, 0],
      ['count_tokens', 200, 0, 0, 0],
    ]);
    // Not in the usage series: no request, no token.
    const usage = await fetch(`${e2e.url}/api/usage?group_by=total`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    const series = (await usage.json()) as { data: Array<{ requests: number; prompt_tokens: number }> };
    expect(series.data.reduce((sum, point) => sum + point.requests, 0)).toBe(0);
    const token = await fetch(`${e2e.url}/api/tokens/${e2e.tokenId}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    expect(await token.json()).toMatchObject({ quota_used: 0 });
  });
});
