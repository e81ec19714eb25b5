import type Database from 'better-sqlite3';
import type { UsageLogEntry } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import { USAGE_WRITTEN, usageValues } from '../rows/usage-row';
import { settlesSomething, WindowDeltas, windowKeysOf } from '../rows/quota-window-row';
import { SqliteQuotaWindows } from './sqlite-quota-windows';

/** The rollup's hour of a row: created_at is ISO text, its first 13 characters the UTC hour. */
const HOUR_OF = "substr(created_at, 1, 13) || ':00:00.000Z'";

/** Adds the rows with ids in [first, last] — one batch's — to their hours of the rollup. */
const ROLL_UP = `
  INSERT INTO usage_rollup (hour, token_id, account_id, requested_model, channel_id, endpoint, status, requests, errors,
    prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, units, cost)
  SELECT ${HOUR_OF}, COALESCE(token_id, 0), COALESCE(account_id, 0), COALESCE(requested_model, ''), COALESCE(channel_id, 0),
    endpoint, status, COUNT(*), SUM(status >= 400), SUM(prompt_tokens), SUM(completion_tokens), SUM(cache_read_tokens),
    SUM(cache_write_tokens), SUM(units), SUM(cost)
  FROM usage_log WHERE id BETWEEN ? AND ? GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (hour, token_id, account_id, requested_model, channel_id, endpoint, status) DO UPDATE SET
    requests = requests + excluded.requests, errors = errors + excluded.errors,
    prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
    cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, units = units + excluded.units,
    cost = cost + excluded.cost`;

/**
 * Writes usage rows and settles the quota they reserved — what `UsageLogStore.insertBatch` does
 * and what `TaskStore.settle` does with a task's row — inside the caller's transaction: the one
 * implementation of both. A row forgets a reservation of its request, token and amount that is
 * held by `heldBy` (a task's id) or, by default, by no task: an ordinary request never settles a
 * task's reservation, nor a task another's. The windows a settled reservation counted in (issue
 * 32) get the cost's and the tokens' difference; one given back already is not found, and then
 * the lifetime quota is charged whole but the windows nothing: their request was taken back with
 * it, and a window is not charged for a request it no longer counts.
 */
export class SqliteUsageWriter {
  private readonly insert: Database.Statement<unknown[]>;
  private readonly rollUp: Database.Statement<[number, number]>;
  private readonly settleToken: Database.Statement<[number, number]>;
  private readonly settleAccount: Database.Statement<[number, number]>;
  private readonly forgetReservation: Database.Statement<[string, number, number, string | null], { tokens: number; windows: string | null }>;
  private readonly windows: SqliteQuotaWindows;

  constructor(db: Database.Database) {
    // Integers of micro-USD, kept within [0, 2^53): MAX(0, …) only matters when an admin reset
    // quota_used while the request ran; the cap keeps the column an exact JavaScript number.
    const settled = `MIN(${Number.MAX_SAFE_INTEGER}, MAX(0, quota_used + CAST(? AS INTEGER)))`;
    this.settleToken = db.prepare(`UPDATE tokens SET quota_used = ${settled} WHERE id = ?`);
    this.settleAccount = db.prepare(`UPDATE accounts SET quota_used = ${settled} WHERE id = ?`);
    // Requests may share an id (a caller's X-Request-Id), so one of several equal reservations will do.
    this.forgetReservation = db.prepare(
      `DELETE FROM quota_reservations WHERE id =
         (SELECT id FROM quota_reservations WHERE request_id = ? AND token_id = ? AND amount = ? AND task_id IS ? LIMIT 1)
       RETURNING tokens, windows`,
    );
    this.windows = new SqliteQuotaWindows(db);
    this.insert = db.prepare(
      // Positional binding: the cheapest better-sqlite3 offers.
      `INSERT INTO usage_log (${USAGE_WRITTEN})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.rollUp = db.prepare(ROLL_UP);
  }

  /** Only inside a transaction of the writer's database (its ids are read as one batch's). */
  write(entries: readonly UsageLogEntry[], heldBy: string | null = null): void {
    if (entries.length === 0) return;
    // Settle: each row's cost replaces the reservation it finds and forgets — summed per token
    // and per account, so a batch costs one UPDATE for each of them, not one per request. A
    // reservation no longer there was given back already (its instance was taken for dead):
    // then the whole cost is charged, so nothing is given back twice.
    const tokenDeltas = new Map<number, number>();
    const accountDeltas = new Map<number, number>();
    const windowDeltas = new WindowDeltas();
    let first = 0;
    let last = 0;
    for (const entry of entries) {
      last = Number(this.insert.run(...usageValues(entry, SQLITE_CODEC)).lastInsertRowid);
      first ||= last;
      if (entry.tokenId === null) continue;
      // A task's row always looks for its task's reservation: a free one may hold windows.
      const reserved = settlesSomething(entry, heldBy)
        ? this.forgetReservation.get(entry.requestId, entry.tokenId, entry.quotaReserved, heldBy)
        : undefined;
      const settles = reserved !== undefined;
      if (reserved?.windows) {
        const change = { cost: entry.cost - entry.quotaReserved, requests: 0, tokens: entry.promptTokens + entry.completionTokens - reserved.tokens };
        for (const key of windowKeysOf(reserved.windows, SQLITE_CODEC)) windowDeltas.add(key, change);
      }
      const delta = entry.cost - (settles ? entry.quotaReserved : 0);
      if (delta === 0) continue;
      tokenDeltas.set(entry.tokenId, (tokenDeltas.get(entry.tokenId) ?? 0) + delta);
      if (entry.accountId !== null) accountDeltas.set(entry.accountId, (accountDeltas.get(entry.accountId) ?? 0) + delta);
    }
    // One writer at a time: the batch's ids are exactly [first, last].
    this.rollUp.run(first, last);
    for (const [tokenId, delta] of tokenDeltas) if (delta !== 0) this.settleToken.run(delta, tokenId);
    for (const [accountId, delta] of accountDeltas) if (delta !== 0) this.settleAccount.run(delta, accountId);
    this.windows.apply(windowDeltas);
  }
}
