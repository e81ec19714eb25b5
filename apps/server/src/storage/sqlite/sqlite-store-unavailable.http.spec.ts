import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createToken } from '../../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../../test/testing/test-relay';
import { isStoreFault } from '../store-faults';
import { openSqliteStorage, SQLITE_FILE_NAME } from './open-sqlite';

const SIM_KEY = 'sk-sim-key';

/** A real SqliteError of `code`'s kind, from a scratch database made to fail that way. */
function realSqliteError(make: (db: Database.Database) => void): unknown {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-fault-'));
  const db = new Database(path.join(dir, 'scratch.db'));
  try {
    make(db);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('SQLite that cannot answer: callers get 503 store_unavailable, not 500 (issue 26)', () => {
  let relay: TestRelay;
  let sim: UpstreamSim;
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-busy-'));
    // A write waits 50 ms for a lock, so a held lock answers at once instead of after 5 s.
    const backend = {
      name: 'SQLite' as const,
      open: async () => {
        const storage = openSqliteStorage(dataDir, { busyTimeoutMs: 50 });
        return { storage, close: () => storage.close() };
      },
    };
    relay = await createTestRelay({ backend });
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    await request(relay.app)
      .post('/api/channels')
      .set('authorization', `Bearer ${relay.adminKey}`)
      .send({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: [SIM_KEY], models: ['gpt-4o'] })
      .expect(201);
    // A quota limit: each request reserves (a write) before the upstream call.
    key = (await createToken(relay, { name: 'busy', quota_limit: 1_000_000_000 })).key;
  });
  afterAll(async () => {
    await relay.close();
    await sim.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('SQLITE_BUSY (another process holds the write lock): 503 with Retry-After in each dialect, no upstream call; served again once the lock goes', async () => {
    const other = new Database(path.join(dataDir, SQLITE_FILE_NAME));
    other.exec('BEGIN EXCLUSIVE');
    try {
      const openai = await request(relay.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${key}`)
        .send({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
      expect(openai.status).toBe(503);
      expect(openai.headers['retry-after']).toBe('2');
      expect(openai.body).toEqual({ error: { type: 'service_unavailable', code: 'store_unavailable', param: null, message: expect.any(String) } });
      const anthropic = await request(relay.app)
        .post('/v1/messages')
        .set('x-api-key', key)
        .set('anthropic-version', '2023-06-01')
        .send({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
      expect(anthropic.status).toBe(529);
      expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      expect(anthropic.headers['retry-after']).toBe('2');
      expect(sim.requests).toHaveLength(0);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    const served = await request(relay.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .send({ model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] });
    expect(served.status).toBe(200);
  });

  it('SQLITE_FULL, SQLITE_BUSY and an I/O error are store faults; a constraint is the statement\'s own error', () => {
    const full = realSqliteError((db) => {
      db.exec('PRAGMA max_page_count = 2; CREATE TABLE t (x TEXT)');
      for (;;) db.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(4000));
    });
    const constraint = realSqliteError((db) => {
      db.exec('CREATE TABLE t (x INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)');
      db.exec('INSERT INTO t VALUES (1)');
    });
    const io = new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE');
    expect((full as { code?: string }).code).toBe('SQLITE_FULL');
    expect((constraint as { code?: string }).code).toMatch(/^SQLITE_CONSTRAINT/);
    expect([full, io, new Database.SqliteError('database is locked', 'SQLITE_BUSY')].map(isStoreFault)).toEqual([true, true, true]);
    expect(isStoreFault(constraint)).toBe(false);
  });
});
