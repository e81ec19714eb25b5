import type { ChannelPassthroughInput, Price } from '@chat-relay/contract';
import { geminiKind } from './anthropic-e2e';
import { GEMINI, startGeminiRelay, type GeminiE2e } from './gemini-e2e';

/**
 * Issue 26 on Gemini's dialect: a generateContent request passed through to a `gemini` channel
 * (the official `@google/genai` package against the relay and the simulator) uses Google's own
 * tools, a spoken answer and context caches only where the channel lets them through and the
 * table prices them; a prompt grounded on Google Search is charged per grounded prompt.
 */

/** Gemini 2.5 Pro's $1.25 / $10 per million tokens; grounding $35 per 1,000 grounded prompts. */
const PRICE = { model: GEMINI, input: 1_250_000, output: 10_000_000, tool_calls: { web_search: 35_000 } } satisfies Price;

describe('e2e: native Gemini passthrough is policed by what it carries (issue 26)', () => {
  let e2e: GeminiE2e;
  const upstreamCalls = () => geminiKind.calls(e2e.sim);

  async function start(passthrough?: ChannelPassthroughInput): Promise<void> {
    e2e = await startGeminiRelay(geminiKind, passthrough ? { passthrough } : {});
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

  /** The SDK's error for a refused call: Google's status code and message. */
  async function refusal(config: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<{ status: number; message: string }> {
    const error: unknown = await e2e.genai.models.generateContent({ model: GEMINI, contents: 'what is new in rust', config, ...extra }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof Error) || !('status' in error)) throw new Error(`expected a refusal, got ${String(error)}`);
    return { status: Number(error.status), message: error.message };
  }

  it('Google Search, a spoken answer and a context cache are refused by default, naming what, before any upstream call', async () => {
    await start();
    const search = await refusal({ tools: [{ googleSearch: {} }] });
    expect(search.status).toBe(400);
    expect(search.message).toContain("'googleSearch'");
    const speech = await refusal({ responseModalities: ['AUDIO'] });
    expect(speech.message).toContain('Audio answers');
    const cache = await refusal({ cachedContent: 'cachedContents/of-another-tenant' });
    expect(cache.message).toContain('cachedContents/of-another-tenant');
    expect(upstreamCalls()).toHaveLength(0);
  });

  it('Google Search let through: a grounded answer is charged once per grounded prompt, unstreamed and streamed', async () => {
    await start({ hosted_tools: ['web_search'] });
    const answer = await e2e.genai.models.generateContent({ model: GEMINI, contents: 'what is new in rust', config: { tools: [{ googleSearch: {} }] } });
    expect(answer.candidates?.[0]?.groundingMetadata?.webSearchQueries).toEqual(['what is new in rust']);
    const stream = await e2e.genai.models.generateContentStream({ model: GEMINI, contents: 'what is new in rust', config: { tools: [{ googleSearch: {} }] } });
    for await (const chunk of stream) void chunk;
    const rows = await e2e.usageRows(2);
    for (const row of rows) {
      const tokens = Math.ceil((row.promptTokens * PRICE.input + row.completionTokens * PRICE.output) / 1_000_000);
      expect(row).toMatchObject({ status: 200, units: 1, cost: tokens + 35_000 });
    }
  });
});
