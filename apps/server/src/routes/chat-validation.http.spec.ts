import request from 'supertest';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

describe('chat completion request validation and transport errors', () => {
  let relay: TestRelay;
  let auth: { authorization: string };

  beforeAll(async () => {
    relay = await createTestRelay({ maxBodyBytes: 4096 });
    const { body } = await request(relay.app)
      .post('/api/tokens')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'app' });
    auth = { authorization: `Bearer ${body.key}` };
  });
  afterAll(() => relay.close());

  const post = (body: unknown) => request(relay.app).post('/v1/chat/completions').set(auth).send(body as object);
  const user = [{ role: 'user', content: 'hi' }];

  it.each([
    [{ messages: user }, 'model', 'missing_required_parameter'],
    [{ model: '', messages: user }, 'model', 'invalid_value'],
    [{ model: 'm', messages: [] }, 'messages', 'invalid_value'],
    [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role', 'invalid_value'],
    [{ model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content', 'missing_required_parameter'],
    [{ model: 'm', messages: user, temperature: 5 }, 'temperature', 'decimal_above_max_value'],
    [{ model: 'm', messages: user, tools: [{ type: 'function', function: { name: 'has space' } }] }, 'tools[0].function.name', 'invalid_value'],
    [{ model: 'm', messages: user, tool_choice: 'sometimes' }, 'tool_choice', 'invalid_value'],
    [{ model: 'm', messages: user, stream_options: { include_usage: true } }, 'stream_options', 'invalid_value'],
  ])('400 for %j, param %s', async (body, param, code) => {
    const response = await post(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(response.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('400 invalid_json for a malformed body', async () => {
    const response = await request(relay.app)
      .post('/v1/chat/completions')
      .set(auth)
      .set('content-type', 'application/json')
      .send('{"model": "m", "messages": [')
      .expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', param: null });
  });

  it('400 when the body is not JSON at all', async () => {
    const response = await request(relay.app).post('/v1/chat/completions').set(auth).set('content-type', 'text/plain').send('hello').expect(400);
    expect(response.body.error.message).toContain('Content-Type: application/json');
  });

  it('413 request_too_large over RELAY_MAX_BODY_BYTES', async () => {
    const response = await post({ model: 'm', messages: [{ role: 'user', content: 'x'.repeat(5000) }] }).expect(413);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
  });

  it('404 model_not_found naming the model when no channel serves it', async () => {
    const response = await post({ model: 'no-such-model', messages: user }).expect(404);
    expect(response.body.error).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(response.body.error.message).toContain('no-such-model');
  });

  it('404 unknown_url for routes that do not exist, with a request id', async () => {
    const response = await request(relay.app).post('/v1/nothing').set(auth).expect(404);
    expect(response.body.error).toMatchObject({ code: 'unknown_url', type: 'invalid_request_error' });
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('echoes a safe caller request id and replaces an unsafe one', async () => {
    const kept = await request(relay.app).get('/healthz').set('x-request-id', 'trace-123.abc').expect(200);
    expect(kept.headers['x-request-id']).toBe('trace-123.abc');
    const replaced = await request(relay.app).get('/healthz').set('x-request-id', 'bad id\twith spaces').expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
  });

  it('logs one usage row for a rejected request of a known key; a 401 is counted, not written', async () => {
    await relay.services.recorder.flush();
    const before = (await relay.storage.usageLog.recent(1000)).length;
    const refusedBefore = relay.services.authFailures.total;
    await request(relay.app).post('/v1/chat/completions').send({}).expect(401);
    await post({ model: 'm', messages: [] }).expect(400);
    await relay.services.recorder.flush();
    const rows = await relay.storage.usageLog.recent(1);
    expect((await relay.storage.usageLog.recent(1000)).length).toBe(before + 1);
    expect(rows[0]).toMatchObject({ status: 400, errorCode: 'invalid_value' });
    expect(relay.services.authFailures.total).toBe(refusedBefore + 1);
  });
});
