import request from 'supertest';
import { ErrorResponseSchema } from '@chat-relay/contract';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const ORIGIN = 'https://chat.example.com';

/** What a browser sends before `fetch(relay + '/v1/chat/completions', {method: 'POST', headers})`. */
const preflight = (relay: TestRelay, path: string, origin = ORIGIN) =>
  request(relay.app)
    .options(path)
    .set('origin', origin)
    .set('access-control-request-method', 'POST')
    .set('access-control-request-headers', 'authorization, content-type, x-stainless-os');

/** Issue 11: `OPTIONS /v1/chat/completions` was a 404, so browser chat apps could not use the relay. */
describe('issue 11: browsers can call /v1 (CORS)', () => {
  describe('by default: any origin for /v1, none for /api', () => {
    let relay: TestRelay;
    let key: string;

    beforeAll(async () => {
      relay = await createTestRelay();
      key = (await createToken(relay, { name: 'browser app' })).key;
    });
    afterAll(() => relay.close());

    it.each(['/v1/chat/completions', '/v1/models', '/v1/models/gpt-4o', '/v1/anything-else'])(
      'preflight of %s: 204 allowing the method and the headers asked for, no credentials',
      async (path) => {
        const response = await preflight(relay, path).expect(204);
        expect(response.headers['access-control-allow-origin']).toBe('*');
        expect(response.headers['access-control-allow-methods']).toContain('POST');
        expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, x-stainless-os');
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
        expect(response.text).toBe('');
      },
    );

    it('the answer itself, and an error answer, are readable by the page: allow-origin and exposed headers', async () => {
      const models = await request(relay.app).get('/v1/models').set('origin', ORIGIN).set(bearer(key)).expect(200);
      expect(models.headers['access-control-allow-origin']).toBe('*');
      expect(models.headers['access-control-expose-headers']).toContain('x-request-id');
      // What a fallback and a periodic window's refusal tell (issue 32) are readable too.
      const exposed = String(models.headers['access-control-expose-headers']).split(', ');
      expect(exposed).toEqual(expect.arrayContaining(['x-relay-served-model', 'x-relay-models-tried', 'x-ratelimit-reset-cost-day', 'x-ratelimit-remaining-tokens-month']));
      const refused = await request(relay.app).get('/v1/models').set('origin', ORIGIN).expect(401);
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      expect(ErrorResponseSchema.parse(refused.body).error.code).toBe('invalid_api_key');
    });

    it('the management API answers no preflight and sends no allow-origin', async () => {
      const response = await preflight(relay, '/api/tokens').expect(403);
      expect(ErrorResponseSchema.parse(response.body).error.code).toBe('cors_origin_not_allowed');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      const listed = await request(relay.app).get('/api/tokens').set('origin', ORIGIN).set(bearer(relay.adminKey)).expect(200);
      expect(listed.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('requests without an Origin (every non-browser client) get no CORS headers', async () => {
      const response = await request(relay.app).get('/v1/models').set(bearer(key)).expect(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('RELAY_CORS_ORIGINS and RELAY_CORS_API_ORIGINS as lists', () => {
    let relay: TestRelay;

    beforeAll(async () => {
      relay = await createTestRelay({
        env: { RELAY_CORS_ORIGINS: `${ORIGIN}, http://localhost:5173/`, RELAY_CORS_API_ORIGINS: 'https://console.example.com' },
      });
    });
    afterAll(() => relay.close());

    it('a listed origin is echoed (with Vary: Origin); another is refused', async () => {
      for (const origin of [ORIGIN, 'http://localhost:5173']) {
        const allowed = await preflight(relay, '/v1/chat/completions', origin).expect(204);
        expect(allowed.headers['access-control-allow-origin']).toBe(origin);
        expect(allowed.headers['vary']).toMatch(/Origin/);
      }
      const refused = await preflight(relay, '/v1/chat/completions', 'https://evil.example').expect(403);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      const plain = await request(relay.app).get('/v1/models').set('origin', 'https://evil.example').expect(401);
      expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('the management API opens to its configured origin only', async () => {
      const allowed = await preflight(relay, '/api/tokens', 'https://console.example.com').expect(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://console.example.com');
      await preflight(relay, '/api/tokens', ORIGIN).expect(403);
    });
  });

  it.each(['chat.example.com', 'https://chat.example.com/app', 'ftp://x.example', '*, https://a.example'])(
    'RELAY_CORS_ORIGINS=%s stops start-up with a message naming the variable',
    async (value) => {
      await expect(createTestRelay({ env: { RELAY_CORS_ORIGINS: value } })).rejects.toThrow(/RELAY_CORS_ORIGINS/);
    },
  );
});
