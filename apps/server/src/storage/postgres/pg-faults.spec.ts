import type pg from 'pg';
import { usageEntry } from '../../../test/testing/system-api';
import { startTcpProxy, type TcpProxy } from '../../../test/testing/tcp-proxy';
import { createAccount, createToken, pgRawSql, quotaUsed, reservations, type RawSql } from '../../../test/storage/suites/money-fixture';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName } from '../../../test/storage/testing/store-backends';
import type { Storage } from '../types';
import { openPostgresStorage } from './open-postgres';
import { createPgPool, inTransaction, type PostgresConnection } from './pg-pool';

/**
 * The PostgreSQL stores behind a TCP proxy the spec breaks (the shared server is never touched),
 * with a direct pool beside them to read what really landed and to end the stores' sessions.
 */
interface Faulted {
  proxy: TcpProxy;
  storage: Storage;
  sql: RawSql;
  direct: pg.Pool;
  accountId: number;
  tokenId: number;
  close(): Promise<void>;
}

async function openFaulted(settings: Partial<PostgresConnection> = {}, instanceId = 'faulted'): Promise<Faulted> {
  const url = TEST_DATABASE_URL!;
  const schema = uniqueSchemaName('f');
  const target = new URL(url);
  const proxy = await startTcpProxy(target.hostname || '127.0.0.1', Number(target.port || 5432));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const storage = await openPostgresStorage({ url: proxied.toString(), schema, maxConnections: 4, ...settings }, { instanceId, secrets: TEST_SECRETS });
  const direct = createPgPool({ url, schema, maxConnections: 3 });
  const sql = pgRawSql(direct);
  const accountId = await createAccount(sql, null);
  const tokenId = await createToken(sql, accountId, 1_000_000);
  return {
    proxy,
    storage,
    sql,
    direct,
    accountId,
    tokenId,
    close: async () => {
      proxy.restore();
      await storage.close();
      await direct.end();
      await proxy.close();
      await dropSchema(url, schema);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

const describePg = TEST_DATABASE_URL ? describe : describe.skip;
if (!TEST_DATABASE_URL) process.stderr.write('PostgreSQL fault specs skipped: DATABASE_URL is not set\n');

describePg('PostgreSQL stores when the connection fails (issue 26)', () => {
  let faulted: Faulted;
  afterEach(async () => {
    await faulted?.close();
  });

  it('a checked-out client whose session is terminated between two statements: the transaction fails, the process lives, the pool serves the next call', async () => {
    faulted = await openFaulted();
    const pool = createPgPool({ url: TEST_DATABASE_URL!, schema: 'public', maxConnections: 2 });
    try {
      const attempt = inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await faulted.direct.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
        // The session ends while no statement of ours runs: the client hears it as an 'error' event.
        await sleep(300);
        await client.query('SELECT 1');
      });
      await expect(attempt).rejects.toThrow();
      expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('a usage batch whose COMMIT reached the server but whose answer was lost: the store asks the server, and the rows are written once', async () => {
    faulted = await openFaulted();
    const { storage, tokenId, accountId, sql } = faulted;
    const rows = Array.from({ length: 3 }, (_, i) => usageEntry({ requestId: `lost-answer-${i}`, tokenId, accountId, cost: 1_000 }));
    const cut = faulted.proxy.cutOn('COMMIT', { deliver: true });
    // Landed before the store fenced the session: the store learns it committed. Fenced first
    // (a loaded machine): it was rolled back, the store says so, and the retry writes it.
    const first = await storage.usageLog.insertBatch(rows).then(
      () => 'written',
      () => 'refused',
    );
    await cut;
    if (first === 'refused') await storage.usageLog.insertBatch(rows);
    const written = await sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM usage_log WHERE request_id LIKE 'lost-answer-%'");
    expect(written).toEqual([{ n: 3 }]);
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 3_000, account: 3_000 });
  });

  it('…and when the server cannot be asked at once: the batch fails, and its retry (as the recorder retries) asks first and writes nothing twice', async () => {
    faulted = await openFaulted({ connectTimeoutMs: 300 });
    const { storage, tokenId, accountId, sql, proxy } = faulted;
    const rows = Array.from({ length: 3 }, (_, i) => usageEntry({ requestId: `in-doubt-${i}`, tokenId, accountId, cost: 1_000 }));
    // The server goes away right as the COMMIT lands: its outcome cannot be learnt for now.
    void proxy.cutOn('COMMIT', { deliver: true }).then(() => proxy.cut());
    await expect(storage.usageLog.insertBatch(rows)).rejects.toThrow(/does not answer/);
    await expect(storage.usageLog.insertBatch(rows)).rejects.toThrow(/does not answer/);
    proxy.restore();
    await storage.usageLog.insertBatch(rows);
    const written = await sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM usage_log WHERE request_id LIKE 'in-doubt-%'");
    expect(written).toEqual([{ n: 3 }]);
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 3_000, account: 3_000 });
  });

  it('…and when the retry learns it committed but the newer rows it came back with fail: the batch is still not written again', async () => {
    faulted = await openFaulted({ connectTimeoutMs: 300 });
    const { storage, tokenId, accountId, sql, proxy } = faulted;
    const rows = Array.from({ length: 3 }, (_, i) => usageEntry({ requestId: `doubt-then-fail-${i}`, tokenId, accountId, cost: 1_000 }));
    const newer = Array.from({ length: 2 }, (_, i) => usageEntry({ requestId: `doubt-then-fail-newer-${i}`, tokenId, accountId, cost: 1_000 }));
    void proxy.cutOn('COMMIT', { deliver: true }).then(() => proxy.cut());
    await expect(storage.usageLog.insertBatch(rows)).rejects.toThrow(/does not answer/);
    proxy.restore();
    // The recorder's next flush: the doubtful rows and newer ones. The server says the first batch
    // landed; the newer rows' own transaction is cut before its rows reach the server.
    const insertCut = proxy.cutOn('INSERT INTO usage_log', { deliver: false });
    await expect(storage.usageLog.insertBatch([...rows, ...newer])).rejects.toThrow();
    await insertCut;
    await storage.usageLog.insertBatch([...rows, ...newer]);
    const written = await sql.all<{ request_id: string }>("SELECT request_id FROM usage_log WHERE request_id LIKE 'doubt-then-fail-%' ORDER BY request_id");
    expect(written.map((row) => row.request_id)).toEqual([...rows, ...newer].map((row) => row.requestId).sort());
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 5_000, account: 5_000 });
  });

  it('a usage batch whose COMMIT never reached the server: retried, written once', async () => {
    faulted = await openFaulted();
    const { storage, tokenId, accountId, sql } = faulted;
    const rows = Array.from({ length: 3 }, (_, i) => usageEntry({ requestId: `lost-commit-${i}`, tokenId, accountId, cost: 1_000 }));
    const cut = faulted.proxy.cutOn('COMMIT', { deliver: false });
    await expect(storage.usageLog.insertBatch(rows)).rejects.toThrow();
    await cut;
    await storage.usageLog.insertBatch(rows);
    const written = await sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM usage_log WHERE request_id LIKE 'lost-commit-%'");
    expect(written).toEqual([{ n: 3 }]);
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 3_000, account: 3_000 });
  });

  it('a reservation taken on the server whose answer was lost: refused to the caller, then given back once the server answers', async () => {
    faulted = await openFaulted();
    const { storage, tokenId, accountId, sql } = faulted;
    const cut = faulted.proxy.cutOn('relay_reserve', { deliver: true });
    await expect(storage.quota.reserve({ requestId: 'unanswered', tokenId, accountId, amount: 5_000 })).rejects.toThrow();
    await cut;
    // It lands on the server unseen by the store; then the store gives it back.
    expect(await eventually(async () => (await reservations(sql)).length === 1, 3_000)).toBe(true);
    const givenBack = await eventually(async () => (await reservations(sql)).length === 0 && (await quotaUsed(sql, tokenId, accountId)).token === 0, 3_000);
    expect(givenBack).toBe(true);
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 0, account: 0 });
    // The store still reserves, and exactly.
    expect(await storage.quota.reserve({ requestId: 'after', tokenId, accountId, amount: 7 })).toEqual({ ok: true });
    expect(await quotaUsed(sql, tokenId, accountId)).toEqual({ token: 7, account: 7 });
  });

  it('a blackholed server (connections open, nothing answers): a call fails within the query timeout instead of hanging', async () => {
    faulted = await openFaulted({ queryTimeoutMs: 600, connectTimeoutMs: 600, statementTimeoutMs: 500 });
    const { storage, tokenId } = faulted;
    expect((await storage.tokens.get(tokenId))?.id).toBe(tokenId);
    faulted.proxy.blackhole();
    const started = Date.now();
    const stillWaiting = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000).unref());
    const outcome = await Promise.race([storage.tokens.get(tokenId).then(() => 'answered', () => 'failed'), stillWaiting]);
    const waitedMs = Date.now() - started;
    console.info(`postgres blackholed: a token read ${outcome} after ${waitedMs} ms (query timeout 600 ms)`);
    expect(outcome).toBe('failed');
    expect(waitedMs).toBeLessThan(1_500);
    faulted.proxy.restore();
    expect(await eventually(async () => (await storage.tokens.get(tokenId).catch(() => undefined))?.id === tokenId, 3_000)).toBe(true);
  });
});
