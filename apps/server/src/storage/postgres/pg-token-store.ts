import type pg from 'pg';
import type { TokenStatus } from '@chat-relay/contract';
import type {
  NewToken,
  Page,
  PageRequest,
  TokenBatchAction,
  TokenBatchOutcome,
  TokenListRequest,
  TokenPatch,
  TokenRecord,
  TokenStore,
} from '../types';
import { PG_CODEC } from '../rows/codec';
import {
  TOKEN_COLUMNS as COLUMNS,
  tokenAccountColumnsOf,
  tokenColumnsOf,
  tokenInsertValues,
  tokenRecordOf,
  tokenUpdateValues,
  tokenWithAccountOf,
  type TokenAccountColumns as AccountColumns,
  type TokenRow,
} from '../rows/token-row';
import { inTransaction } from './pg-pool';
import { idParam, pageOf, Params, type Queryable } from './pg-rows';

const toRecord = (row: TokenRow): TokenRecord => tokenRecordOf(row, PG_CODEC);

/**
 * SQL for "shows as status X at time `now`" (added to `params` only where the SQL names it:
 * PostgreSQL refuses a parameter it cannot type): disabled (an admin's word) first, then
 * expired, then exhausted (quota used up), else active — as `tokenView` computes it.
 */
function statusFilter(status: TokenStatus | undefined, now: string, params: Params): string {
  const live = () => `(expires_at IS NULL OR expires_at > ${params.add(now)}::timestamptz)`;
  const exhausted = '(quota_limit IS NOT NULL AND quota_used >= quota_limit)';
  switch (status) {
    case undefined:
      return 'TRUE';
    case 'disabled':
      return "status = 'disabled'";
    case 'expired':
      return `status <> 'disabled' AND NOT ${live()}`;
    case 'exhausted':
      return `status <> 'disabled' AND ${live()} AND ${exhausted}`;
    case 'active':
      return `status <> 'disabled' AND ${live()} AND NOT ${exhausted}`;
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}

/** Tokens in PostgreSQL, behaving as SqliteTokenStore does. */
export class PgTokenStore implements TokenStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(input: NewToken): Promise<TokenRecord> {
    const { rows } = await this.pool.query<TokenRow>(
      `INSERT INTO tokens (account_id, name, key_digest, key_hint, status, expires_at, quota_limit, models,
         allowed_ips, rate_limit, created_at, periodic_limits, time_zone, alert_thresholds)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11, $12::jsonb, $13, $14::jsonb) RETURNING ${COLUMNS}`,
      tokenInsertValues(input, new Date().toISOString()),
    );
    if (!rows[0]) throw new Error('INSERT … RETURNING gave no row');
    return toRecord(rows[0]);
  }

  async update(id: number, patch: TokenPatch): Promise<TokenRecord | undefined> {
    return inTransaction(this.pool, (client) => this.updateLocked(client, id, patch));
  }

  async search(request: PageRequest & { q: string; accountId?: number }): Promise<Page<TokenRecord>> {
    const params = new Params();
    const q = params.add(request.q);
    // strpos, not LIKE: `%` and `_` in what was typed are plain characters, as with SQLite's instr.
    const where = `(strpos(lower(name), lower(${q})) > 0 OR strpos(lower(key_hint), lower(${q})) > 0)${
      request.accountId === undefined ? '' : ` AND account_id = ${params.add(idParam(request.accountId))}::bigint`
    }`;
    return this.page(where, params, request);
  }

  async batch(
    ids: readonly number[],
    action: TokenBatchAction,
    patch: TokenPatch | undefined,
    accountId?: number,
  ): Promise<TokenBatchOutcome[]> {
    return inTransaction(this.pool, async (client) => {
      // Every row locked at once, in id order: two batches over the same tokens wait for each
      // other instead of deadlocking.
      const unique = [...new Set(ids)];
      const locked = await client.query<{ id: number; account_id: number }>(
        'SELECT id, account_id FROM tokens WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE',
        [unique.map(idParam)],
      );
      const owners = new Map(locked.rows.map((row) => [row.id, row.account_id]));
      const outcomes: TokenBatchOutcome[] = [];
      for (const id of unique) {
        const owner = owners.get(id);
        if (owner === undefined || (accountId !== undefined && owner !== accountId)) {
          outcomes.push({ id, status: 'not_found' });
        } else if (action === 'delete') {
          await client.query('DELETE FROM tokens WHERE id = $1', [id]);
          outcomes.push({ id, status: 'ok' });
        } else {
          const change: TokenPatch =
            action === 'enable' ? { status: 'active' } : action === 'disable' ? { status: 'disabled' } : (patch ?? {});
          outcomes.push({ id, status: 'ok', token: await this.updateLocked(client, id, change) });
        }
      }
      return outcomes;
    });
  }

  /**
   * Inside a transaction: lock the row, merge the patch into it and write it back. The lock keeps
   * a quota reservation landing meanwhile from being overwritten with the `quota_used` read.
   */
  private async updateLocked(client: Queryable, id: number, patch: TokenPatch): Promise<TokenRecord | undefined> {
    const current = await client.query<TokenRow>(`SELECT ${COLUMNS} FROM tokens WHERE id = $1::bigint FOR UPDATE`, [idParam(id)]);
    if (!current.rows[0]) return undefined;
    const { rows } = await client.query<TokenRow>(
      `UPDATE tokens SET name = $1, status = $2, expires_at = $3, quota_limit = $4, quota_used = $5, models = $6::jsonb,
         allowed_ips = $7::jsonb, rate_limit = $8::jsonb, periodic_limits = $9::jsonb, time_zone = $10, alert_thresholds = $11::jsonb
       WHERE id = $12 RETURNING ${COLUMNS}`,
      [...tokenUpdateValues(toRecord(current.rows[0]), patch), id],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  private page(where: string, params: Params, request: PageRequest): Promise<Page<TokenRecord>> {
    return pageOf(this.pool, { columns: COLUMNS, table: 'tokens', where, orderBy: 'id', params }, request, toRecord);
  }

  async get(id: number): Promise<TokenRecord | undefined> {
    const { rows } = await this.pool.query<TokenRow>(`SELECT ${COLUMNS} FROM tokens WHERE id = $1::bigint`, [idParam(id)]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** One read on the auth path: the token and what policy needs of its account. */
  async findByKeyDigest(digest: string): Promise<TokenRecord | undefined> {
    const { rows } = await this.pool.query<TokenRow & AccountColumns>(
      `SELECT ${tokenColumnsOf('t')},
         ${tokenAccountColumnsOf('a')}
       FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.key_digest = $1`,
      [digest],
    );
    const row = rows[0];
    return row ? tokenWithAccountOf(row, PG_CODEC) : undefined;
  }

  async list(request: TokenListRequest): Promise<Page<TokenRecord>> {
    const params = new Params();
    const where = `${statusFilter(request.status, request.now, params)}${
      request.accountId === undefined ? '' : ` AND account_id = ${params.add(idParam(request.accountId))}::bigint`
    }`;
    return this.page(where, params, request);
  }

  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM tokens WHERE id = $1::bigint', [idParam(id)]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * One statement for the whole batch; a time never moves backwards. The rows are locked in id
   * order first, as every other writer of tokens locks them (addToQuotaUsed): in the order of the
   * batch, it deadlocked with another instance's usage flush.
   */
  async touchLastUsed(lastUsed: ReadonlyMap<number, string>): Promise<void> {
    const touched = [...lastUsed].filter(([id]) => idParam(id) !== null);
    if (touched.length === 0) return;
    await this.pool.query(
      `UPDATE tokens t SET last_used_at = v.at
       FROM (SELECT id FROM tokens WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE) AS locked,
         unnest($1::bigint[], $2::timestamptz[]) AS v(id, at)
       WHERE t.id = locked.id AND v.id = locked.id AND (t.last_used_at IS NULL OR t.last_used_at < v.at)`,
      [touched.map(([id]) => id), touched.map(([, at]) => at)],
    );
  }
}
