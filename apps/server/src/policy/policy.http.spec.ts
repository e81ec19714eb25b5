import { ErrorResponseSchema, type TokenUpdate } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { patchToken } from '../../test/testing/patch-token';
import { createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const SIM_KEY = 'sk-sim-key';
const RATE_LIMIT_HEADERS = [
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
] as const;
const DURATION = /^(\d+h)?(\d+m)?\d+(\.\d+)?s$|^\d+ms$/;

const chat = (model: string) => ({ model, messages: [{ role: 'user', content: 'Hello there' }] });

function errorOf(body: unknown) {
  return ErrorResponseSchema.parse(body).error;
}

describe('token policy over HTTP', () => {
  let relay: TestRelay;
  let sim: UpstreamSim;

  beforeAll(async () => {
    relay = await createTestRelay();
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    await request(relay.app)
      .post('/api/channels')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: [SIM_KEY], models: ['gpt-4o', 'gpt-4o-mini'] })
      .expect(201);
  });
  afterAll(async () => {
    await relay.close();
    await sim.close();
  });

  /** A fresh token (rate limits are per token) with `policy` set by `PATCH /api/tokens/{id}`. */
  async function tokenWith(policy: TokenUpdate, target: TestRelay = relay): Promise<string> {
    const token = await createToken(target, { name: 'policy' });
    await patchToken(target, token.id, policy);
    return token.key;
  }

  describe('IP allow-list', () => {
    it('403 ip_not_allowed naming the address when the client is outside the list', async () => {
      const key = await tokenWith({ allowed_ips: ['10.0.0.0/8'] });
      const response = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${key}`).expect(403);
      const error = errorOf(response.body);
      expect(error).toMatchObject({ type: 'permission_error', code: 'ip_not_allowed' });
      // supertest listens dual-stack, so Express reports the IPv4-mapped form.
      expect(error.message).toMatch(/127\.0\.0\.1/);
      await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o')).expect(403);
      await request(relay.app).get('/v1/models/gpt-4o').set('authorization', `Bearer ${key}`).expect(403);
      expect(sim.requests).toHaveLength(0);
    });

    it('an IPv4 rule admits the IPv4-mapped address a dual-stack socket reports', async () => {
      const key = await tokenWith({ allowed_ips: ['127.0.0.1/32'] });
      await request(relay.app).get('/v1/models').set('authorization', `Bearer ${key}`).expect(200);
      await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o')).expect(200);
    });

    it('an IPv6 rule admits a client on ::1', async () => {
      const key = await tokenWith({ allowed_ips: ['::1'] });
      const server = relay.app.listen(0, '::1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const response = await fetch(`http://[::1]:${port}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      // …and nobody on 127.0.0.1.
      await request(relay.app).get('/v1/models').set('authorization', `Bearer ${key}`).expect(403);
    });

    it('X-Forwarded-For is ignored unless RELAY_TRUST_PROXY names the proxy', async () => {
      const key = await tokenWith({ allowed_ips: ['10.0.0.0/8'] });
      const response = await request(relay.app)
        .get('/v1/models')
        .set('authorization', `Bearer ${key}`)
        .set('x-forwarded-for', '10.1.2.3')
        .expect(403);
      expect(errorOf(response.body).message).not.toContain('10.1.2.3');
    });

    it('behind a trusted proxy, the forwarded client address is the one checked', async () => {
      const proxied = await createTestRelay({ env: { RELAY_TRUST_PROXY: 'loopback' } });
      try {
        const key = await tokenWith({ allowed_ips: ['10.0.0.0/8'] }, proxied);
        const call = (forwardedFor: string) =>
          request(proxied.app).get('/v1/models').set('authorization', `Bearer ${key}`).set('x-forwarded-for', forwardedFor);
        await call('10.1.2.3').expect(200);
        // The proxy appends what it saw; the rightmost untrusted address is the client.
        await call('10.1.2.3, 192.0.2.7').expect(403);
        const refused = await call('192.0.2.7').expect(403);
        expect(errorOf(refused.body).message).toContain('192.0.2.7');
      } finally {
        await proxied.close();
      }
    });
  });

  describe('model allow-list', () => {
    it("403 model_not_allowed naming the model; globs and gizmo names as sent", async () => {
      const key = await tokenWith({ models: ['gpt-4o-mini', '*-gizmo-*'] });
      const refused = await request(relay.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send(chat('gpt-4o'))
        .expect(403);
      expect(errorOf(refused.body)).toMatchObject({ type: 'permission_error', code: 'model_not_allowed', param: 'model' });
      expect(errorOf(refused.body).message).toContain("'gpt-4o'");

      await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o-mini')).expect(200);
      // Past the allow-list: the unknown assistant is the next thing to answer.
      const gizmo = await request(relay.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send(chat('gpt-4o-gizmo-g-nosuch'))
        .expect(404);
      expect(errorOf(gizmo.body).code).toBe('model_not_found');
    });

    it('a refused request leaves a usage row with the code', async () => {
      const key = await tokenWith({ models: ['gpt-4o-mini'] });
      await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o')).expect(403);
      await relay.services.recorder.flush();
      const [row] = await relay.storage.usageLog.recent(1);
      expect(row).toMatchObject({ status: 403, errorCode: 'model_not_allowed', requestedModel: 'gpt-4o' });
    });
  });

  describe('rate limits', () => {
    it('rpm 5: five answers with the headers, the sixth 429 with Retry-After', async () => {
      const key = await tokenWith({ rate_limit: { rpm: 5, tpm: null } });
      for (let i = 0; i < 5; i++) {
        const path = i % 2 === 0 ? '/v1/models' : '/v1/chat/completions';
        const call = i % 2 === 0 ? request(relay.app).get(path) : request(relay.app).post(path).send(chat('gpt-4o'));
        const response = await call.set('authorization', `Bearer ${key}`).expect(200);
        expect(response.headers['x-ratelimit-limit-requests']).toBe('5');
        expect(response.headers['x-ratelimit-remaining-requests']).toBe(String(4 - i));
        expect(response.headers['x-ratelimit-reset-requests']).toMatch(DURATION);
        expect(response.headers['retry-after']).toBeUndefined();
      }
      const sixth = await request(relay.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send(chat('gpt-4o'))
        .expect(429);
      expect(errorOf(sixth.body)).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
      for (const header of RATE_LIMIT_HEADERS) expect(sixth.headers[header]).toBeDefined();
      expect(sixth.headers['x-ratelimit-remaining-requests']).toBe('0');
      expect(sixth.headers['x-ratelimit-limit-tokens']).toBeUndefined();
      expect(sixth.headers['x-request-id']).toBeDefined();

      // Another token is not affected.
      const other = await tokenWith({ rate_limit: { rpm: 5, tpm: null } });
      await request(relay.app).get('/v1/models').set('authorization', `Bearer ${other}`).expect(200);
    });

    it('tpm: the tokens of a completed request count, and the next one is refused once they reach the limit', async () => {
      const key = await tokenWith({ rate_limit: { rpm: null, tpm: 5 } });
      const first = await request(relay.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send(chat('gpt-4o'))
        .expect(200);
      expect(first.headers['x-ratelimit-remaining-tokens']).toBe('5');
      expect(first.body.usage.total_tokens).toBeGreaterThanOrEqual(5);

      // The usage is counted when the response closes, a moment after the client has it.
      let refused: request.Response | undefined;
      for (let attempt = 0; attempt < 50 && !refused; attempt++) {
        const response = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${key}`);
        if (response.status === 429) refused = response;
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(refused).toBeDefined();
      expect(errorOf(refused!.body).message).toContain('tokens per minute (tpm): limit 5');
      expect(refused!.headers).toMatchObject({
        'x-ratelimit-limit-tokens': '5',
        'x-ratelimit-remaining-tokens': '0',
        'retry-after': expect.stringMatching(/^\d+$/),
      });
      expect(refused!.headers['x-ratelimit-reset-tokens']).toMatch(DURATION);
    });

    it('policy refusals do not count towards rpm', async () => {
      const key = await tokenWith({ models: ['gpt-4o-mini'], rate_limit: { rpm: 1, tpm: null } });
      for (let i = 0; i < 3; i++) {
        await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o')).expect(403);
      }
      await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chat('gpt-4o-mini')).expect(200);
    });
  });

  describe('status and expiry (bearer-auth) come first', () => {
    it('401 token_disabled and token_expired, before any other policy', async () => {
      const disabled = await tokenWith({ status: 'disabled', allowed_ips: ['10.0.0.0/8'] });
      const expired = await tokenWith({ expires_at: '2000-01-01T00:00:00.000Z', models: [] });
      const a = await request(relay.app).get('/v1/models').set('authorization', `Bearer ${disabled}`).expect(401);
      expect(errorOf(a.body)).toMatchObject({ type: 'authentication_error', code: 'token_disabled' });
      const b = await request(relay.app).post('/v1/chat/completions').set('authorization', `Bearer ${expired}`).send(chat('gpt-4o')).expect(401);
      expect(errorOf(b.body)).toMatchObject({ type: 'authentication_error', code: 'token_expired' });
    });
  });
});
