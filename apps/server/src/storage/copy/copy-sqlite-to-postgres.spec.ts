import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { digestKey as digest } from '../../security/keys';
import { loadSecretKey } from '../../security/secret-key-source';
import { SecretKeyring } from '../../security/secret-keyring';
import { bearer, usageEntry } from '../../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../../test/testing/test-relay';
import { openPostgresStorage } from '../postgres/open-postgres';
import { quoteSchema } from '../postgres/pg-pool';
import { migrate, migrations } from '../sqlite/migrations';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../sqlite/open-sqlite';
import { failureOf } from '../../../test/storage/suites/open-with-sql';
import { dropSchema, TEST_DATABASE_URL, uniqueSchemaName, type StoreBackend } from '../../../test/storage/testing/store-backends';
import type { Storage } from '../types';
import { copySqliteToPostgres } from './copy-sqlite-to-postgres';
import { fillRelayData, FIXTURE_NOW, type CopyFixture } from '../../../test/storage/copy/copy-fixture';
import { COPIED_TABLES, LATEST_SQLITE_VERSION } from './sqlite-source';

jest.setTimeout(60_000);

const page = { page: 1, perPage: 100 };
const FEB = (day: number, hour = 0, minute = 0) => new Date(Date.UTC(2026, 1, day, hour, minute)).toISOString();

/** What the stores answer about everything the fixture wrote: the copy must not change one answer. */
async function answers(storage: Storage, f: CopyFixture): Promise<Record<string, unknown>> {
  const tokenScope = { tokenId: f.token.id };
  const accountScope = { accountId: f.aliceId };
  return {
    accounts: await storage.accounts.list(page),
    accountGets: await Promise.all([f.adminId, f.aliceId, f.bobId].map((id) => storage.accounts.get(id))),
    byAccessKey: await storage.accounts.findByKeyDigest(digest(f.aliceAccessKey)),
    admin: await storage.accounts.findAdmin(),
    tokens: await storage.tokens.list({ ...page, now: FIXTURE_NOW }),
    expiredTokens: await storage.tokens.list({ ...page, now: FIXTURE_NOW, status: 'expired' }),
    aliceTokens: await storage.tokens.list({ ...page, now: FIXTURE_NOW, accountId: f.aliceId }),
    tokenSearch: await storage.tokens.search({ ...page, q: 'FULL' }),
    tokenGets: await Promise.all([...f.tokenIds, f.deletedTokenId].map((id) => storage.tokens.get(id))),
    byTokenKey: await storage.tokens.findByKeyDigest(digest(f.tokenKey)),
    channels: await storage.channels.list(page),
    allChannels: await storage.channels.listAll(),
    channelGets: await Promise.all(f.channelIds.map((id) => storage.channels.get(id))),
    channelCount: await storage.channels.count(),
    assistants: await storage.assistants.list(page),
    sharedById: await storage.assistants.findById(f.publicAssistant.id),
    sharedForBob: await storage.assistants.resolveFor(f.bobId, f.publicAssistant.id),
    sharedForAlice: await storage.assistants.resolveFor(f.aliceId, f.publicAssistant.id),
    usableByAlice: await storage.assistants.listUsableBy(f.aliceId),
    helperUsage: await storage.assistants.usageSince(f.privateAssistant, FEB(1)),
    prices: await storage.prices.list(),
    recent: await storage.usageLog.recent(60),
    queries: await Promise.all([
      storage.usageLog.query({ ...page }),
      storage.usageLog.query({ page: 4, perPage: 25, ...tokenScope }),
      storage.usageLog.query({ ...page, ...accountScope, from: FEB(2, 3, 17), to: FEB(3, 9) }),
      storage.usageLog.query({ ...page, model: 'gpt-4o' }),
      storage.usageLog.query({ ...page, status: 429 }),
      storage.usageLog.query({ ...page, endpoint: 'embeddings', from: FEB(1), to: FEB(2) }),
      storage.usageLog.query({ ...page, endpoint: 'rerank' }),
    ]),
    aggregates: await Promise.all([
      storage.usageLog.aggregate(tokenScope, FEB(1), FEB(5), 'day'),
      storage.usageLog.aggregate(tokenScope, FEB(1, 2, 30), FEB(3, 7, 45), 'model'),
      storage.usageLog.aggregate(accountScope, FEB(1), FEB(1, 6), 'model'),
      storage.usageLog.aggregate({ accountId: f.bobId }, FEB(1, 0, 10), FEB(4), 'day'),
    ]),
    responses: await Promise.all(f.responseIds.map((id) => storage.responses.get(id, f.aliceId, FIXTURE_NOW))),
    chain: await storage.responses.chain('resp_second', f.aliceId, FIXTURE_NOW, 10),
    items: await storage.responses.findItems(f.aliceId, ['msg_in_1', 'fc_1', 'msg_out_1'], FIXTURE_NOW, 10),
    // In no particular order: sorted here.
    tasks: await Promise.all([f.aliceId, f.bobId].map(async (id) => (await storage.tasks.getMany(id, f.taskIds)).sort((a, b) => (a.id < b.id ? -1 : 1)))),
    taskPages: await Promise.all(
      (['asc', 'desc'] as const).flatMap((order) => [
        storage.tasks.list({ accountId: f.aliceId, kind: 'video', limit: 1, order }),
        storage.tasks.list({ accountId: f.aliceId, kind: 'video', limit: 5, order, after: 'video_done' }),
        storage.tasks.list({ accountId: f.bobId, kind: 'music', limit: 5, order }),
      ]),
    ),
    unsettledTasks: await storage.tasks.countUnsettled(),
  };
}

if (!TEST_DATABASE_URL) {
  process.stderr.write('copy-to-postgres specs on PostgreSQL skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test); the refusals before PostgreSQL still run\n');
}
const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;
/** Never reached: these refusals come before any connection. */
const UNREACHABLE_URL = 'postgres://nobody:secret@127.0.0.1:1/none';
/** The secret of databases without channels: nothing to open with it. */
const NOT_USED_SECRET = new SecretKeyring('a-secret-no-key-of-these-files-uses-0123');

describe('copySqliteToPostgres refuses before it touches PostgreSQL', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-copy-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a file that is not there, or not a relay database', async () => {
    expect(await failureOf(copySqliteToPostgres({ sqliteFile: path.join(dir, 'nope.db'), url: UNREACHABLE_URL, schema: 'x', secrets: () => NOT_USED_SECRET }))).toMatch(/no such file/);
    const other = path.join(dir, 'other.db');
    new Database(other).exec('CREATE TABLE notes (text TEXT)').close();
    expect(await failureOf(copySqliteToPostgres({ sqliteFile: other, url: UNREACHABLE_URL, schema: 'x', secrets: () => NOT_USED_SECRET }))).toMatch(/not a chat-relay database/);
    const garbage = path.join(dir, 'garbage.db');
    fs.writeFileSync(garbage, 'this is no database at all, just text long enough to have a header');
    expect(await failureOf(copySqliteToPostgres({ sqliteFile: garbage, url: UNREACHABLE_URL, schema: 'x', secrets: () => NOT_USED_SECRET }))).toMatch(/garbage\.db/);
  });

  it('a relay database behind the current version, left as it was, with the way to bring it up to date', async () => {
    const file = path.join(dir, SQLITE_FILE_NAME);
    const db = new Database(file);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
    for (const migration of migrations.filter((m) => m.version < LATEST_SQLITE_VERSION)) {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, FIXTURE_NOW);
    }
    // The version before the latest (versions need not be consecutive in a branch).
    const previous = Math.max(...migrations.filter((m) => m.version < LATEST_SQLITE_VERSION).map((m) => m.version));
    const message = await failureOf(copySqliteToPostgres({ sqliteFile: file, url: UNREACHABLE_URL, schema: 'x', secrets: () => NOT_USED_SECRET }));
    expect(message).toContain(`at schema version ${previous}, this tool copies version ${LATEST_SQLITE_VERSION}`);
    expect(message).toContain('start the current relay on it once');
    expect((db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v).toBe(previous);
    // Brought up to date (as the relay does at start), the same file is accepted: it fails only at the unreachable server.
    migrate(db);
    db.close();
    expect(await failureOf(copySqliteToPostgres({ sqliteFile: file, url: UNREACHABLE_URL, schema: 'x', secrets: () => NOT_USED_SECRET }))).toMatch(/ECONNREFUSED|connect/);
  });
});

describePostgres('copySqliteToPostgres (SQLite → PostgreSQL)', () => {
  const url = TEST_DATABASE_URL ?? '';
  let dataDir: string;
  let sqlite: Storage;
  let fixture: CopyFixture;
  let schema: string;
  const opened: Storage[] = [];
  const relays: TestRelay[] = [];

  /** The secret the SQLite relay sealed its channel keys with: its data directory's secret.key. */
  const relaySecret = () => loadSecretKey({ dataDir }).keyring;
  const copy = (secrets = relaySecret) => copySqliteToPostgres({ sqliteFile: path.join(dataDir, SQLITE_FILE_NAME), url, schema, secrets });
  const openCopy = async (): Promise<Storage> => {
    const storage = await openPostgresStorage({ url, schema, maxConnections: 3 }, { secrets: relaySecret() });
    opened.push(storage);
    return storage;
  };

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-copy-'));
    sqlite = openSqliteStorage(dataDir, { instanceId: 'sqlite-relay' });
    fixture = await fillRelayData(sqlite);
    schema = uniqueSchemaName('copy');
  });
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.close();
    for (const storage of opened.splice(0)) await storage.close();
    await sqlite.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropSchema(url, schema);
  });

  it('copies every table with its rows, and every store answers as the SQLite one did', async () => {
    const raw = new Database(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true });
    const counts = COPIED_TABLES.map((table) => ({ table, rows: (raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n }));
    raw.close();
    const result = await copy();
    expect(result).toEqual({ tables: counts, notes: [] });
    expect(counts.find((entry) => entry.table === 'usage_log')?.rows).toBeGreaterThan(1_000);

    const expected = await answers(sqlite, fixture);
    expect(await answers(await openCopy(), fixture)).toEqual(expected);
    // Not vacuous: the answers hold rows, and the hours past retention are counted from the copied rollup alone.
    expect((expected['recent'] as unknown[]).length).toBe(60);
    expect(expected['byTokenKey']).toMatchObject({ timeZone: 'America/New_York', account: { timeZone: 'Europe/Paris', periodicLimits: [{ period: 'month' }] } });
    const [, , pastRetention] = expected['aggregates'] as Array<Array<{ requests: number }>>;
    expect(pastRetention?.reduce((sum, group) => sum + group.requests, 0)).toBeGreaterThan(0);
    expect(await sqlite.usageLog.query({ ...page, from: FEB(1), to: FEB(1, 6) })).toEqual({ rows: [], total: 0 });
  });

  it('moves every id sequence past what SQLite gave: new rows are numbered as SQLite numbers them', async () => {
    await copy();
    const copied = await openCopy();
    const newRows = async (storage: Storage) => {
      const account = await storage.accounts.createUser('after the copy');
      const token = await storage.tokens.create({ accountId: account.id, name: 'new', keyDigest: `new-${storage.kind}`, keyHint: '...new1' });
      const channel = await storage.channels.create({ ...(await storage.channels.get(fixture.channelIds[0] ?? 0))!, name: 'new channel' });
      await storage.usageLog.insertBatch([usageEntry({ createdAt: '2026-03-02T00:00:00.000Z', tokenId: token.id })]);
      const [row] = await storage.usageLog.recent(1);
      return { account: account.id, token: token.id, channel: channel.id, usageRow: row?.id };
    };
    const onSqlite = await newRows(sqlite);
    expect(onSqlite.token).toBeGreaterThan(fixture.deletedTokenId);
    expect(await newRows(copied)).toEqual(onSqlite);

    // Reservations (INTEGER PRIMARY KEY in SQLite, an identity in PostgreSQL) too.
    const reservation = { requestId: 'req-after', tokenId: fixture.token.id, accountId: fixture.aliceId, amount: 10 };
    expect(await sqlite.quota.reserve(reservation)).toEqual({ ok: true });
    expect(await copied.quota.reserve(reservation)).toEqual({ ok: true });
    const sqliteIds = (new Database(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true }).prepare('SELECT id FROM quota_reservations ORDER BY id').all() as Array<{ id: number }>).map((row) => row.id);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>(`SELECT id FROM ${quoteSchema(schema)}.quota_reservations ORDER BY id`);
      expect(rows.map((row) => Number(row.id))).toEqual(sqliteIds);
    } finally {
      await client.end();
    }
  });

  it('the reservation left pending is given back on PostgreSQL as the SQLite relay would give it back', async () => {
    await copy();
    const copied = await openCopy();
    const later = new Date(Date.now() + 60_000).toISOString();
    const expected = { count: 1, amount: fixture.pendingAmount };
    // Its periodic window was copied with it, and gets its cost, tokens and request back alike.
    const counted = { cost: fixture.pendingAmount, requests: 1, tokens: 777 };
    expect(await sqlite.quota.windowUsage([fixture.pendingWindow])).toEqual([counted]);
    expect(await copied.quota.windowUsage([fixture.pendingWindow])).toEqual([counted]);
    expect(await sqlite.quota.releaseReservations(later)).toEqual(expected);
    expect(await copied.quota.releaseOrphaned(later)).toEqual(expected);
    const empty = { cost: 0, requests: 0, tokens: 0 };
    expect(await sqlite.quota.windowUsage([fixture.pendingWindow])).toEqual([empty]);
    expect(await copied.quota.windowUsage([fixture.pendingWindow])).toEqual([empty]);
    expect(await copied.tokens.get(fixture.token.id)).toEqual(await sqlite.tokens.get(fixture.token.id));
    expect(await copied.accounts.get(fixture.aliceId)).toEqual(await sqlite.accounts.get(fixture.aliceId));
    // The running task's reservation was copied as the task's: left by both, then settled by it alike.
    const [runningId = ''] = fixture.taskIds;
    for (const storage of [sqlite, copied]) {
      const running = await storage.tasks.get(fixture.aliceId, runningId);
      expect(running).toMatchObject({ status: 'in_progress', quotaReserved: 800_000 });
      const usage = usageEntry({ requestId: running?.requestId, tokenId: fixture.token.id, accountId: fixture.aliceId, endpoint: 'videos', cost: 500_000, quotaReserved: 800_000 });
      const ended = { status: 'completed' as const, progress: 100, error: null, result: null, units: 8, unitVariant: '1280x720', cost: 500_000, completedAt: later, usage };
      expect(await storage.tasks.settle(runningId, ended)).toMatchObject({ status: 'completed' });
    }
    expect(await copied.tokens.get(fixture.token.id)).toEqual(await sqlite.tokens.get(fixture.token.id));
    expect(await copied.accounts.get(fixture.aliceId)).toEqual(await sqlite.accounts.get(fixture.aliceId));
  });

  it('copies into a schema the relay migrated (seeded prices replaced), then refuses it as holding data and changes nothing', async () => {
    // As a relay leaves it at its first start: migrated, prices seeded, nothing else.
    const migrated = await openPostgresStorage({ url, schema, maxConnections: 1 }, { secrets: relaySecret() });
    expect((await migrated.prices.list()).map((price) => price.model)).toContain('o3*');
    await migrated.close();
    await copy();
    const copied = await openCopy();
    expect(await copied.prices.list()).toEqual(await sqlite.prices.list());
    const before = await answers(copied, fixture);

    const message = await failureOf(copy());
    expect(message).toContain('the target schema already holds data');
    expect(message).toMatch(/accounts \(3\), tokens \(3\), channels \(2\)/);
    expect(await answers(copied, fixture)).toEqual(before);
  });

  it('a relay running on the copy knows the token key and the account key as the SQLite relay did', async () => {
    await copy();
    const backend = (open: () => Promise<Storage>): StoreBackend => ({
      name: 'PostgreSQL',
      open: async () => {
        const storage = await open();
        return { storage, close: () => storage.close() };
      },
    });
    const onCopy = await createTestRelay({ backend: backend(() => openPostgresStorage({ url, schema, maxConnections: 3 }, { secrets: relaySecret() })) });
    relays.push(onCopy);
    const onSqlite = await createTestRelay({ backend: backend(async () => openSqliteStorage(dataDir)) });
    relays.push(onSqlite);
    for (const key of [fixture.tokenKey, fixture.aliceAccessKey]) {
      const fromCopy = await request(onCopy.app).get('/api/account').set(bearer(key)).expect(200);
      const fromSqlite = await request(onSqlite.app).get('/api/account').set(bearer(key)).expect(200);
      expect(fromCopy.body).toEqual(fromSqlite.body);
      expect(fromCopy.body.account).toMatchObject({ id: fixture.aliceId });
    }
    await request(onCopy.app).get('/api/account').set(bearer('sk-not-a-copied-key')).expect(401);
  });

  it('a copy failing partway leaves the target without a row, and copies once the value is fixed', async () => {
    const raw = new Database(path.join(dataDir, SQLITE_FILE_NAME));
    const lastRow = (raw.prepare('SELECT MAX(id) AS id FROM usage_log').get() as { id: number }).id;
    // Past PostgreSQL's integer: the tables before usage_log are copied by then.
    raw.prepare('UPDATE usage_log SET latency_ms = ? WHERE id = ?').run(2 ** 40, lastRow);
    const message = await failureOf(copy());
    expect(message).toMatch(new RegExp(`^copying usage_log: .*out of range.* \\(in the rows with id \\d+–${lastRow}\\)$`));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const table of COPIED_TABLES.filter((name) => name !== 'prices')) {
        expect((await client.query(`SELECT COUNT(*)::int AS n FROM ${quoteSchema(schema)}.${table}`)).rows[0]).toEqual({ n: 0 });
      }
    } finally {
      await client.end();
    }
    raw.prepare('UPDATE usage_log SET latency_ms = 12 WHERE id = ?').run(lastRow);
    raw.close();
    expect((await copy()).tables.find((entry) => entry.table === 'usage_log')?.rows).toBeGreaterThan(1_000);
  });

  it('copies what PostgreSQL cannot hold as written as close as it can, and says so', async () => {
    await sqlite.usageLog.insertBatch([usageEntry({ createdAt: '2026-02-05T00:00:00.000Z', requestedModel: 'we\u0000ird', requestId: 'req-nul' })]);
    const raw = new Database(path.join(dataDir, SQLITE_FILE_NAME));
    raw.prepare("UPDATE tokens SET expires_at = '2099-01-01T00:00:00Z', models = ? WHERE id = ?").run(JSON.stringify(['a\u0000b']), fixture.token.id);
    raw.close();

    const { notes } = await copy();
    expect(notes).toEqual([
      'tokens.expires_at: 1 time(s) not written as the relay writes them; the same instants copied, read back in ISO form',
      'tokens.models: 1 value(s) held U+0000, which PostgreSQL cannot store; replaced by U+FFFD',
      'usage_log.requested_model: 1 value(s) held U+0000, which PostgreSQL cannot store; replaced by U+FFFD',
      'usage_rollup.requested_model: 1 value(s) held U+0000, which PostgreSQL cannot store; replaced by U+FFFD',
    ]);
    const copied = await openCopy();
    expect(await copied.tokens.get(fixture.token.id)).toMatchObject({ expiresAt: '2099-01-01T00:00:00.000Z', models: ['a\uFFFDb'] });
    expect((await copied.usageLog.query({ ...page, from: '2026-02-05T00:00:00.000Z', to: '2026-02-05T00:00:00.001Z' })).rows).toEqual([
      expect.objectContaining({ requestId: 'req-nul', requestedModel: 'we\uFFFDird' }),
    ]);
    // The stored response's prompt with U+0000 is in a json column: kept exactly.
    expect(await copied.responses.get('resp_first', fixture.aliceId, FIXTURE_NOW)).toEqual(await sqlite.responses.get('resp_first', fixture.aliceId, FIXTURE_NOW));
  });

  describe('issue 26: channel keys sealed at rest', () => {
    const storedKeys = async (): Promise<string[]> => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ keys: string[] }>(`SELECT keys FROM ${quoteSchema(schema)}.channels ORDER BY id`)).rows.flatMap((row) => row.keys);
      } finally {
        await client.end();
      }
    };

    it('carries them sealed: no key in the clear in PostgreSQL, and the instances with the same secret read them', async () => {
      await copy();
      const stored = await storedKeys();
      expect(stored.length).toBeGreaterThan(1);
      for (const value of stored) expect(value).toMatch(new RegExp(`^enc:v1:${relaySecret().keyId}:`));
      expect((await (await openCopy()).channels.listAll()).map((channel) => channel.keys)).toEqual((await sqlite.channels.listAll()).map((channel) => channel.keys));
    });

    it('refuses a secret that does not open them, before PostgreSQL holds anything, naming the channel and how to give the right one', async () => {
      const message = await failureOf(copy(() => new SecretKeyring('not-the-relays-secret-0123456789-abcdef')));
      expect(message).toMatch(new RegExp(`^channel ${fixture.channelIds[0]}: a key sealed with secret key ${relaySecret().keyId}`));
      expect(message).toContain('--secret-key-file');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema])).rowCount).toBe(0);
      } finally {
        await client.end();
      }
    });

    it('seals keys an earlier version kept in the clear, and says so', async () => {
      const raw = new Database(path.join(dataDir, SQLITE_FILE_NAME));
      raw.prepare('UPDATE channels SET keys = ? WHERE id = ?').run(JSON.stringify(['sk-clear-0001', 'sk-clear-0002']), fixture.channelIds[0]);
      raw.close();
      const { notes } = await copy();
      expect(notes).toEqual(['channels.keys: 2 key(s) stored in the clear (or under RELAY_SECRET_KEY_PREVIOUS) sealed with the secret key']);
      expect((await storedKeys()).join(' ')).not.toContain('sk-clear');
      expect((await (await openCopy()).channels.get(fixture.channelIds[0] ?? 0))?.keys).toEqual(['sk-clear-0001', 'sk-clear-0002']);
    });
  });
});
