/** The Responses family's models: one per kind of channel a Responses request can reach. */
export const RESPONSES_MODELS = {
  /** An `openai` channel with the Responses API: passed through. */
  native: 'gpt-4.1',
  /** An `openai` channel without it (404 on /responses): learnt on the first request, bridged after. */
  chatOnly: 'gpt-4.1-mini',
  /** Bridged to the Anthropic side. */
  anthropic: 'claude-opus-4-5',
  /** Bridged to Gemini. */
  gemini: 'gemini-2.5-pro',
  /** On the native channel and the Gemini one: a retry may change the path. */
  mixed: 'gpt-4.1-nano',
} as const;

/**
 * What the Responses family aims at: its own account and token (so its usage rows and quota are
 * its own to count), its own channels (its faults never weigh on the channels of other families),
 * and responses stored before the run for `previous_response_id` and the item routes.
 */
export interface ResponsesTargets {
  token: string;
  tokenId: number;
  accountId: number;
  models: typeof RESPONSES_MODELS;
  previous: {
    /** Kept by the simulator behind the native channel; the relay knows only where. */
    native: string;
    /** Kept by the relay (answered through the Anthropic bridge). */
    bridged: string;
    /** The second of a bridged chain (Gemini, after `bridged`). */
    chained: string;
    /** Answered with `store: false`: a later request cannot refer to it. */
    unstored: string;
  };
  /** Stored responses the family may delete (the others stay for the whole run). */
  deletable: string[];
}

/** Where the simulator listens: the OpenAI side with and without the Responses API, Anthropic, Gemini. */
export interface ResponsesSim {
  baseUrl: string;
  chatOnlyBaseUrl: string;
  anthropicBaseUrl: string;
  geminiBaseUrl: string;
  key: string;
}

/** 9 billion USD in micro-USD: a limit no run reaches, so every request reserves before its call. */
const UNREACHABLE_QUOTA = 9_000_000_000_000_000;

async function call<T>(url: string, key: string, method: string, path: string, body: unknown, expected: number): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The usage rows of a token so far: how many, and what they cost (micro-USD). */
export async function tokenUsage(url: string, adminKey: string, tokenId: number): Promise<{ requests: number; cost: number }> {
  const to = new Date(Date.now() + 86_400_000).toISOString();
  const usage = await call<{ total: { requests: number; cost: number } }>(url, adminKey, 'GET', `/api/tokens/${tokenId}/usage?from=2000-01-01T00:00:00Z&to=${to}`, undefined, 200);
  return usage.total;
}

/**
 * Through the relay at `url`: the Responses family's channels, account and token, and the
 * responses it refers to, created by real requests. Returns once their usage rows are written,
 * so a run can count its own from there.
 */
export async function seedResponsesTargets(url: string, adminKey: string, sim: ResponsesSim): Promise<ResponsesTargets> {
  const post = <T>(path: string, body: unknown, key = adminKey, expected = 201) => call<T>(url, key, 'POST', path, body, expected);
  const models = RESPONSES_MODELS;
  const channel = (name: string, type: string, baseUrl: string, served: Record<string, string>) =>
    post('/api/channels', { name: `fuzz responses ${name}`, type, base_url: baseUrl, keys: [sim.key], models: Object.keys(served), model_mapping: served });
  await channel('native', 'openai', sim.baseUrl, { [models.native]: models.native, [models.mixed]: models.native });
  await channel('chat-only', 'openai', sim.chatOnlyBaseUrl, { [models.chatOnly]: 'gpt-4o' });
  await channel('anthropic', 'anthropic', sim.anthropicBaseUrl, { [models.anthropic]: 'claude-opus-4-5-20251101' });
  await channel('gemini', 'gemini', sim.geminiBaseUrl, { [models.gemini]: 'gemini-2.5-flash', [models.mixed]: 'gemini-2.5-flash' });
  const account = await post<{ id: number }>('/api/accounts', { name: 'fuzz responses', role: 'user', quota_limit: UNREACHABLE_QUOTA });
  const token = await post<{ id: number; key: string }>('/api/tokens', { name: 'fuzz responses', account_id: account.id, quota_limit: UNREACHABLE_QUOTA });

  const create = async (body: Record<string, unknown>) => (await post<{ id: string }>('/v1/responses', { input: 'Remember the number 7.', ...body }, token.key, 200)).id;
  const native = await create({ model: models.native });
  const bridged = await create({ model: models.anthropic });
  const chained = await create({ model: models.gemini, input: 'And the number 8?', previous_response_id: bridged });
  const unstored = await create({ model: models.anthropic, store: false });
  const deletable = [await create({ model: models.gemini }), await create({ model: models.native }), await create({ model: models.anthropic })];

  const seeded = 7;
  const deadline = Date.now() + 10_000;
  while ((await tokenUsage(url, adminKey, token.id)).requests < seeded) {
    if (Date.now() > deadline) throw new Error('the usage rows of the seeded responses were not written within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { token: token.key, tokenId: token.id, accountId: account.id, models, previous: { native, bridged, chained, unstored }, deletable };
}
