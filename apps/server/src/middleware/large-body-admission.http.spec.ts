import { AnthropicErrorResponseSchema, ErrorResponseSchema, type TokenUpdate } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import request from 'supertest';
import { closedPort } from '../../test/testing/closed-port';
import { patchToken } from '../../test/testing/patch-token';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 26: a large body cost the event loop its whole parse even when it was then refused — by
 * a token without quota, a model it may not use, a model nobody serves. A body over 1 MiB is now
 * admitted before it is parsed. To see that it was not parsed, these bodies hide a word that is
 * no JSON (`tru`) deep inside their messages: parsing them answers 400 invalid_json, so any
 * other refusal came first.
 */
const PADDING = 'p'.repeat(1_200_000);
const bodyFor = (fields: string) => Buffer.from(`{${fields},"messages":[{"role":"user","content":"${PADDING}","x":[tru]}]}`);
const chatBody = (model: string) => bodyFor(`"model":${JSON.stringify(model)},"max_tokens":16`);

describe('a large body is admitted before it is parsed', () => {
  let relay: TestRelay;
  let sim: UpstreamSim;

  beforeAll(async () => {
    relay = await createTestRelay({ env: { RELAY_MAX_TOOLS: '3', RELAY_MAX_TOOLS_BYTES: '1048576' } });
    sim = await startUpstreamSim({ acceptedKeys: ['sk-sim'] });
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: ['sk-sim'], models: ['gpt-4o', 'gpt-4o-mini'] })
      .expect(201);
  });
  afterAll(async () => {
    await relay.close();
    await sim.close();
  });

  async function keyWith(policy: TokenUpdate): Promise<string> {
    const token = await createToken(relay, { name: 'large' });
    if (Object.keys(policy).length > 0) await patchToken(relay, token.id, policy);
    return token.key;
  }

  const post = (path: string, key: string, body: Buffer, headers: Record<string, string> = {}) =>
    // As text: superagent would write a Buffer as JSON of its bytes.
    request(relay.app).post(path).set({ ...bearer(key), 'content-type': 'application/json', ...headers }).send(body.toString());

  it('parsed only once admitted: a served, allowed model reaches the parse (and its 400)', async () => {
    const response = await post('/v1/chat/completions', await keyWith({}), chatBody('gpt-4o'));
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('invalid_json');
  });

  it('a model nobody serves: 404 model_not_found before the parse', async () => {
    const response = await post('/v1/chat/completions', await keyWith({}), chatBody('nobody-serves-this'));
    expect(response.status).toBe(404);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('model_not_found');
  });

  it('a model the token may not use: 403 model_not_allowed before the parse', async () => {
    const response = await post('/v1/chat/completions', await keyWith({ models: ['gpt-4o-mini'] }), chatBody('gpt-4o'));
    expect(response.status).toBe(403);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('model_not_allowed');
  });

  it('a token without quota left: 429 insufficient_quota before the parse', async () => {
    const response = await post('/v1/chat/completions', await keyWith({ quota_limit: 0 }), chatBody('gpt-4o'));
    expect(response.status).toBe(429);
    expect(ErrorResponseSchema.parse(response.body).error.code).toBe('insufficient_quota');
  });

  it('the model read as JSON.parse reads it: the last top-level "model", its key escaped or not', async () => {
    const key = await keyWith({ models: ['gpt-4o-mini'] });
    const response = await post('/v1/chat/completions', key, bodyFor('"model":"gpt-4o-mini","mod\\u0065l":"gpt-4o"'));
    expect(response.status).toBe(403);
    expect(ErrorResponseSchema.parse(response.body).error.message).toContain("'gpt-4o'");
  });

  it('Messages: in Anthropic shape; Gemini: the model in the URL, in Google shape', async () => {
    const key = await keyWith({});
    const messages = await post('/v1/messages', key, chatBody('nobody-serves-this'), { 'anthropic-version': '2023-06-01' });
    expect(messages.status).toBe(404);
    expect(AnthropicErrorResponseSchema.parse(messages.body).error.type).toBe('not_found_error');
    const gemini = await post('/v1beta/models/nobody-serves-this:generateContent', key, bodyFor('"generationConfig":{}'));
    expect(gemini.status).toBe(404);
    expect(gemini.body).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('a valid large body is relayed, its bytes forwarded as they came', async () => {
    const body = Buffer.from(JSON.stringify({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: PADDING }] }));
    const response = await post('/v1/chat/completions', await keyWith({}), body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: 'chat.completion', model: 'gpt-4o' });
    expect(sim.requests.at(-1)?.body).toEqual(JSON.parse(body.toString()));
  });
});

describe('tool limits (RELAY_MAX_TOOLS, RELAY_MAX_TOOLS_BYTES)', () => {
  let relay: TestRelay;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay({ env: { RELAY_MAX_TOOLS: '3', RELAY_MAX_TOOLS_BYTES: '1048576' } });
    key = (await createToken(relay, { name: 'tools' })).key;
    // Served (never reached): a large body for a model nobody serves would be refused for that first.
    await request(relay.app)
      .post('/api/channels')
      .set(bearer(relay.adminKey))
      .send({ name: 'none', type: 'openai', base_url: `http://127.0.0.1:${await closedPort()}/v1`, keys: ['sk-x'], models: ['gpt-4o'] })
      .expect(201);
  });
  afterAll(() => relay.close());

  const tool = (i: number) => ({ type: 'function', function: { name: `t${i}`, parameters: { type: 'object' } } });
  const tools = (count: number) => Array.from({ length: count }, (_, i) => tool(i));

  it('too many tools: 400 too_many_tools naming the limit and its setting, in the caller dialect', async () => {
    const chat = await request(relay.app).post('/v1/chat/completions').set(bearer(key)).send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: tools(4) });
    expect(chat.status).toBe(400);
    const error = ErrorResponseSchema.parse(chat.body).error;
    expect(error).toMatchObject({ code: 'too_many_tools', param: 'tools' });
    expect(error.message).toMatch(/4 tools.*at most 3.*RELAY_MAX_TOOLS/);

    const anthropicTools = Array.from({ length: 4 }, (_, i) => ({ name: `t${i}`, input_schema: { type: 'object' } }));
    const messages = await request(relay.app)
      .post('/v1/messages')
      .set(bearer(key))
      .send({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools: anthropicTools });
    expect(messages.status).toBe(400);
    expect(AnthropicErrorResponseSchema.parse(messages.body).error.message).toContain('RELAY_MAX_TOOLS');

    const declarations = Array.from({ length: 4 }, (_, i) => ({ name: `t${i}` }));
    const gemini = await request(relay.app)
      .post('/v1beta/models/gemini-2.5-flash:generateContent')
      .set(bearer(key))
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: declarations }] });
    expect(gemini.status).toBe(400);
    expect(gemini.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('RELAY_MAX_TOOLS') } });
  });

  it('tool definitions over RELAY_MAX_TOOLS_BYTES: 400 tools_too_large before the body is parsed', async () => {
    const schema = { type: 'object', description: 'd'.repeat(600_000) };
    const big = [0, 1].map((i) => ({ type: 'function', function: { name: `t${i}`, parameters: schema } }));
    // The word that is no JSON after the tools: a parse would answer invalid_json.
    const body = Buffer.from(`{"model":"gpt-4o","tools":${JSON.stringify(big)},"messages":[{"role":"user","content":"hi","x":[tru]}]}`);
    const response = await request(relay.app).post('/v1/chat/completions').set({ ...bearer(key), 'content-type': 'application/json' }).send(body.toString());
    expect(response.status).toBe(400);
    const error = ErrorResponseSchema.parse(response.body).error;
    expect(error).toMatchObject({ code: 'tools_too_large', param: 'tools' });
    expect(error.message).toMatch(/1\.1 MiB.*at most 1\.0 MiB.*RELAY_MAX_TOOLS_BYTES/);
  });

  it('a request within both limits is not refused by them', async () => {
    const chat = await request(relay.app).post('/v1/chat/completions').set(bearer(key)).send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: tools(3) });
    expect(ErrorResponseSchema.parse(chat.body).error.code).not.toMatch(/tools/);
  });
});
