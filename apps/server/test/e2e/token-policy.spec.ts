import type { AddressInfo } from 'node:net';
import type { TokenUpdate } from '@chat-relay/contract';
import OpenAI from 'openai';
import { patchToken } from '../testing/patch-token';
import { startRelayWithSim, type E2eRelay, type E2eRelayWithSim } from './e2e-relay';
import { createAssistant } from './gizmo-assistants';

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

const hello = (model = 'gpt-4o'): CreateParams => ({ model, messages: [{ role: 'user', content: 'Hello there' }] });
const DURATION = /^(\d+h)?(\d+m)?\d+(\.\d+)?s$|^\d+ms$/;

/** The error the SDK raises for `body`; fails the test when the call succeeds. */
async function sdkError(client: OpenAI, body: CreateParams = hello()): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await client.chat.completions.create(body);
  } catch (error) {
    if (error instanceof OpenAI.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

/** Sets the policy of `target`'s token as an operator would: `PATCH /api/tokens/{id}` with the admin key. */
async function setPolicyOf(target: E2eRelay, update: TokenUpdate): Promise<void> {
  await patchToken(target.relay, target.tokenId, update);
}

/**
 * Token policy end to end through the official `openai` package (SPEC §4, §9). The policy
 * fields are set through the admin API, `PATCH /api/tokens/{id}`, as an operator would set them.
 */
describe('e2e: token policy through the openai SDK', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;
  const setPolicy = (update: TokenUpdate) => setPolicyOf(e2e, update);

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['gpt-4o', 'gpt-4o-mini'] });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  describe('status and expiry', () => {
    it('an expired token: 401 token_expired, AuthenticationError, the upstream never called', async () => {
      // PATCH accepts an expiry already past (tokens-policy.http.spec covers it): expired at once, no waiting.
      await setPolicy({ expires_at: new Date(Date.now() - 1000).toISOString() });
      const error = await sdkError(client);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).toMatchObject({ status: 401, type: 'authentication_error', code: 'token_expired' });
      expect(e2e.sim.requests).toHaveLength(0);
    });

    it('a token expiring later still works', async () => {
      await setPolicy({ expires_at: new Date(Date.now() + 3_600_000).toISOString() });
      await expect(client.chat.completions.create(hello())).resolves.toMatchObject({ object: 'chat.completion' });
    });

    it('a disabled token: 401 token_disabled', async () => {
      await setPolicy({ status: 'disabled' });
      const error = await sdkError(client);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(error).toMatchObject({ status: 401, code: 'token_disabled' });
    });

    it('a token disabled while traffic flows stops on its very next request; one already streaming finishes', async () => {
      for (let i = 0; i < 3; i++) await client.chat.completions.create(hello());
      const stream = await client.chat.completions.create({ ...hello(), stream: true });
      const chunks = stream[Symbol.asyncIterator]();
      expect((await chunks.next()).done).toBe(false);

      await setPolicy({ status: 'disabled' });
      const error = await sdkError(client);
      expect(error).toMatchObject({ status: 401, code: 'token_disabled' });
      await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);

      let rest = 0;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) rest++;
      expect(rest).toBeGreaterThan(0);

      await setPolicy({ status: 'active' });
      await expect(client.chat.completions.create(hello())).resolves.toMatchObject({ object: 'chat.completion' });
    });
  });

  describe('IP allow-list', () => {
    it('a token allowing only 10.0.0.0/8: 403 ip_not_allowed from 127.0.0.1, PermissionDeniedError', async () => {
      await setPolicy({ allowed_ips: ['10.0.0.0/8'] });
      const error = await sdkError(client);
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error).toMatchObject({ status: 403, type: 'permission_error', code: 'ip_not_allowed' });
      expect(error.message).toContain('127.0.0.1');
      await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(e2e.sim.requests).toHaveLength(0);
    });

    it('allowing 127.0.0.1/32: 200', async () => {
      await setPolicy({ allowed_ips: ['127.0.0.1/32'] });
      await expect(client.chat.completions.create(hello())).resolves.toMatchObject({ object: 'chat.completion' });
    });

    it('allowing ::1: 200 for a client on ::1, 403 for one on 127.0.0.1', async () => {
      await setPolicy({ allowed_ips: ['::1'] });
      const server = e2e.relay.app.listen(0, '::1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const overIpv6 = e2e.client({ baseURL: `http://[::1]:${port}/v1` });
        await expect(overIpv6.chat.completions.create(hello())).resolves.toMatchObject({ object: 'chat.completion' });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      expect(await sdkError(client)).toMatchObject({ status: 403, code: 'ip_not_allowed' });
    });

    it('X-Forwarded-For is not honoured without RELAY_TRUST_PROXY', async () => {
      await setPolicy({ allowed_ips: ['10.0.0.0/8'] });
      const forwarded = e2e.client({ defaultHeaders: { 'X-Forwarded-For': '10.1.2.3' } });
      expect(await sdkError(forwarded)).toMatchObject({ status: 403, code: 'ip_not_allowed' });
    });

    it("with trustProxy 'loopback', X-Forwarded-For from the local proxy is the client address", async () => {
      const proxied = await startRelayWithSim({}, { trustProxy: 'loopback' });
      try {
        await setPolicyOf(proxied, { allowed_ips: ['10.0.0.0/8'] });
        const behindProxy = proxied.client({ defaultHeaders: { 'X-Forwarded-For': '10.1.2.3' } });
        await expect(behindProxy.chat.completions.create(hello())).resolves.toMatchObject({ object: 'chat.completion' });
        const outsider = proxied.client({ defaultHeaders: { 'X-Forwarded-For': '192.0.2.7' } });
        const error = await sdkError(outsider);
        expect(error).toMatchObject({ status: 403, code: 'ip_not_allowed' });
        expect(error.message).toContain('192.0.2.7');
        // The usage log records the same address.
        const rows = await proxied.usageRows(2);
        expect(rows.map((row) => row.clientIp)).toEqual(['10.1.2.3', '192.0.2.7']);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('model allow-list', () => {
    it("['gpt-4o-mini', '*-gizmo-*']: gpt-4o is refused with PermissionDeniedError, the others answer", async () => {
      await createAssistant(e2e, { id: 'g-helper', name: 'Helper', instructions: 'Be brief.' });
      await setPolicy({ models: ['gpt-4o-mini', '*-gizmo-*'] });

      const error = await sdkError(client, hello('gpt-4o'));
      expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
      expect(error).toMatchObject({ status: 403, type: 'permission_error', code: 'model_not_allowed', param: 'model' });
      expect(error.message).toContain("'gpt-4o'");
      expect(e2e.sim.requests).toHaveLength(0);

      await expect(client.chat.completions.create(hello('gpt-4o-mini'))).resolves.toMatchObject({ model: 'gpt-4o-mini' });
      await expect(client.chat.completions.create(hello('gpt-4o-gizmo-g-helper'))).resolves.toMatchObject({
        model: 'gpt-4o-gizmo-g-helper',
      });
    });

    it('the plain family does not allow its gizmo names', async () => {
      await createAssistant(e2e, { id: 'g-helper', name: 'Helper', instructions: 'Be brief.' });
      await setPolicy({ models: ['gpt-4o'] });
      expect(await sdkError(client, hello('gpt-4o-gizmo-g-helper'))).toMatchObject({ status: 403, code: 'model_not_allowed' });
    });
  });

  describe('rate limits', () => {
    it('rpm 5: the sixth request in a minute is a RateLimitError with Retry-After and the x-ratelimit-* headers', async () => {
      await setPolicy({ rate_limit: { rpm: 5, tpm: null } });
      for (let i = 0; i < 5; i++) {
        const { response } = await client.chat.completions.create(hello()).withResponse();
        expect(response.headers.get('x-ratelimit-limit-requests')).toBe('5');
        expect(response.headers.get('x-ratelimit-remaining-requests')).toBe(String(4 - i));
        expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(DURATION);
      }

      const error = await sdkError(client);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      const retryAfter = Number(error.headers?.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(error.headers?.get('x-ratelimit-limit-requests')).toBe('5');
      expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
      expect(error.headers?.get('x-ratelimit-reset-requests')).toMatch(DURATION);
      expect(e2e.sim.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(5);

      const rows = await e2e.usageRows(6);
      expect(rows.map((row) => row.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(rows[5]?.errorCode).toBe('rate_limit_exceeded');
    });

    it('tpm: once the tokens used in the window reach the limit, RateLimitError with the -tokens headers', async () => {
      await setPolicy({ rate_limit: { rpm: null, tpm: 5 } });
      const { data, response } = await client.chat.completions.create(hello()).withResponse();
      expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('5');
      expect(data.usage?.total_tokens).toBeGreaterThanOrEqual(5);
      await e2e.usageRows(1);

      const error = await sdkError(client);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.headers?.get('x-ratelimit-remaining-tokens')).toBe('0');
      expect(error.headers?.get('x-ratelimit-reset-tokens')).toMatch(DURATION);
      expect(Number(error.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    });
  });
});
