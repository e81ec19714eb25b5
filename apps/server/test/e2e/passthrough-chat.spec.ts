import type { ChannelPassthroughInput, Price } from '@chat-relay/contract';
import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/**
 * Issue 26 on Chat Completions: a chat request goes to an OpenAI-compatible channel as it was
 * sent, unknown fields and all — its passthrough. With the official `openai` package:
 * `web_search_options`, an audio answer, a premium `service_tier` and files by id pass only where
 * the channel lets them through and the table prices them; a search model's search is charged
 * once per answer.
 */

const MODEL = 'gpt-4o-mini';
/** gpt-4o-mini's $0.15 / $0.60 per million tokens; search-preview web search $25 per 1,000 calls. */
const PRICE = { model: MODEL, input: 150_000, output: 600_000, tool_calls: { web_search: 25_000 }, service_tiers: { priority: 2, flex: 0.5 } } satisfies Price;

describe('e2e: Chat Completions passthrough is policed by what it carries (issue 26)', () => {
  let e2e: E2eRelayWithSim;
  const upstreamCalls = () => e2e.sim.requests.filter((request) => request.path === '/v1/chat/completions');

  async function start(passthrough?: ChannelPassthroughInput, price: Price = PRICE): Promise<void> {
    e2e = await startRelayWithSim({ models: [MODEL], ...(passthrough ? { passthrough } : {}) });
    const prices = await fetch(`${e2e.url}/api/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [price] }),
    });
    expect(prices.status).toBe(200);
  }

  afterEach(async () => {
    await e2e.close();
  });

  async function refusal(body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming): Promise<{ status: number; code: string | null; param: string | null | undefined }> {
    const error: unknown = await e2e.client().chat.completions.create(body).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof OpenAI.APIError)) throw new Error(`expected a refusal, got ${String(error)}`);
    return { status: error.status ?? 0, code: error.code ?? null, param: error.param };
  }

  const ask = (fields: Partial<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming> = {}): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming => ({
    model: MODEL,
    messages: [{ role: 'user', content: 'what is new in rust' }],
    ...fields,
  });
  const tokenCost = (row: { promptTokens: number; completionTokens: number }, multiplier = 1) =>
    Math.ceil((multiplier * (row.promptTokens * PRICE.input + row.completionTokens * PRICE.output)) / 1_000_000);

  it('refuses by default what the channel does not let through, naming the field, before any upstream call', async () => {
    await start();
    expect(await refusal(ask({ web_search_options: {} }))).toEqual({ status: 400, code: 'hosted_tool_not_allowed', param: 'web_search_options' });
    expect(await refusal(ask({ service_tier: 'priority' }))).toEqual({ status: 400, code: 'service_tier_not_allowed', param: 'service_tier' });
    expect(await refusal(ask({ modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }))).toEqual({
      status: 400,
      code: 'audio_output_not_allowed',
      param: 'modalities',
    });
    const file = ask({ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-other-tenant' } }, { type: 'text', text: 'summarise' }] }] });
    expect(await refusal(file)).toEqual({ status: 400, code: 'upstream_object_not_allowed', param: 'messages[0].content[0].file.file_id' });
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('an audio answer the channel lets through but the table does not price is refused', async () => {
    await start({ audio_output: true });
    expect(await refusal(ask({ modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' } }))).toEqual({
      status: 400,
      code: 'audio_output_not_priced',
      param: 'modalities',
    });
  });

  it('web_search_options let through: the search is charged once per answer, unstreamed and streamed', async () => {
    await start({ hosted_tools: ['web_search'] });
    await e2e.client().chat.completions.create(ask({ web_search_options: { search_context_size: 'low' } }));
    const stream = await e2e.client().chat.completions.create({ ...ask({ web_search_options: {} }), stream: true });
    for await (const chunk of stream) void chunk;
    expect(upstreamCalls().map((call) => (call.body as Record<string, unknown>)['web_search_options'])).toEqual([{ search_context_size: 'low' }, {}]);
    const rows = await e2e.usageRows(2);
    for (const row of rows) expect(row).toMatchObject({ status: 200, units: 1, cost: tokenCost(row) + 25_000 });
  });

  it.each([
    ['priority', 2],
    ['flex', 0.5],
  ] as const)('service_tier %s let through and priced: the row costs %d times its tokens', async (tier, multiplier) => {
    await start({ service_tiers: [tier] });
    const completion = await e2e.client().chat.completions.create(ask({ service_tier: tier }));
    expect(completion.service_tier).toBe(tier);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, units: 0, cost: tokenCost(row!, multiplier) });
  });
});
