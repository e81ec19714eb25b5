import type { SpawnedRelay } from './spawn-relay';

/** The admin API of a spawned relay, for the specs that run it in its own process. */
export async function adminCall<T>(relay: SpawnedRelay, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${relay.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${relay.adminKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** An OpenAI channel on `baseUrl` for `gpt-4o` and a token: the token's id and key. */
export async function channelAndToken(relay: SpawnedRelay, baseUrl: string, simKey: string): Promise<{ id: number; key: string }> {
  await adminCall(relay, 'POST', '/api/channels', { name: 'sim', type: 'openai', base_url: baseUrl, keys: [simKey], models: ['gpt-4o'] });
  return adminCall<{ id: number; key: string }>(relay, 'POST', '/api/tokens', { name: 'spawned' });
}
