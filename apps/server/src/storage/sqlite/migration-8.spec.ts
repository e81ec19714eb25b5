import Database from 'better-sqlite3';
import { migrate, migrations } from './migrations';
import { FREE_SEEDED_MODELS } from './migrations-money';
import { SqliteChannelStore } from './sqlite-channel-store';
import { SqlitePriceStore } from './sqlite-price-store';
import { SqliteUsageLogStore } from './sqlite-usage-log-store';
import { usageEntry } from '../../../test/testing/system-api';

const SEEDED = ['dall-e-3', 'dall-e-2', 'text-embedding-3-small', 'text-embedding-3-large', 'tts-1', 'whisper-1'];

/** A database as version 7 left it — a channel, a usage row, prices, `adminPrices` added — then migrated. */
function migratedFromVersion7(adminPrices: (db: Database.Database) => void = () => undefined): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  for (const migration of migrations.filter((step) => step.version <= 7)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, 'then');
  }
  const now = '2026-01-01T00:00:00.000Z';
  db.prepare("INSERT INTO accounts (name, role, created_at) VALUES ('admin', 'admin', ?)").run(now);
  db.prepare(
    `INSERT INTO channels (name, type, base_url, keys, key_states, models, timeouts, created_at, updated_at)
     VALUES ('openai', 'openai', 'http://x/v1', '["k-one-1111"]', '[]', '["*"]', '{"connectMs":1,"firstByteMs":1,"idleMs":1}', ?, ?)`,
  ).run(now, now);
  db.prepare(
    `INSERT INTO usage_log (created_at, request_id, token_id, account_id, requested_model, upstream_model, channel_id, stream, status,
       prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, usage_estimated, cost, latency_ms, attempts)
     VALUES (?, 'req-old', NULL, 1, 'gpt-4o', 'gpt-4o-2024-08-06', 1, 0, 200, 100, 20, 0, 0, 0, 450, 30, 1)`,
  ).run(now);
  adminPrices(db);
  expect(migrate(db)[0]).toBe(8);
  return db;
}

/** The models priced, in order — without the free entries a later migration (15) seeds after them. */
const priceModels = (db: Database.Database) =>
  (db.prepare('SELECT model FROM prices ORDER BY position').all() as Array<{ model: string }>).map((row) => row.model).filter((model) => !FREE_SEEDED_MODELS.includes(model));

describe('migration 8: endpoints beside chat', () => {
  it('reads a usage row made before it as a chat row without units', async () => {
    const db = migratedFromVersion7();
    const [row] = await new SqliteUsageLogStore(db).recent(10);
    expect(row).toMatchObject({ requestId: 'req-old', endpoint: 'chat', units: 0, promptTokens: 100, completionTokens: 20, cost: 450 });
    const chatRows = await new SqliteUsageLogStore(db).query({ page: 1, perPage: 10, endpoint: 'chat' });
    expect(chatRows.rows.map((entry) => entry.requestId)).toEqual(['req-old']);
    expect((await new SqliteUsageLogStore(db).query({ page: 1, perPage: 10, endpoint: 'images' })).rows).toEqual([]);
    db.close();
  });

  it('writes and filters new rows by endpoint, with their units', async () => {
    const db = migratedFromVersion7();
    const usage = new SqliteUsageLogStore(db);
    await usage.insertBatch([usageEntry({ requestId: 'req-image', endpoint: 'images', units: 2 }), usageEntry({ requestId: 'req-audio', endpoint: 'audio_transcriptions', units: 12.345 })]);
    expect((await usage.query({ page: 1, perPage: 10, endpoint: 'audio_transcriptions' })).rows).toEqual([
      expect.objectContaining({ requestId: 'req-audio', units: 12.345 }),
    ]);
    expect((await usage.query({ page: 1, perPage: 10, endpoint: 'images' })).rows).toEqual([expect.objectContaining({ requestId: 'req-image', units: 2 })]);
    db.close();
  });

  it("reads channels made before it as serving their type's defaults, never synced", async () => {
    const db = migratedFromVersion7();
    const [channel] = await new SqliteChannelStore(db).listAll();
    expect(channel).toMatchObject({ name: 'openai', endpoints: null, syncedModels: null, modelsSyncedAt: null, responsesApi: 'auto', keys: ['k-one-1111'] });
    // An admin's list then round-trips.
    expect((await new SqliteChannelStore(db).update(1, { endpoints: ['chat', 'rerank'] }))?.endpoints).toEqual(['chat', 'rerank']);
    expect((await new SqliteChannelStore(db).get(1))?.endpoints).toEqual(['chat', 'rerank']);
    db.close();
  });

  it('seeds the list prices of the endpoint models, once each, after the prices already there', async () => {
    const db = migratedFromVersion7();
    const models = priceModels(db);
    for (const model of SEEDED) expect(models.filter((name) => name === model)).toEqual([model]);
    // The eleven seeded in version 3 first, in their order.
    expect(models.slice(0, 2)).toEqual(['gpt-4o-mini*', 'gpt-4o*']);
    expect(models.slice(-SEEDED.length)).toEqual(SEEDED);
    const positions = (db.prepare('SELECT position FROM prices').all() as Array<{ position: number }>).map((row) => row.position);
    expect(new Set(positions).size).toBe(positions.length);

    const prices = await new SqlitePriceStore(db).list();
    const byModel = (model: string) => prices.find((price) => price.model === model);
    expect(byModel('dall-e-3')).toEqual({
      model: 'dall-e-3',
      input: 0,
      output: 0,
      cacheRead: null,
      cacheWrite: null,
      image: 40_000,
      imageVariants: { '1024x1024': 40_000, '1024x1792': 80_000, '1792x1024': 80_000, 'hd/1024x1024': 80_000, 'hd/1024x1792': 120_000, 'hd/1792x1024': 120_000 },
    });
    expect(byModel('dall-e-2')).toMatchObject({ image: 20_000, imageVariants: { '256x256': 16_000, '512x512': 18_000, '1024x1024': 20_000 } });
    expect(byModel('text-embedding-3-small')).toEqual({ model: 'text-embedding-3-small', input: 20_000, output: 0, cacheRead: null, cacheWrite: null });
    expect(byModel('text-embedding-3-large')).toMatchObject({ input: 130_000, output: 0 });
    expect(byModel('tts-1')).toEqual({ model: 'tts-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, characters: 15_000_000 });
    expect(byModel('whisper-1')).toEqual({ model: 'whisper-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, audioMinute: 6_000 });
    db.close();
  });

  it("leaves an admin's own price for a seeded model as it was, and seeds the rest", async () => {
    const db = migratedFromVersion7((before) => {
      before.prepare("INSERT INTO prices (position, model, input, output) VALUES (12, 'dall-e-3', 1, 2)").run();
    });
    const models = priceModels(db);
    expect(models.filter((name) => name === 'dall-e-3')).toHaveLength(1);
    const prices = await new SqlitePriceStore(db).list();
    expect(prices.find((price) => price.model === 'dall-e-3')).toEqual({ model: 'dall-e-3', input: 1, output: 2, cacheRead: null, cacheWrite: null });
    expect(models.slice(-6)).toEqual(['dall-e-3', ...SEEDED.filter((model) => model !== 'dall-e-3')]);
    db.close();
  });

  it('seeds into an empty price table from position 1', () => {
    const db = migratedFromVersion7((before) => before.prepare('DELETE FROM prices').run());
    // Then migration 15's free entries after them.
    const seeded = [...SEEDED, ...FREE_SEEDED_MODELS];
    expect(db.prepare('SELECT position, model FROM prices ORDER BY position').all()).toEqual(seeded.map((model, index) => ({ position: index + 1, model })));
    db.close();
  });

  it('runs once: migrating again changes nothing', () => {
    const db = migratedFromVersion7();
    const before = priceModels(db);
    expect(migrate(db)).toEqual([]);
    expect(priceModels(db)).toEqual(before);
    db.close();
  });

  it('the price store round-trips the unit prices and leaves out those not set', async () => {
    const db = migratedFromVersion7();
    const store = new SqlitePriceStore(db);
    await store.replace([
      { model: 'gpt-image-1', input: 5_000_000, output: 40_000_000, cacheRead: null, cacheWrite: null, image: 42_000, imageVariants: { 'high/1024x1024': 167_000, low: 11_000 } },
      { model: 'bge-reranker-*', input: 0, output: 0, cacheRead: null, cacheWrite: null, searchUnit: 2_000 },
      { model: 'gpt-4o-mini-tts', input: 600_000, output: 12_000_000, cacheRead: null, cacheWrite: null, characters: 15_000_000 },
      { model: 'whisper-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, audioMinute: 6_000 },
      { model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cacheRead: 1_250_000, cacheWrite: null, image: null, imageVariants: null },
    ]);
    const listed = await store.list();
    expect(listed).toEqual([
      { model: 'gpt-image-1', input: 5_000_000, output: 40_000_000, cacheRead: null, cacheWrite: null, image: 42_000, imageVariants: { 'high/1024x1024': 167_000, low: 11_000 } },
      { model: 'bge-reranker-*', input: 0, output: 0, cacheRead: null, cacheWrite: null, searchUnit: 2_000 },
      { model: 'gpt-4o-mini-tts', input: 600_000, output: 12_000_000, cacheRead: null, cacheWrite: null, characters: 15_000_000 },
      { model: 'whisper-1', input: 0, output: 0, cacheRead: null, cacheWrite: null, audioMinute: 6_000 },
      { model: 'gpt-4o', input: 2_500_000, output: 10_000_000, cacheRead: 1_250_000, cacheWrite: null },
    ]);
    // Left out, not present as null: what the API shows stays as the admin wrote it.
    expect(Object.keys(listed[4] ?? {})).toEqual(['model', 'input', 'output', 'cacheRead', 'cacheWrite']);
    db.close();
  });
});
