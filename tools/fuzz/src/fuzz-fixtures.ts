import type { FuzzContext } from './fuzz-context';
import { seedResponsesTargets } from './responses-fixtures';

const FUZZ_MODEL = 'gpt-4o';
/** The Messages family's models (see FuzzContext.messagesModels); the simulator knows the Claude ones. */
const MESSAGES_MODELS = { native: 'claude-sonnet-4-5', bridged: 'claude-opus-4-1', gemini: 'gemini-2.5-flash', both: 'claude-haiku-4-5' };

/** Where the simulator listens for each provider's format, and the one key it accepts. */
export interface FuzzSim {
  baseUrl: string;
  /** The OpenAI side without the Responses API. */
  chatOnlyBaseUrl: string;
  anthropicBaseUrl: string;
  geminiBaseUrl: string;
  key: string;
}
/** 9 billion USD in micro-USD, under 2^53. */
const UNREACHABLE_QUOTA = 9_000_000_000_000_000;

async function call<T>(url: string, key: string, method: string, path: string, body: unknown, expected: number): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Through the admin API of the relay at `url`: a channel to the simulator serving the chat
 * model, Anthropic, OpenAI and Gemini channels for the Messages family's models, an account with
 * its access key and chat token, a public assistant, the spare resources hostile writes may
 * change, and the Responses family's own channels, token and stored responses. Returns what the
 * generators aim at.
 */
export async function seedFuzzTargets(url: string, adminKey: string, sim: FuzzSim): Promise<FuzzContext> {
  const post = <T>(path: string, body: unknown, key = adminKey) => call<T>(url, key, 'POST', path, body, 201);
  const channel = await post<{ id: number }>('/api/channels', {
    name: 'fuzz simulator',
    type: 'openai',
    base_url: sim.baseUrl,
    keys: [sim.key],
    models: [FUZZ_MODEL],
  });
  await post('/api/channels', {
    name: 'fuzz anthropic',
    type: 'anthropic',
    base_url: sim.anthropicBaseUrl,
    keys: [sim.key],
    models: [MESSAGES_MODELS.native, MESSAGES_MODELS.both],
  });
  await post('/api/channels', {
    name: 'fuzz claude names on openai',
    type: 'openai',
    base_url: sim.baseUrl,
    keys: [sim.key],
    models: [MESSAGES_MODELS.bridged, MESSAGES_MODELS.both],
    model_mapping: { [MESSAGES_MODELS.bridged]: FUZZ_MODEL, [MESSAGES_MODELS.both]: FUZZ_MODEL },
  });
  await post('/api/channels', { name: 'fuzz gemini', type: 'gemini', base_url: sim.geminiBaseUrl, keys: [sim.key], models: [MESSAGES_MODELS.gemini] });
  const spareChannel = await post<{ id: number }>('/api/channels', {
    name: 'fuzz spare',
    type: 'openai',
    base_url: sim.baseUrl,
    keys: [sim.key],
    models: ['fuzz-spare'],
  });
  // Limits no run can reach, but limits: only then does the relay reserve before each call, the
  // arithmetic that extreme max_tokens values break.
  const account = await post<{ id: number; access_key: string }>('/api/accounts', { name: 'fuzz', role: 'user', quota_limit: UNREACHABLE_QUOTA });
  const spareAccount = await post<{ id: number }>('/api/accounts', { name: 'fuzz spare', role: 'user', quota_limit: 1_000_000 });
  const token = await post<{ id: number; key: string }>('/api/tokens', { name: 'fuzz chat', account_id: account.id, quota_limit: UNREACHABLE_QUOTA });
  const spareTokens = [
    await post<{ id: number }>('/api/tokens', { name: 'spare a', account_id: account.id }),
    await post<{ id: number }>('/api/tokens', { name: 'spare b', account_id: account.id, quota_limit: 10 }),
    await post<{ id: number }>('/api/tokens', { name: 'spare c', account_id: spareAccount.id }),
  ];
  await post('/api/assistants', { id: 'g-fuzz1', name: 'Fuzz', instructions: 'Answer briefly.', visibility: 'public' });
  await post('/api/assistants', { id: 'g-spare1', name: 'Spare', visibility: 'public' });
  await post('/api/assistants', { id: 'g-spare2', name: 'Spare of the account' }, account.access_key);
  const responses = await seedResponsesTargets(url, adminKey, sim);
  return {
    adminKey,
    accountKey: account.access_key,
    token: token.key,
    model: FUZZ_MODEL,
    assistantId: 'g-fuzz1',
    messagesModels: MESSAGES_MODELS,
    responses,
    simBaseUrl: sim.baseUrl,
    simKey: sim.key,
    fixtureIds: { token: token.id, account: account.id, channel: channel.id },
    spareIds: {
      tokens: spareTokens.map((spare) => spare.id),
      accounts: [spareAccount.id],
      channels: [spareChannel.id],
      assistants: ['g-spare1', 'g-spare2'],
    },
  };
}
