import request from 'supertest';
import { bearer } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import { Exposition } from '../../test/metrics/testing/exposition';

const scrape = async (relay: TestRelay) => new Exposition((await request(relay.app).get('/metrics').set(bearer(relay.adminKey)).expect(200)).text);

describe('GET /metrics: two apps in one process', () => {
  let first: TestRelay;
  let second: TestRelay;
  beforeAll(async () => {
    [first, second] = await Promise.all([createTestRelay(), createTestRelay()]);
  });
  afterAll(() => Promise.all([first.close(), second.close()]));

  it('count only their own requests and refusals', async () => {
    for (let i = 0; i < 3; i++) await request(first.app).get('/healthz').expect(200);
    await request(first.app).get('/v1/models').expect(401);
    await request(first.app).get('/v1/models').set(bearer('sk-not-a-token-0000000000')).expect(401);
    await request(second.app).get('/healthz').expect(200);

    const [ofFirst, ofSecond] = [await scrape(first), await scrape(second)];
    expect(ofFirst.table('relay_requests_total', { route: '/healthz' })).toEqual([{ route: '/healthz', dialect: 'openai', model: '', channel: '', status: '200', value: 3 }]);
    expect(ofSecond.table('relay_requests_total', { route: '/healthz' })).toEqual([{ route: '/healthz', dialect: 'openai', model: '', channel: '', status: '200', value: 1 }]);
    expect(ofFirst.value('relay_requests_total', { route: '/v1/models', status: '401' })).toBe(2);
    expect(ofSecond.samples('relay_requests_total', { route: '/v1/models' })).toEqual([]);
    expect(ofFirst.value('relay_auth_rejected_total', { reason: 'invalid_api_key' })).toBe(2);
    expect(ofSecond.value('relay_auth_rejected_total')).toBe(0);
    expect(first.services.metrics.registry).not.toBe(second.services.metrics.registry);
  });
});
