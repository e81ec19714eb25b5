import type { FuzzContext } from './fuzz-context';

const FUZZ_MODEL = 'gpt-4o';
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
 * model, an account with its access key and chat token, a public assistant, and the spare
 * resources hostile writes may change. Returns what the generators aim at.
 */
export async function seedFuzzTargets(url: string, adminKey: string, sim: { baseUrl: string; key: string }): Promise<FuzzContext> {
  const post = <T>(path: string, body: unknown, key = adminKey) => call<T>(url, key, 'POST', path, body, 201);
  const channel = await post<{ id: number }>('/api/channels', {
    name: 'fuzz simulator',
    type: 'openai',
    base_url: sim.baseUrl,
    keys: [sim.key],
    models: [FUZZ_MODEL],
  });
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
  return {
    adminKey,
    accountKey: account.access_key,
    token: token.key,
    model: FUZZ_MODEL,
    assistantId: 'g-fuzz1',
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
