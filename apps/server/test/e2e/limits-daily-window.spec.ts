import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI } from '@google/genai';
import { GeminiErrorResponseSchema, TokenSchema, type LimitWindow, type Token } from '@chat-relay/contract';
import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/**
 * Issue 32, "done when": a token limited to $1/day and 100 requests/day is refused with the right
 * error in each dialect (OpenAI 429 insufficient_quota, Anthropic 402 billing_error, Gemini 429
 * RESOURCE_EXHAUSTED) and Retry-After when either is reached, before any upstream call — and
 * accepted again after midnight in the configured time zone. The relay's clock is the spec's:
 * a day passes here, not in real time.
 */

/** Tokyo (the relay's default zone here): its midnight is 15:00 UTC. */
const ZONE = 'Asia/Tokyo';
/** 19:00 in Tokyo on the 29th: the window is [28th 15:00Z, 29th 15:00Z), 5 h left. */
const MORNING_UTC = Date.parse('2026-11-29T10:00:00Z');
const TOKYO_MIDNIGHT = Date.parse('2026-11-29T15:00:00Z');

/** Prompts free; 40,000 µUSD a completion token: `max_tokens: 5` costs exactly 200,000 µUSD (5 of them make $1). */
const DEAR = 'gpt-4o';
/** 1 µUSD a completion token: 100 requests are far from $1. */
const CHEAP = 'gpt-4o-mini';
/** An endpoint beside chat (served for nothing: unpriced models are free in these specs). */
const EMBED = 'text-embedding-3-small';
const PER_REQUEST = 200_000;
const DOLLAR = 1_000_000;
/** Long enough that the simulator's echo is cut at `max_tokens`. */
const PROMPT = 'please echo this sentence back with all of its many words intact';

const LIMITS = [
  { period: 'day', metric: 'cost', limit: DOLLAR },
  { period: 'day', metric: 'requests', limit: 100 },
] as const;

describe('e2e: a daily window of $1 and 100 requests, in Asia/Tokyo, with the spec moving the clock', () => {
  let e2e: E2eRelayWithSim;
  let now = MORNING_UTC;

  beforeAll(async () => {
    e2e = await startRelayWithSim({ models: [DEAR, CHEAP, EMBED] }, { env: { RELAY_LIMITS_TIME_ZONE: ZONE }, clock: () => now });
    const priced = await admin('PUT', '/api/prices', {
      data: [
        { model: DEAR, input: 0, output: 40_000 * 1_000_000 },
        { model: CHEAP, input: 0, output: 1_000_000 },
      ],
    });
    expect(priced.status).toBe(200);
  });
  afterAll(() => e2e.close());

  async function admin(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  async function newToken(): Promise<{ id: number; key: string; token: Token }> {
    const response = await admin('POST', '/api/tokens', { name: `limited ${now}`, periodic_limits: LIMITS });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Token & { key: string };
    return { id: body.id, key: body.key, token: TokenSchema.parse(body) };
  }
  const windowsOf = async (id: number): Promise<LimitWindow[]> => TokenSchema.parse(await (await admin('GET', `/api/tokens/${id}`)).json()).windows;
  const clients = new Map<string, OpenAI>();
  /** One SDK client per key, as an app keeps it (100 calls at once share its connections). */
  const openai = (key: string): OpenAI => {
    let client = clients.get(key);
    if (!client) clients.set(key, (client = new OpenAI({ apiKey: key, baseURL: `${e2e.url}/v1`, maxRetries: 0 })));
    return client;
  };
  const anthropic = (key: string) => new Anthropic({ apiKey: key, baseURL: e2e.url, maxRetries: 0 });
  const genai = (key: string) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: e2e.url } });

  const viaOpenAi = (key: string, model: string) => openai(key).chat.completions.create({ model, max_tokens: 5, messages: [{ role: 'user', content: PROMPT }] });
  const viaAnthropic = (key: string, model: string) => anthropic(key).messages.create({ model, max_tokens: 5, messages: [{ role: 'user', content: PROMPT }] });
  const viaGemini = (key: string, model: string) => genai(key).models.generateContent({ model, contents: PROMPT, config: { maxOutputTokens: 5 } });
  /** The same refused request by hand in Google's dialect: its headers (the SDK's error keeps none). */
  const geminiRaw = (key: string, model: string) =>
    fetch(`${e2e.url}/v1beta/models/${model}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generationConfig: { maxOutputTokens: 5 } }),
    });
  const rejection = async (call: () => Promise<unknown>): Promise<unknown> =>
    call().then(
      () => {
        throw new Error('expected the call to be refused');
      },
      (error: unknown) => error,
    );

  /** Refused in all three dialects, each in its own shape, Retry-After the seconds to Tokyo's midnight; nothing reached the simulator. */
  async function expectRefusedEverywhere(key: string, model: string, message: RegExp, headers: Record<string, string>): Promise<void> {
    const before = e2e.sim.requests.length;
    const retryAfter = String(Math.ceil((TOKYO_MIDNIGHT - now) / 1000));

    const viaOpenAiError = await rejection(() => viaOpenAi(key, model));
    expect(viaOpenAiError).toBeInstanceOf(OpenAI.RateLimitError);
    const openAiError = viaOpenAiError as InstanceType<typeof OpenAI.RateLimitError>;
    expect({ status: openAiError.status, code: openAiError.code, type: openAiError.type }).toEqual({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(openAiError.error).toMatchObject({ message: expect.stringMatching(message) });
    expect(openAiError.headers?.get('retry-after')).toBe(retryAfter);
    for (const [name, value] of Object.entries(headers)) expect([name, openAiError.headers?.get(name)]).toEqual([name, value]);

    const viaAnthropicError = await rejection(() => viaAnthropic(key, model));
    expect(viaAnthropicError).toBeInstanceOf(Anthropic.PaymentRequiredError);
    const anthropicError = viaAnthropicError as InstanceType<typeof Anthropic.PaymentRequiredError>;
    expect(anthropicError.status).toBe(402);
    expect(anthropicError.error).toMatchObject({ type: 'error', error: { type: 'billing_error', message: expect.stringMatching(message) } });
    expect(anthropicError.headers?.get('retry-after')).toBe(retryAfter);

    const viaGeminiError = await rejection(() => viaGemini(key, model));
    expect(viaGeminiError).toBeInstanceOf(ApiError);
    expect((viaGeminiError as ApiError).status).toBe(429);
    const raw = await geminiRaw(key, model);
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe(retryAfter);
    const { error } = GeminiErrorResponseSchema.parse(await raw.json());
    expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED', message: expect.stringMatching(message) });

    // Refused before any upstream call.
    expect(e2e.sim.requests.length).toBe(before);
  }

  it('$1 reached: the 6th request is refused in each dialect, naming the window; after Tokyo midnight it is admitted again', async () => {
    now = MORNING_UTC;
    const { id, key, token } = await newToken();
    expect(token).toMatchObject({ periodic_limits: LIMITS, time_zone: null, alert_thresholds: null });
    expect(token.windows.map(({ metric, used, remaining, time_zone, starts_at, resets_at }) => ({ metric, used, remaining, time_zone, starts_at, resets_at }))).toEqual([
      { metric: 'cost', used: 0, remaining: DOLLAR, time_zone: ZONE, starts_at: '2026-11-28T15:00:00.000Z', resets_at: '2026-11-29T15:00:00.000Z' },
      { metric: 'requests', used: 0, remaining: 100, time_zone: ZONE, starts_at: '2026-11-28T15:00:00.000Z', resets_at: '2026-11-29T15:00:00.000Z' },
    ]);

    // Five at $0.20 in three dialects: exactly $1.
    await viaOpenAi(key, DEAR);
    await viaAnthropic(key, DEAR);
    await viaGemini(key, DEAR);
    await viaOpenAi(key, DEAR);
    await viaOpenAi(key, DEAR);
    await e2e.relay.services.recorder.flush();
    const used = await windowsOf(id);
    expect(used.map(({ metric, used: amount, remaining }) => ({ metric, used: amount, remaining }))).toEqual([
      { metric: 'cost', used: 5 * PER_REQUEST, remaining: 0 },
      { metric: 'requests', used: 5, remaining: 95 },
    ]);
    expect(used[0]).toMatchObject({ limit_usd: '1.000000', used_usd: '1.000000' });

    await expectRefusedEverywhere(
      key,
      DEAR,
      /^The daily cost limit of this API key \(1\.000000 USD per day, Asia\/Tokyo\) is reached: 1\.000000 USD used; it resets at 2026-11-30T00:00:00\+09:00 \(in 5h 0m\)\.$/,
      { 'x-ratelimit-limit-cost-day': '1.000000', 'x-ratelimit-remaining-cost-day': '0.000000', 'x-ratelimit-reset-cost-day': '5h0m0s' },
    );
    // A cheap model does not pass either: the window has nothing left at all.
    await expect(viaOpenAi(key, CHEAP)).rejects.toBeInstanceOf(OpenAI.RateLimitError);

    // One millisecond before Tokyo's midnight: still the same window.
    now = TOKYO_MIDNIGHT - 1;
    await expect(viaOpenAi(key, DEAR)).rejects.toMatchObject({ status: 429, headers: expect.anything() });
    // Midnight in Tokyo: a new window, empty by its key — no job ran.
    now = TOKYO_MIDNIGHT;
    expect((await viaOpenAi(key, DEAR)).choices[0]?.message.content).toBeTruthy();
    expect((await viaAnthropic(key, DEAR)).content[0]).toMatchObject({ type: 'text' });
    expect((await viaGemini(key, DEAR)).text).toBeTruthy();
    await e2e.relay.services.recorder.flush();
    expect((await windowsOf(id)).map(({ metric, used: amount, starts_at }) => ({ metric, used: amount, starts_at }))).toEqual([
      { metric: 'cost', used: 3 * PER_REQUEST, starts_at: '2026-11-29T15:00:00.000Z' },
      { metric: 'requests', used: 3, starts_at: '2026-11-29T15:00:00.000Z' },
    ]);

    const metrics = await (await admin('GET', '/metrics')).text();
    expect(metrics).toMatch(/relay_limit_refusals_total\{owner="token",period="day",metric="cost"\} ([5-9]|\d\d)/);
    expect(metrics).toContain(`relay_limit_window_used_ratio{owner="token",owner_id="${id}",period="day",metric="cost"} 0.6`);
  }, 20_000);

  it('100 requests reached: the 101st is refused in each dialect with Retry-After; after Tokyo midnight it is admitted again', async () => {
    now = MORNING_UTC;
    const { id, key } = await newToken();
    const before = e2e.sim.requests.length;
    // 100 at once: the window admits each, none more.
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => viaOpenAi(key, CHEAP)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(100);
    expect(e2e.sim.requests.length - before).toBe(100);

    now = MORNING_UTC + 3600_000 + 30_000;
    await expectRefusedEverywhere(
      key,
      CHEAP,
      /^The daily request limit of this API key \(100 requests per day, Asia\/Tokyo\) is reached: 100 requests used; it resets at 2026-11-30T00:00:00\+09:00 \(in 3h 59m\)\.$/,
      { 'x-ratelimit-limit-requests-day': '100', 'x-ratelimit-remaining-requests-day': '0', 'x-ratelimit-reset-requests-day': '3h59m30s' },
    );
    // Every endpoint counts in the same window: an embedding is refused too, before any upstream call.
    await expect(openai(key).embeddings.create({ model: EMBED, input: PROMPT })).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    await e2e.relay.services.recorder.flush();
    const [cost, requests] = await windowsOf(id);
    expect(requests).toMatchObject({ used: 100, remaining: 0 });
    // Settled at the real cost: 100 × 5 µUSD.
    expect(cost).toMatchObject({ used: 500 });

    now = TOKYO_MIDNIGHT + 1;
    await expect(viaAnthropic(key, CHEAP)).resolves.toMatchObject({ type: 'message' });
    expect((await openai(key).embeddings.create({ model: EMBED, input: PROMPT })).data).toHaveLength(1);
    await e2e.relay.services.recorder.flush();
    expect((await windowsOf(id))[1]).toMatchObject({ metric: 'requests', used: 2, starts_at: '2026-11-29T15:00:00.000Z' });
  }, 20_000);
});
