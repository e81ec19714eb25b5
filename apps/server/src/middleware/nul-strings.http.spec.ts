import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import { nulStringPath } from './nul-strings';

describe('U+0000 in what the management API stores', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await createTestRelay();
  });
  afterAll(() => relay.close());
  const admin = () => `Bearer ${relay.adminKey}`;

  it('finds the first string or key holding it, by path', () => {
    expect(nulStringPath({ a: 'x', tools: [{ name: 'ok' }, { name: 'b\u0000d' }] })).toBe('tools[1].name');
    expect(nulStringPath({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(nulStringPath({ a: ['fine', 3, null, { b: true }] })).toBeNull();
  });

  it('a token name with it: 400 naming the field, nothing created', async () => {
    const before = (await relay.storage.tokens.list({ page: 1, perPage: 100, now: new Date().toISOString() })).total;
    const response = await request(relay.app).post('/api/tokens').set('authorization', admin()).send({ name: 'app\u0000x' }).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'name', code: 'invalid_value' });
    expect((await relay.storage.tokens.list({ page: 1, perPage: 100, now: new Date().toISOString() })).total).toBe(before);
  });

  it('refused_nul_on_an_upper_case_management_path: routes match /API/… as /api/…, so the check does too', async () => {
    const response = await request(relay.app).post('/API/tokens').set('authorization', admin()).send({ name: 'app\u0000y' }).expect(400);
    expect(response.body.error).toMatchObject({ param: 'name', code: 'invalid_value' });
  });

  it('in a query filter or a path: 400, not a database error', async () => {
    const search = await request(relay.app).get('/api/tokens/search').query({ q: 'a\u0000' }).set('authorization', admin()).expect(400);
    expect(search.body.error.param).toBe('q');
    await request(relay.app).get('/api/assistants/a%00b').set('authorization', admin()).expect(400);
  });

  it('a relayed model name with it: 400 on the relay routes too, before any row holds it', async () => {
    const token = await request(relay.app).post('/api/tokens').set('authorization', admin()).send({ name: 'caller' }).expect(201);
    const response = await request(relay.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${token.body.key}`)
      .send({ model: 'gpt\u0000-4o', messages: [{ role: 'user', content: 'hi' }] })
      .expect(400);
    expect(response.body.error).toMatchObject({ param: 'model', code: 'invalid_value' });
    await relay.services.recorder.flush();
    const rows = await relay.storage.usageLog.recent(5);
    expect(rows.every((row) => !(row.requestedModel ?? '').includes('\u0000'))).toBe(true);
  });
});
