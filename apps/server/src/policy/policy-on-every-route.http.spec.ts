import { relayContract, type RouteMetadata, type TokenUpdate } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import express from 'express';
import request from 'supertest';
import { createLocalCluster } from '../cluster/cluster';
import { patchToken } from '../../test/testing/patch-token';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import { InMemoryRateLimiter } from './rate-limiter';

/**
 * Issue 26: the token policy ran only where a route remembered to call it, so stored-object
 * reads and deletes (a stored response, a video, a Suno task, the account and billing routes)
 * ignored the token's address allow-list, rpm and concurrency. Every route of the contract an
 * API token may call is walked here — read from the contract, never listed by hand — so a route
 * added later is covered the day it is added.
 */
function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((entry) => (isAppRoute(entry) ? [entry] : routesOf(entry)));
}

const metadataOf = (route: AppRoute) => route.metadata as RouteMetadata;
const TOKEN_ROUTES = routesOf(relayContract).filter((route) => ['token', 'self'].includes(metadataOf(route).auth));

/** A path parameter's value: a model the channel serves, a Gemini target, a Suno action, else an id nobody has. */
const PARAMS: Record<string, string> = { model: 'gpt-4o', target: 'gpt-4o:generateContent', action: 'music', id: 'missing-id' };
const pathOf = (route: AppRoute): string => route.path.replace(/:(\w+)/g, (_, name: string) => PARAMS[name] ?? 'x');

const MULTIPART_BOUNDARY = 'policy-walk';
const multipartBody = Buffer.from(
  [
    `--${MULTIPART_BOUNDARY}`,
    'Content-Disposition: form-data; name="model"',
    '',
    'gpt-4o',
    `--${MULTIPART_BOUNDARY}`,
    'Content-Disposition: form-data; name="prompt"',
    '',
    'a cat',
    `--${MULTIPART_BOUNDARY}--`,
    '',
  ].join('\r\n'),
);

/** The route called as its clients call it: a JSON body naming the model, or the same as multipart. */
function call(app: express.Express, route: AppRoute, key: string) {
  const path = pathOf(route);
  const method = route.method.toLowerCase() as 'get' | 'post' | 'delete';
  const sent = request(app)[method](path).set(bearer(key));
  if (route.method === 'GET' || route.method === 'DELETE') return sent;
  if (route.contentType === 'multipart/form-data') {
    return sent.set('content-type', `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`).send(multipartBody);
  }
  return sent.set('content-type', 'application/json').send(JSON.stringify({ model: 'gpt-4o', ids: ['missing-id'] }));
}

/** The error code as the route's dialect writes it (see error-handler.ts). */
function errorCodeIn(route: AppRoute, body: unknown): unknown {
  const dialect = metadataOf(route).dialect ?? 'openai';
  const shaped = body as { error?: { code?: unknown; status?: unknown; type?: unknown }; code?: unknown; data?: unknown; type?: unknown };
  switch (dialect) {
    case 'anthropic':
      expect(shaped.type).toBe('error');
      return shaped.error?.type;
    case 'gemini':
      return shaped.error?.status;
    case 'suno':
      expect(shaped.data).toBeNull();
      return shaped.code;
    default:
      return shaped.error?.code;
  }
}

const ROUTE_NAMES = TOKEN_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const);

describe('the token policy on every route an API token may call', () => {
  let relay: TestRelay;
  let sim: UpstreamSim;
  const limiter = new InMemoryRateLimiter();

  beforeAll(async () => {
    relay = await createTestRelay({ cluster: createLocalCluster(limiter) });
    sim = await startUpstreamSim({ acceptedKeys: ['sk-sim'] });
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: ['sk-sim'], models: ['gpt-4o'] })
      .expect(201);
  });
  afterAll(async () => {
    await relay.close();
    await sim.close();
  });

  async function tokenWith(policy: TokenUpdate): Promise<{ id: number; key: string }> {
    const token = await createToken(relay, { name: 'walk' });
    await patchToken(relay, token.id, policy);
    return { id: token.id, key: token.key };
  }

  it('walks the contract: chat, stored responses, videos, Suno, self-service and billing are all there', () => {
    const paths = TOKEN_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(paths).toEqual(
      expect.arrayContaining(['GET /v1/responses/:id', 'DELETE /v1/videos/:id', 'GET /suno/fetch/:id', 'GET /api/account', 'GET /v1/dashboard/billing/usage']),
    );
  });

  it.each([
    ['/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] }],
    ['/v1/messages', { model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }],
    ['/v1/responses', { model: 'gpt-4o', input: 'Hi' }],
    ['/v1beta/models/gpt-4o:generateContent', { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }],
  ])('%s relayed to the upstream: its rpm and concurrency slot are taken once, by the admission alone', async (path, body) => {
    const { key } = await tokenWith({ rate_limit: { rpm: 1, concurrency: 1 } });
    const answered = await request(relay.app).post(path).set(bearer(key)).send(body);
    expect(answered.status).toBe(200);
    expect(answered.headers['x-ratelimit-remaining-requests']).toBe('0');
    expect((await request(relay.app).post(path).set(bearer(key)).send(body)).status).toBe(429);
  });

  it.each(ROUTE_NAMES)('%s: a token locked to another address is refused 403 ip_not_allowed in the route dialect', async (_name, route) => {
    const { key } = await tokenWith({ allowed_ips: ['10.0.0.1'] });
    const response = await call(relay.app, route, key);
    expect(response.status).toBe(403);
    const code = errorCodeIn(route, response.body);
    expect(code).toBe(metadataOf(route).dialect === 'gemini' ? 'PERMISSION_DENIED' : metadataOf(route).dialect === 'anthropic' ? 'permission_error' : 'ip_not_allowed');
  });

  it.each(ROUTE_NAMES)('%s: an rpm-2 token gets 429 rate_limit_exceeded on its third request', async (_name, route) => {
    const { key } = await tokenWith({ rate_limit: { rpm: 2 } });
    for (let i = 0; i < 2; i++) expect((await call(relay.app, route, key)).status).not.toBe(429);
    const third = await call(relay.app, route, key);
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
    expect(errorCodeIn(route, third.body)).toBe(metadataOf(route).dialect === 'gemini' ? 'RESOURCE_EXHAUSTED' : metadataOf(route).dialect === 'anthropic' ? 'rate_limit_error' : 'rate_limit_exceeded');
  });

  it.each(ROUTE_NAMES)('%s: a concurrency-1 token holds its slot until its answer’s last bytes are handed over, and gives it back then', async (_name, route) => {
    const { id, key } = await tokenWith({ rate_limit: { concurrency: 1 } });
    // Outside the relay, listening first: as the answer's last bytes are handed over, is the token's one slot taken?
    const heldAtFinish: Array<Promise<boolean>> = [];
    const outer = express();
    outer.use((_req, res, next) => {
      res.once('prefinish', () => heldAtFinish.push(limiter.acquireSlot(id, 1).then((free) => (free ? (void limiter.releaseSlot(id), false) : true))));
      next();
    });
    outer.use(relay.app);
    const first = await call(outer, route, key);
    expect(first.status).not.toBe(429);
    expect(await Promise.all(heldAtFinish)).toEqual([true]);
    // Given back as it ended: the next request is admitted.
    await new Promise((resolve) => setImmediate(resolve));
    expect((await call(relay.app, route, key)).status).not.toBe(429);
  });
});
