import type pg from 'pg';
import type { UsageLogEntry } from '../types';
import { PG_CODEC } from '../rows/codec';
import { USAGE_WRITTEN, usageValues } from '../rows/usage-row';
import { settlesSomething, WindowDeltas, windowKeysOf } from '../rows/quota-window-row';
import { addDelta, addToQuotaUsed, addToWindows } from './pg-quota-used';
import { columnsOf } from './pg-rows';

/**
 * The whole batch in one statement: the rows from one array per column (in USAGE_WRITTEN's order), and their sums added
 * to their hours of the rollup. Rollup rows are upserted in key order, so batches of several
 * instances meeting on the same hours lock them in the same order.
 */
const INSERT_AND_ROLL_UP = `
  WITH inserted AS (
    INSERT INTO usage_log (${USAGE_WRITTEN})
    SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::integer[], $4::integer[], $5::text[], $6::text[], $7::integer[],
      $8::text[], $9::boolean[], $10::integer[], $11::text[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[],
      $16::boolean[], $17::bigint[], $18::integer[], $19::integer[], $20::text[], $21::integer[], $22::text[], $23::double precision[], $24::text[])
    RETURNING created_at, token_id, account_id, requested_model, channel_id, endpoint, status, prompt_tokens,
      completion_tokens, cache_read_tokens, cache_write_tokens, units, cost
  )
  INSERT INTO usage_rollup (hour, token_id, account_id, requested_model, channel_id, endpoint, status, requests, errors,
    prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, units, cost)
  SELECT date_trunc('hour', created_at, 'UTC'), COALESCE(token_id, 0), COALESCE(account_id, 0), COALESCE(requested_model, ''),
    COALESCE(channel_id, 0), endpoint, status, COUNT(*), COUNT(*) FILTER (WHERE status >= 400), SUM(prompt_tokens),
    SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(units), SUM(cost)
  FROM inserted GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (hour, token_id, account_id, requested_model, channel_id, endpoint, status) DO UPDATE SET
    requests = usage_rollup.requests + excluded.requests, errors = usage_rollup.errors + excluded.errors,
    prompt_tokens = usage_rollup.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = usage_rollup.completion_tokens + excluded.completion_tokens,
    cache_read_tokens = usage_rollup.cache_read_tokens + excluded.cache_read_tokens,
    cache_write_tokens = usage_rollup.cache_write_tokens + excluded.cache_write_tokens,
    units = usage_rollup.units + excluded.units, cost = usage_rollup.cost + excluded.cost`;

/**
 * Forgets the reservations the batch's rows settle, in one statement, and answers which rows
 * found theirs (by position in the arrays). Only reservations held by `$5` (a task's id), or by
 * no task when it is NULL. Requests may share an id (a caller's X-Request-Id):
 * the n-th row of a (request, token, amount) takes the n-th such reservation. Rows are locked
 * first, so one given back meanwhile by another instance is gone and not found.
 */
const FORGET_RESERVATIONS = `
  WITH wanted AS (
    SELECT w.request_id, w.token_id, w.amount, w.position,
      row_number() OVER (PARTITION BY w.request_id, w.token_id, w.amount ORDER BY w.position) AS rank
    FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::integer[]) AS w(request_id, token_id, amount, position)
  ), held AS (
    SELECT h.id, h.request_id, h.token_id, h.amount, h.tokens, h.windows,
      row_number() OVER (PARTITION BY h.request_id, h.token_id, h.amount ORDER BY h.id) AS rank
    FROM (SELECT id, request_id, token_id, amount, tokens, windows FROM quota_reservations
          WHERE request_id = ANY($1::text[]) AND task_id IS NOT DISTINCT FROM $5::text ORDER BY id FOR UPDATE) AS h
  )
  DELETE FROM quota_reservations AS r USING held, wanted
  WHERE r.id = held.id AND held.request_id = wanted.request_id AND held.token_id = wanted.token_id
    AND held.amount = wanted.amount AND held.rank = wanted.rank
  RETURNING wanted.position, held.tokens, held.windows`;

/**
 * Writes usage rows and settles the quota they reserved — what `UsageLogStore.insertBatch` does
 * and what `TaskStore.settle` does with a task's row — inside the caller's transaction on
 * `client`: the one implementation of both, at most five statements whatever the number of rows
 * (rows and rollup, reservations forgotten, tokens settled, accounts settled, windows settled).
 * A settled reservation's windows (issue 32) get the cost's and the tokens' difference; one given
 * back already is not found: the lifetime quota is then charged whole, its windows nothing (their
 * request was taken back with it). A row forgets a
 * reservation held by `heldBy` (a task's id) or, by default, by no task: an ordinary request
 * never settles a task's reservation, nor a task another's.
 */
export async function writeUsage(client: pg.ClientBase, entries: readonly UsageLogEntry[], heldBy: string | null = null): Promise<void> {
  if (entries.length === 0) return;
  await client.query(INSERT_AND_ROLL_UP, columnsOf(entries.map((entry) => usageValues(entry, PG_CODEC))));
  const settled = await forgetReservations(client, entries, heldBy);
  // Each row's cost replaces the reservation it found; one given back already (its instance
  // was taken for dead) is not there, and the whole cost is charged: never both.
  const tokens = new Map<number, number>();
  const accounts = new Map<number, number>();
  const windows = new WindowDeltas();
  entries.forEach((entry, position) => {
    if (entry.tokenId === null) return;
    const reserved = settled.get(position);
    if (reserved) {
      const change = { cost: entry.cost - entry.quotaReserved, requests: 0, tokens: entry.promptTokens + entry.completionTokens - reserved.tokens };
      for (const key of windowKeysOf(reserved.windows, PG_CODEC)) windows.add(key, change);
    }
    const delta = entry.cost - (reserved ? entry.quotaReserved : 0);
    if (delta === 0) return;
    addDelta(tokens, entry.tokenId, delta);
    if (entry.accountId !== null) addDelta(accounts, entry.accountId, delta);
  });
  await addToQuotaUsed(client, 'tokens', tokens);
  await addToQuotaUsed(client, 'accounts', accounts);
  await addToWindows(client, windows);
}

/** What a found reservation had counted in windows: its tokens and their keys (null: none). */
interface Forgotten {
  tokens: number;
  windows: unknown;
}

async function forgetReservations(client: pg.ClientBase, entries: readonly UsageLogEntry[], heldBy: string | null): Promise<Map<number, Forgotten>> {
  const reserved = entries.flatMap((entry, position) => (settlesSomething(entry, heldBy) && entry.tokenId !== null ? [{ entry, position }] : []));
  if (reserved.length === 0) return new Map();
  const { rows } = await client.query<{ position: number } & Forgotten>(FORGET_RESERVATIONS, [
    reserved.map(({ entry }) => entry.requestId),
    reserved.map(({ entry }) => entry.tokenId),
    reserved.map(({ entry }) => entry.quotaReserved),
    reserved.map(({ position }) => position),
    heldBy,
  ]);
  return new Map(rows.map((row) => [row.position, { tokens: row.tokens, windows: row.windows }]));
}
