import { createLogger } from '../../../src/logger';
import { releaseLeftoverReservations } from '../../../src/storage/bootstrap';
import { INSTANCE_STALE_MS } from '../../../src/storage/instance-liveness';
import { pgListingSql } from '../../../src/storage/postgres/pg-usage-queries';
import { pgSeriesSql } from '../../../src/storage/postgres/pg-usage-series';
import { sqliteListingSql } from '../../../src/storage/sqlite/sqlite-usage-queries';
import { sqliteSeriesSql } from '../../../src/storage/sqlite/sqlite-usage-series';
import { describeEachBackend, type StoreBackend } from '../testing/store-backends';
import type { Storage, UsageLogQuery } from '../../../src/storage/types';
import { createAccount, createToken, openMoneyDb, quotaUsed, reservations, type MoneyDb } from './money-fixture';
import { sampleRows } from './usage-sample';

// Each test opens its own database (on PostgreSQL a schema, migrated): seconds when the machine is busy.
jest.setTimeout(30_000);

/**
 * Bugs other LLM gateways shipped, each pinned here against this relay's stores on both
 * backends (where it applies), so the same mistake cannot creep in.
 */

const silent = createLogger('silent');

/** A test database with a token (limit `tokenLimit`) of an account (limit `accountLimit`). */
function withQuota(backend: StoreBackend, tokenLimit: number | null, accountLimit: number | null) {
  const state = {} as { db: MoneyDb; tokenId: number; accountId: number };
  beforeEach(async () => {
    state.db = await openMoneyDb(backend.name);
    state.accountId = await createAccount(state.db.sql, accountLimit);
    state.tokenId = await createToken(state.db.sql, state.accountId, tokenLimit);
  });
  afterEach(() => state.db.close());
  return state;
}

/** SHOW_PLANS=1 prints every plan checked (what the report quotes). */
describeEachBackend('LiteLLM: spend log sequential scans (PostgreSQL at 94% CPU)', (backend) => {
  // LiteLLM's spend logs had no index for the UI's filters: every listing and spend report read
  // the whole table. Here every filter of the listing, and the aggregates, must be served by an index.
  const state = withQuota(backend, null, null);
  beforeEach(async () => {
    await state.db.storage.usageLog.insertBatch(sampleRows(500, { tokens: [state.tokenId], accounts: [state.accountId] }, 3));
    if (backend.name === 'PostgreSQL') await state.db.sql.run('ANALYZE usage_log');
  });

  const range = { from: '2026-02-01T09:17:00.000Z', to: '2026-02-02T15:42:00.000Z' };
  const filters: Array<[string, (ids: { tokenId: number; accountId: number }) => Omit<UsageLogQuery, 'page' | 'perPage'>, string | null]> = [
    ['no filter', () => ({}), null],
    ['token', ({ tokenId }) => ({ tokenId }), 'token_id'],
    ['account', ({ accountId }) => ({ accountId }), 'account_id'],
    ['model', () => ({ model: 'gpt-4o' }), 'requested_model'],
    ['status', () => ({ status: 429 }), 'status'],
    ['endpoint', () => ({ endpoint: 'embeddings' }), 'endpoint'],
    ['time range', () => range, 'created_at'],
    ['token and time range', ({ tokenId }) => ({ tokenId, ...range }), 'token_id'],
  ];

  it.each(filters)('the listing filtered by %s is read through an index, in order', async (name, filter, column) => {
    const query = { ...filter(state), page: 2, perPage: 50 };
    const plans =
      backend.name === 'SQLite'
        ? await Promise.all([sqliteListingSql(query)].flatMap((sql) => [state.db.explain(sql.count, sql.params), state.db.explain(sql.rows, sql.params)]))
        : await Promise.all([pgListingSql(query)].flatMap((sql) => [state.db.explain(sql.count, sql.values), state.db.explain(sql.rows, sql.pageValues)]));
    for (const plan of plans) expectIndexed(backend, plan, column);
    if (process.env['SHOW_PLANS']) process.stdout.write(`\n--- ${backend.name} listing ${name}\n${plans.map((plan) => plan.join('\n')).join('\n\n')}\n`);
    // The page comes off the index in its order: no sort of the matching rows.
    expect(plans[1]!.join('\n')).not.toMatch(backend.name === 'SQLite' ? /TEMP B-TREE/ : /Sort/);
  });

  it.each([
    ['a token', (ids: { tokenId: number; accountId: number }) => ({ tokenId: ids.tokenId }), 'token_id'],
    ['an account', (ids: { tokenId: number; accountId: number }) => ({ accountId: ids.accountId }), 'account_id'],
    ['everyone', () => ({}), 'created_at'],
  ])('the aggregate of %s reads the rollup and the ends of the range through indexes', async (name, scope, column) => {
    // The aggregate is the daily series (aggregateFromSeries), in total or by model.
    for (const groupBy of ['total', 'model'] as const) {
      const plan =
        backend.name === 'SQLite'
          ? await (async () => {
              const sql = sqliteSeriesSql(scope(state), range.from, range.to, 'day', groupBy);
              return state.db.explain(sql.sql, sql.params);
            })()
          : await (async () => {
              const sql = pgSeriesSql(scope(state), range.from, range.to, 'day', groupBy);
              return state.db.explain(sql.sql, sql.values);
            })();
      expectIndexed(backend, plan, column);
      if (process.env['SHOW_PLANS']) process.stdout.write(`\n--- ${backend.name} aggregate ${name} ${groupBy}\n${plan.join('\n')}\n`);
      expect(plan.join('\n')).toMatch(backend.name === 'SQLite' ? /SEARCH usage_rollup USING [^\n]*hour>\?/ : /Index\w* Scan[^\n]* on usage_rollup/);
    }
  });
});

/** No full read of the log; when a column is filtered, an index is searched on it. */
function expectIndexed(backend: StoreBackend, plan: string[], column: string | null): void {
  const text = plan.join('\n');
  if (backend.name === 'SQLite') {
    expect(plan.filter((line) => /^SCAN usage_(log|rollup)$/.test(line))).toEqual([]);
    if (column) expect(text).toMatch(new RegExp(`SEARCH usage_log USING (COVERING )?INDEX usage_log_\\w+ \\(${column}[=><]`));
  } else {
    expect(text).not.toMatch(/Seq Scan/);
    if (column) expect(text).toMatch(new RegExp(`Index Cond: \\([^\\n]*${column}`));
  }
}

describeEachBackend('LiteLLM: spend reseed inflates spend N× across pods', (backend) => {
  // LiteLLM pods reseeded spend from their own view at start, so each restart counted the others'
  // in-flight spend again. Here a start gives back only what a dead instance held.
  if (backend.name === 'SQLite') {
    it('does not apply: a SQLite database has one relay, which gives back everything left at its start', async () => {
      const db = await openMoneyDb('SQLite');
      try {
        const accountId = await createAccount(db.sql, null);
        const tokenId = await createToken(db.sql, accountId, 100);
        await db.storage.quota.reserve({ requestId: 'left', tokenId, accountId, amount: 40 });
        await releaseLeftoverReservations(db.storage, silent);
        expect(await quotaUsed(db.sql, tokenId, accountId)).toEqual({ token: 0, account: 0 });
      } finally {
        await db.close();
      }
    });
    return;
  }
  const state = withQuota(backend, 10_000, null);
  const reserve = (on: Storage, requestId: string, amount: number) => on.quota.reserve({ requestId, tokenId: state.tokenId, accountId: state.accountId, amount });
  const used = () => quotaUsed(state.db.sql, state.tokenId, state.accountId);

  it('instances starting while others hold reservations leave quota_used exactly the reservations plus the costs settled', async () => {
    const a = state.db.storage;
    await releaseLeftoverReservations(a, silent);
    expect(await reserve(a, 'a-1', 300)).toEqual({ ok: true });
    expect(await reserve(a, 'a-2', 200)).toEqual({ ok: true });

    const b = await state.db.open('instance-b');
    await releaseLeftoverReservations(b, silent);
    expect(await used()).toEqual({ token: 500, account: 500 });
    expect(await reserve(b, 'b-1', 400)).toEqual({ ok: true });
    await a.usageLog.insertBatch([usageRow(state, 'a-1', 300, 100)]);
    expect(await used()).toEqual({ token: 700, account: 700 });

    // A third starts, then a fourth and fifth at once: a and b are alive, nothing is theirs to give back.
    await releaseLeftoverReservations(await state.db.open('instance-c'), silent);
    const [d, e] = [await state.db.open('instance-d'), await state.db.open('instance-e')];
    await Promise.all([releaseLeftoverReservations(d, silent), releaseLeftoverReservations(e, silent)]);
    expect(await used()).toEqual({ token: 700, account: 700 });
    expect((await reservations(state.db.sql)).map((row) => row.requestId)).toEqual(['a-2', 'b-1']);

    // a dies (its heartbeat stops); two instances start at once: its 200 is given back once.
    await a.quota.heartbeat(new Date(Date.now() - 2 * INSTANCE_STALE_MS).toISOString());
    const [f, g] = [await state.db.open('instance-f'), await state.db.open('instance-g')];
    await Promise.all([releaseLeftoverReservations(f, silent), releaseLeftoverReservations(g, silent)]);
    expect(await used()).toEqual({ token: 500, account: 500 });
    await b.usageLog.insertBatch([usageRow(state, 'b-1', 400, 50)]);
    expect(await used()).toEqual({ token: 150, account: 150 });
    expect(await reservations(state.db.sql)).toEqual([]);
  }, 30_000);
});

describeEachBackend('LiteLLM: budgets are per pod', (backend) => {
  // LiteLLM kept budgets in each pod's memory: N pods let a key spend N times its budget. Here
  // every instance reserves against the same limit in the database.
  const state = withQuota(backend, 100, 1_000);
  const reserve = (on: Storage, requestId: string, amount: number) => on.quota.reserve({ requestId, tokenId: state.tokenId, accountId: state.accountId, amount });

  it("one instance's reservations and settled costs count against the other's next reservation", async () => {
    const a = state.db.storage;
    const b = await state.db.open('instance-b');
    expect(await reserve(a, 'a-1', 60)).toEqual({ ok: true });
    expect(await reserve(b, 'b-1', 50)).toEqual({ ok: false, exhausted: 'token' });
    expect(await reserve(b, 'b-2', 40)).toEqual({ ok: true });
    expect(await reserve(a, 'a-2', 1)).toEqual({ ok: false, exhausted: 'token' });
    await a.usageLog.insertBatch([usageRow(state, 'a-1', 60, 10)]);
    expect(await reserve(b, 'b-3', 50)).toEqual({ ok: true });
    expect(await reserve(b, 'b-4', 1)).toEqual({ ok: false, exhausted: 'token' });
    expect(await quotaUsed(state.db.sql, state.tokenId, state.accountId)).toEqual({ token: 100, account: 100 });
  });

  it("an account's limit binds its tokens on every instance together", async () => {
    await state.db.sql.run('UPDATE accounts SET quota_limit = 150 WHERE id = ?', [state.accountId]);
    const other = await createToken(state.db.sql, state.accountId, 100);
    const b = await state.db.open('instance-b');
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? b : state.db.storage).quota.reserve({ requestId: `r-${i}`, tokenId: i % 4 < 2 ? state.tokenId : other, accountId: state.accountId, amount: 10 }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(15);
    expect((await quotaUsed(state.db.sql, state.tokenId, state.accountId)).account).toBe(150);
  });
});

function usageRow(state: { tokenId: number; accountId: number }, requestId: string, quotaReserved: number, cost: number) {
  return sampleRows(1, { tokens: [state.tokenId], accounts: [state.accountId] }, requestId.length).map((row) => ({
    ...row,
    requestId,
    tokenId: state.tokenId,
    accountId: state.accountId,
    quotaReserved,
    cost,
  }))[0]!;
}
