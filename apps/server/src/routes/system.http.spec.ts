import request from 'supertest';
import { HealthSchema, ReadinessSchema } from '@chat-relay/contract';
import { createLocalCluster, type Cluster } from '../cluster/cluster';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** A cluster whose shared store is away: what the probes see while Redis is down. */
function clusterWithRedisDown(failureMode: Cluster['failureMode']): Cluster {
  return { ...createLocalCluster(), kind: 'redis', failureMode, ping: () => Promise.reject(new Error('connect ECONNREFUSED')) };
}

describe('/healthz and /readyz', () => {
  let relay: TestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  it('one instance on SQLite: ok, the database timed, Redis not configured; ready', async () => {
    relay = await createTestRelay();
    const health = await request(relay.app).get('/healthz').expect(200);
    expect(HealthSchema.parse(health.body)).toMatchObject({
      status: 'ok',
      database: { kind: 'sqlite', status: 'ok' },
      redis: { status: 'not_configured', latency_ms: null, failure_mode: null },
    });
    expect(health.body.database.latency_ms).toEqual(expect.any(Number));
    const ready = await request(relay.app).get('/readyz').expect(200);
    expect(ReadinessSchema.parse(ready.body)).toMatchObject({ ready: true, reasons: [] });
  });

  it('needs no key: a load balancer probes without one', async () => {
    relay = await createTestRelay();
    await request(relay.app).get('/readyz').set('authorization', 'Bearer nonsense').expect(200);
  });

  it('the database gone: /healthz 503 unavailable, /readyz 503 naming it', async () => {
    relay = await createTestRelay();
    await relay.storage.close();
    const health = await request(relay.app).get('/healthz').expect(503);
    expect(HealthSchema.parse(health.body)).toMatchObject({ status: 'unavailable', database: { status: 'unavailable', latency_ms: null } });
    const ready = await request(relay.app).get('/readyz').expect(503);
    expect(ready.body).toMatchObject({ ready: false, reasons: ['the database does not answer'] });
    // close() closes the storage again: a closed SQLite database closes twice without harm.
  });

  it('Redis away with limits failing open: degraded but still ready', async () => {
    relay = await createTestRelay({ cluster: clusterWithRedisDown('open') });
    const health = await request(relay.app).get('/healthz').expect(200);
    expect(health.body).toMatchObject({ status: 'degraded', redis: { status: 'unavailable', latency_ms: null, failure_mode: 'open' } });
    await request(relay.app).get('/readyz').expect(200);
  });

  it('Redis away with limits failing closed: not ready, and says why', async () => {
    relay = await createTestRelay({ cluster: clusterWithRedisDown('closed') });
    await request(relay.app).get('/healthz').expect(200);
    const ready = await request(relay.app).get('/readyz').expect(503);
    expect(ready.body.reasons).toEqual(['Redis does not answer and limits fail closed (RELAY_REDIS_FAILURE_MODE=closed)']);
  });

  it('shutting down: /readyz 503 while /healthz still answers 200', async () => {
    relay = await createTestRelay();
    relay.services.inFlight.startDraining();
    await request(relay.app).get('/healthz').expect(200);
    const ready = await request(relay.app).get('/readyz').expect(503);
    expect(ready.body.reasons).toEqual(['shutting down']);
  });
});
