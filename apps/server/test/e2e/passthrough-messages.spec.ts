import Anthropic from '@anthropic-ai/sdk';
import type { ChannelPassthroughInput, Price } from '@chat-relay/contract';
import { anthropicClient, anthropicKind, CLAUDE, startAnthropicRelay, type AnthropicE2e } from './anthropic-e2e';

/**
 * Issue 26 on Anthropic's dialect: a Messages request passed through to an `anthropic` channel
 * (the official `@anthropic-ai/sdk` against the relay and the simulator) carries server tools,
 * fast mode and upstream object ids only where the channel lets them through and the price table
 * prices them; a web search that ran is charged per search on the row, from the answer's
 * `usage.server_tool_use`.
 */

/** Claude Opus 4.5's $5 / $25 per million tokens; web search $10 per 1,000 searches. */
const PRICE = { model: CLAUDE, input: 5_000_000, output: 25_000_000, tool_calls: { web_search: 10_000 }, service_tiers: { fast: 6 } } satisfies Price;
const WEB_SEARCH = { type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 3 };

describe('e2e: native Messages passthrough is policed by what it carries (issue 26)', () => {
  let e2e: AnthropicE2e;
  const upstreamCalls = () => anthropicKind.calls(e2e.sim);

  async function start(passthrough?: ChannelPassthroughInput): Promise<void> {
    e2e = await startAnthropicRelay(anthropicKind, passthrough ? { passthrough } : {});
    const prices = await fetch(`${e2e.url}/api/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [PRICE] }),
    });
    expect(prices.status).toBe(200);
  }

  afterEach(async () => {
    await e2e.close();
  });

  async function refusal(body: Anthropic.MessageCreateParamsNonStreaming): Promise<{ status: number; type: unknown; message: string }> {
    const error: unknown = await anthropicClient(e2e).messages.create(body).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof Anthropic.APIError)) throw new Error(`expected a refusal, got ${String(error)}`);
    const body_ = error.error as { type?: string; error?: { type?: string; message?: string } };
    return { status: error.status ?? 0, type: body_.error?.type, message: body_.error?.message ?? '' };
  }

  const ask = (fields: Partial<Anthropic.MessageCreateParamsNonStreaming> = {}): Anthropic.MessageCreateParamsNonStreaming => ({
    model: CLAUDE,
    max_tokens: 200,
    messages: [{ role: 'user', content: 'what is new in rust' }],
    ...fields,
  });

  const tokenCost = (row: { promptTokens: number; completionTokens: number }) => Math.ceil((row.promptTokens * PRICE.input + row.completionTokens * PRICE.output) / 1_000_000);

  it("a server web search is refused by default, in Anthropic's error shape, naming the tool; nothing is sent", async () => {
    await start();
    const refused = await refusal(ask({ tools: [WEB_SEARCH] }));
    expect(refused).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(refused.message).toContain("'web_search_20250305'");
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('a web search the channel lets through runs at Anthropic and is charged per search on the row, unstreamed and streamed', async () => {
    await start({ hosted_tools: ['web_search'] });
    const message = await anthropicClient(e2e).messages.create(ask({ tools: [WEB_SEARCH] }));
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);

    const stream = anthropicClient(e2e).messages.stream(ask({ tools: [WEB_SEARCH] }));
    const final = await stream.finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);

    const rows = await e2e.usageRows(2);
    for (const row of rows) expect(row).toMatchObject({ status: 200, units: 1, cost: tokenCost(row) + 10_000 });
  });

  it('a container not created through the relay, and a file by id, are refused naming the field', async () => {
    await start({ hosted_tools: ['code_execution'] });
    const container = await refusal({ ...ask(), container: 'container_of_another_tenant' } as Anthropic.MessageCreateParamsNonStreaming);
    expect(container).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(container.message).toContain('container_of_another_tenant');
    const document = { type: 'document' as const, source: { type: 'file' as const, file_id: 'file_other_tenant' } };
    const file = await refusal(ask({ messages: [{ role: 'user', content: [document as unknown as Anthropic.TextBlockParam, { type: 'text', text: 'summarise' }] }] }));
    expect(file.message).toContain('file_other_tenant');
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('fast mode is a premium tier: refused unless the channel lets it through, then the row costs its multiple', async () => {
    await start();
    const fast = { ...ask(), speed: 'fast' } as Anthropic.MessageCreateParamsNonStreaming;
    const refused = await refusal(fast);
    expect(refused).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(refused.message).toContain("'fast'");
    await e2e.close();

    await start({ service_tiers: ['fast'] });
    await anthropicClient(e2e).messages.create(fast);
    const [row] = await e2e.usageRows(1);
    expect(row!.cost).toBe(Math.ceil((6 * (row!.promptTokens * PRICE.input + row!.completionTokens * PRICE.output)) / 1_000_000));
  });
});
