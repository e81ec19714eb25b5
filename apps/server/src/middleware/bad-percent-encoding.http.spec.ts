import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const BAD_PATHS = [
  '/api/tokens/%ff',
  '/api/tokens/%',
  '/api/tokens/%zz',
  '/api/tokens/%e0%a4',
  '/api/assistants/%c0%af',
  '/api/channels/%ff/keys',
  '/api/accounts/%80',
  '/v1/models/%ff',
  '/v1/models/gpt-%e2%82',
];

describe('issue 10 defect 10: GET /api/tokens/%ff → 500', () => {
  let relay: TestRelay;
  beforeAll(async () => (relay = await createTestRelay()));
  afterAll(() => relay.close());

  it.each(BAD_PATHS)('%s → 400 in the OpenAI shape, with and without a key', async (path) => {
    for (const headers of [{}, { authorization: `Bearer ${relay.adminKey}` }]) {
      for (const method of ['get', 'delete', 'patch'] as const) {
        const response = await request(relay.app)[method](path).set(headers);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: { message: expect.stringContaining('percent-encoding'), type: 'invalid_request_error', param: null, code: 'invalid_url' },
        });
      }
    }
  });

  it('a well-encoded path still reaches its route', async () => {
    const response = await request(relay.app).get('/api/tokens/%31%32').set({ authorization: `Bearer ${relay.adminKey}` });
    expect(response.status).toBe(404);
    expect(response.body.error.code).not.toBe('invalid_url');
  });
});
