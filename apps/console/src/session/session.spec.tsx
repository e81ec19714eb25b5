import type { RelayClient } from '@chat-relay/client';
import { createRelayClient } from '@chat-relay/client';
import { openSession } from './session';

/** A client whose `GET /api/account` answers what the test says (the rest of the client is real). */
function clientAnswering(status: number, body: unknown): (key: string) => RelayClient {
  return (key) => {
    const client = createRelayClient({ baseUrl: 'http://relay.invalid', apiKey: key });
    const getAccountInfo = async () => ({ status, body, headers: new Headers({ 'x-request-id': 'req_1' }) });
    return { ...client, api: { ...client.api, accounts: { ...client.api.accounts, getAccountInfo } } } as unknown as RelayClient;
  };
}
const account = (role: 'admin' | 'user') => ({
  id: 7,
  name: 'Team A',
  role,
  status: 'active',
  quota_limit: null,
  quota_used: 0,
  key_hint: 'ak-…abcd',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

describe('openSession', () => {
  it('opens an admin session for the admin key and an account session for an access key', async () => {
    await expect(openSession('admin-key', clientAnswering(200, { account: account('admin'), token: null, quota_remaining: null }))).resolves.toMatchObject({
      isAdmin: true,
      account: { name: 'Team A' },
    });
    await expect(openSession('ak-key', clientAnswering(200, { account: account('user'), token: null, quota_remaining: null }))).resolves.toMatchObject({
      isAdmin: false,
    });
  });

  it('refuses an API token, which cannot manage anything', async () => {
    const token = { id: 3, name: 'app' };
    await expect(openSession('sk-token', clientAnswering(200, { account: account('user'), token, quota_remaining: null }))).rejects.toThrow('API token');
  });

  it('passes on the relay’s refusal of a wrong key with its request id', async () => {
    const body = { error: { message: 'Incorrect API key provided.', type: 'authentication_error', code: 'invalid_api_key', param: null } };
    await expect(openSession('wrong', clientAnswering(401, body))).rejects.toMatchObject({ status: 401, message: 'Incorrect API key provided.', requestId: 'req_1' });
  });
});
