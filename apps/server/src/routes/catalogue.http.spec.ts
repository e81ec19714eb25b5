import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CatalogueDatasetSchema, CatalogueFactsSchema, CatalogueListSchema, ErrorResponseSchema, UnpricedModelListSchema } from '@chat-relay/contract';
import { createLocalCluster } from '../cluster/cluster';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import { bearer, createAccount } from '../../test/testing/system-api';
import { closedPort } from '../../test/testing/closed-port';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** A models.dev api.json of one provider: `models` as models.dev writes them. */
const modelsDev = (models: Record<string, object>) => ({ openai: { id: 'openai', name: 'OpenAI', models } });
const GPT_9 = { id: 'gpt-9', name: 'GPT-9', reasoning: true, limit: { context: 1_000_000, output: 50_000 }, cost: { input: 1, output: 2 } };

/** An HTTP server on 127.0.0.1 answering every GET with `body` (the refresh's URL path, offline). */
async function serve(answer: (res: http.ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api.json`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('model catalogue admin API (issue 28)', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('lists the seed with its source, version and date, filtered by ?q= and ?provider=', async () => {
    const all = CatalogueListSchema.parse((await request(relay.app).get('/api/catalogue').set(admin()).expect(200)).body);
    expect(all.dataset).toMatchObject({ source: 'seed', origin: 'https://github.com/anomalyco/models.dev', date: '2026-07-02', models: 162 });
    expect(all.dataset.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(all.data).toHaveLength(162);
    expect(all.data.every((entry) => entry.source === 'seed')).toBe(true);

    const sonnet = CatalogueListSchema.parse((await request(relay.app).get('/api/catalogue?q=SONNET-4-5').set(admin()).expect(200)).body);
    expect(sonnet.data.map((entry) => entry.id)).toContain('claude-sonnet-4-5');
    expect(sonnet.data.every((entry) => /sonnet-4-5/i.test(entry.id) || /sonnet 4\.5/i.test(entry.name ?? ''))).toBe(true);
    const google = CatalogueListSchema.parse((await request(relay.app).get('/api/catalogue?provider=google').set(admin()).expect(200)).body);
    expect(google.data.length).toBeGreaterThan(0);
    expect(google.data.every((entry) => entry.provider === 'google')).toBe(true);
    const bad = await request(relay.app).get('/api/catalogue?page=2').set(admin()).expect(400);
    expect(ErrorResponseSchema.parse(bad.body).error.param).toBe('page');
  });

  it('answers the facts of a name as the relay resolves it: dated, prefixed, unknown', async () => {
    const dated = CatalogueFactsSchema.parse((await request(relay.app).get('/api/catalogue/models/gpt-4o-2031-01-01').set(admin()).expect(200)).body);
    expect(dated).toMatchObject({ model: 'gpt-4o-2031-01-01', family: 'openai', max_output_tokens: 16_384, entry: { id: 'gpt-4o', source: 'seed' } });
    expect(dated.params.top_k).toBe(false);
    expect(dated.list_price).toMatchObject({ input: 2.5, output: 10 });
    const prefixed = CatalogueFactsSchema.parse((await request(relay.app).get('/api/catalogue/models/models%2Fgemini-2.5-flash').set(admin()).expect(200)).body);
    expect(prefixed).toMatchObject({ model: 'models/gemini-2.5-flash', family: 'gemini', entry: { id: 'gemini-2.5-flash' } });
    const unknown = CatalogueFactsSchema.parse((await request(relay.app).get('/api/catalogue/models/house-model').set(admin()).expect(200)).body);
    expect(unknown).toMatchObject({ entry: null, family: 'other', context_window: null, list_price: null });
  });

  it('writes, replaces and deletes overrides (exact and glob), and facts follow at once', async () => {
    const created = await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ max_output_tokens: 4096, params: { seed: false } }).expect(201);
    expect(created.body).toEqual({ id: 'gpt-4o', max_output_tokens: 4096, params: { seed: false } });
    const facts = CatalogueFactsSchema.parse((await request(relay.app).get('/api/catalogue/models/gpt-4o').set(admin()).expect(200)).body);
    expect(facts).toMatchObject({ max_output_tokens: 4096, context_window: 128_000, entry: { source: 'override' }, params: { seed: false } });
    expect(relay.services.catalogue.facts('gpt-4o').maxOutputTokens).toBe(4096);

    await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ id: 'gpt-4o', max_output_tokens: 8192 }).expect(200);
    expect(relay.services.catalogue.facts('gpt-4o').maxOutputTokens).toBe(8192);
    // A glob: a model the dataset does not know is described by it.
    await request(relay.app).put('/api/catalogue/overrides/house-*').set(admin()).send({ family: 'openai', context_window: 32_000, cost: { input: 0.5, output: 1 } }).expect(201);
    expect(relay.services.catalogue.facts('house-large')).toMatchObject({ family: 'openai', contextWindow: 32_000 });
    const listed = CatalogueListSchema.parse((await request(relay.app).get('/api/catalogue?q=house').set(admin()).expect(200)).body);
    expect(listed.data).toEqual([{ id: 'house-*', family: 'openai', context_window: 32_000, cost: { input: 0.5, output: 1 }, source: 'override' }]);

    await request(relay.app).delete('/api/catalogue/overrides/gpt-4o').set(admin()).expect(204);
    expect(relay.services.catalogue.facts('gpt-4o').maxOutputTokens).toBe(16_384);
    const gone = await request(relay.app).delete('/api/catalogue/overrides/gpt-4o').set(admin()).expect(404);
    expect(ErrorResponseSchema.parse(gone.body).error.code).toBe('catalogue_override_not_found');
  });

  it('refuses an override the contract schema refuses, or whose id is not the path\'s, in the OpenAI error shape', async () => {
    const unknownField = await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ max_tokens: 5 }).expect(400);
    expect(ErrorResponseSchema.parse(unknownField.body).error).toMatchObject({ type: 'invalid_request_error', param: 'max_tokens' });
    const negative = await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ context_window: -1 }).expect(400);
    expect(negative.body.error.param).toBe('context_window');
    const family = await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ family: 'cohere' }).expect(400);
    expect(family.body.error.param).toBe('family');
    const other = await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(admin()).send({ id: 'o3' }).expect(400);
    expect(other.body.error).toMatchObject({ param: 'id', code: 'invalid_value' });
    expect(await relay.storage.catalogue.overrides()).toEqual([]);
  });

  it('refreshes from a posted api.json in place of the seed, keeps overrides on top, and goes back to the seed', async () => {
    await request(relay.app).put('/api/catalogue/overrides/gpt-9').set(admin()).send({ max_output_tokens: 10 }).expect(201);
    const refreshed = CatalogueDatasetSchema.parse(
      (await request(relay.app).post('/api/catalogue/refresh').set(admin()).send(modelsDev({ 'gpt-9': GPT_9, broken: { name: 'no id' } })).expect(200)).body,
    );
    expect(refreshed).toMatchObject({ source: 'refresh', origin: 'upload', models: 1, skipped: 1 });
    expect(Date.parse(refreshed.date)).toBeGreaterThan(Date.now() - 60_000);
    const listed = CatalogueListSchema.parse((await request(relay.app).get('/api/catalogue').set(admin()).expect(200)).body);
    expect(listed.data).toEqual([{ ...listed.data[0], id: 'gpt-9', max_output_tokens: 10, source: 'override' }]);
    expect(relay.services.catalogue.facts('gpt-9')).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 10, family: 'openai' });
    // The seed is no longer under it.
    expect(relay.services.catalogue.facts('gpt-4o').entry).toBeUndefined();

    const reset = CatalogueDatasetSchema.parse((await request(relay.app).delete('/api/catalogue/refresh').set(admin()).expect(200)).body);
    expect(reset).toMatchObject({ source: 'seed', models: 162 });
    expect(relay.services.catalogue.facts('gpt-4o').maxOutputTokens).toBe(16_384);
  });

  it('refuses a body that is not models.dev\'s, or from which no model can be read, and keeps the catalogue', async () => {
    const empty = await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({}).expect(400);
    expect(ErrorResponseSchema.parse(empty.body).error.code).toBe('invalid_catalogue');
    await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({ openai: { models: [] } }).expect(400);
    const badUrl = await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({ url: 'ftp://models.dev/api.json' }).expect(400);
    expect(badUrl.body.error.type).toBe('invalid_request_error');
    expect(await relay.storage.catalogue.dataset()).toBeNull();
  });

  it('takes a posted api.json of several MB (models.dev\'s own size) within the body limit', async () => {
    const models: Record<string, object> = {};
    for (let n = 0; n < 12_000; n += 1) {
      models[`model-${n}`] = { id: `model-${n}`, name: `Model ${n}`, limit: { context: 128_000, output: 16_384 }, cost: { input: 1, output: 2, cache_read: 0.1 }, modalities: { input: ['text', 'image'], output: ['text'] } };
    }
    const body = JSON.stringify(modelsDev(models));
    expect(body.length).toBeGreaterThan(2_000_000);
    const refreshed = await request(relay.app).post('/api/catalogue/refresh').set(admin()).set('content-type', 'application/json').send(body).expect(200);
    expect(refreshed.body).toMatchObject({ source: 'refresh', models: 12_000 });
    expect(relay.services.catalogue.facts('model-11999').maxOutputTokens).toBe(16_384);
  }, 30_000); // a size test: parsing and storing 12,000 models takes seconds on a loaded two-core CI

  it('refreshes from a URL (a local server here), and refuses clearly when it cannot be fetched', async () => {
    const upstream = await serve((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(modelsDev({ 'gpt-9': GPT_9 }))));
    try {
      const refreshed = await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({ url: upstream.url }).expect(200);
      expect(refreshed.body).toMatchObject({ source: 'refresh', origin: upstream.url, models: 1 });
      expect(relay.services.catalogue.facts('gpt-9').contextWindow).toBe(1_000_000);
    } finally {
      await upstream.close();
    }
    const refused = await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({ url: `http://127.0.0.1:${await closedPort()}/api.json` }).expect(502);
    expect(ErrorResponseSchema.parse(refused.body).error).toMatchObject({ type: 'upstream_error', code: 'catalogue_fetch_failed' });
    expect(refused.body.error.message).toMatch(/ECONNREFUSED.*POST it as the request body/);
    const notFoundServer = await serve((res) => res.writeHead(404).end('no'));
    try {
      const missing = await request(relay.app).post('/api/catalogue/refresh').set(admin()).send({ url: notFoundServer.url }).expect(502);
      expect(missing.body.error.message).toMatch(/answered 404/);
    } finally {
      await notFoundServer.close();
    }
    // What it had stays.
    expect(relay.services.catalogue.facts('gpt-9').contextWindow).toBe(1_000_000);
  });

  it('flags the models channels serve that neither the price table nor the catalogue prices', async () => {
    await request(relay.app)
      .post('/api/channels')
      .set(admin())
      .send({ name: 'main', type: 'openai', base_url: 'http://127.0.0.1:9/v1', keys: ['sk-upstream'], models: ['gpt-4o', 'house-model', 'gpt-5-codex-mini'], model_mapping: { 'claude-house': 'house-model', 'claude-cheap': 'gpt-4o' } })
      .expect(201);
    await request(relay.app).put('/api/prices').set(admin()).send({ data: [{ model: 'gpt-5-codex-mini', input: 1, output: 1 }] }).expect(200);
    const listed = UnpricedModelListSchema.parse((await request(relay.app).get('/api/catalogue/unpriced').set(admin()).expect(200)).body);
    expect(listed.data).toEqual([
      { model: 'claude-house', upstream_model: 'house-model', channels: [{ id: expect.any(Number), name: 'main' }] },
      { model: 'house-model', upstream_model: 'house-model', channels: [{ id: expect.any(Number), name: 'main' }] },
    ]);
    // An override with a list price prices it.
    await request(relay.app).put('/api/catalogue/overrides/house-model').set(admin()).send({ cost: { input: 1, output: 1 } }).expect(201);
    expect((await request(relay.app).get('/api/catalogue/unpriced').set(admin()).expect(200)).body).toEqual({ data: [] });
  });

  it('is the admin\'s only', async () => {
    const account = await createAccount(relay, { name: 'team' });
    for (const path of ['/api/catalogue', '/api/catalogue/models/gpt-4o', '/api/catalogue/unpriced']) {
      await request(relay.app).get(path).set(bearer(account.access_key)).expect(403);
    }
    await request(relay.app).put('/api/catalogue/overrides/gpt-4o').set(bearer(account.access_key)).send({ max_output_tokens: 1 }).expect(403);
    await request(relay.app).post('/api/catalogue/refresh').set(bearer(account.access_key)).send({}).expect(403);
    await request(relay.app).get('/api/catalogue').expect(401);
  });
});

async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('model catalogue across instances (issue 28)', () => {
  it('an override written on one instance changes what facts() answers on every instance sharing the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-catalogue-shared-'));
    // Two relays on one database file; the shared local feed stands for Redis pub/sub.
    const cluster = createLocalCluster();
    const shared = { name: 'SQLite' as const, open: async () => { const storage = openSqliteStorage(dataDir); return { storage, close: () => storage.close() }; } };
    const first = await createTestRelay({ backend: shared, cluster });
    const second = await createTestRelay({ backend: shared, cluster: { ...cluster, close: async () => undefined } });
    try {
      expect(second.services.catalogue.facts('claude-sonnet-4-5').maxOutputTokens).toBe(64_000);
      await request(first.app).put('/api/catalogue/overrides/claude-sonnet-4-5').set(bearer(first.adminKey)).send({ max_output_tokens: 1234 }).expect(201);
      // No load asked of the second: the change feed makes it reload.
      await until(() => second.services.catalogue.facts('claude-sonnet-4-5-20250929').maxOutputTokens === 1234);
      await request(first.app).delete('/api/catalogue/overrides/claude-sonnet-4-5').set(bearer(first.adminKey)).expect(204);
      await until(() => second.services.catalogue.facts('claude-sonnet-4-5').maxOutputTokens === 64_000);
    } finally {
      await second.close();
      await first.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
