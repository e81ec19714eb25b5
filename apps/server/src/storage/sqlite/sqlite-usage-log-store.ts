import type Database from 'better-sqlite3';
import type {
  Page,
  StoredUsageLogEntry,
  UsageLogEntry,
  UsageLogQuery,
  UsageLogStore,
  UsageTotals,
} from '../types';

interface UsageRow {
  id?: number;
  created_at: string;
  request_id: string;
  token_id: number | null;
  account_id: number | null;
  requested_model: string | null;
  upstream_model: string | null;
  channel_id: number | null;
  assistant_id: string | null;
  stream: number;
  status: number;
  error_code: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  endpoint: UsageLogEntry['endpoint'];
  units: number;
  usage_estimated: number;
  cost: number;
  latency_ms: number;
  ttfb_ms: number | null;
  client_ip: string | null;
  attempts: number;
}

type UsageValues = [string, string, number | null, number | null, string | null, string | null, number | null, string | null, number, number, string | null, number, number, number, number, number, number, number, number | null, string | null, number, string, number];

/** The INSERT's values in column order (positional binding is the cheapest better-sqlite3 offers). */
const rowValues = (entry: UsageLogEntry): UsageValues => [
    entry.createdAt,
    entry.requestId,
    entry.tokenId,
    entry.accountId,
    entry.requestedModel,
    entry.upstreamModel,
    entry.channelId,
    entry.assistantId,
    entry.stream ? 1 : 0,
    entry.status,
    entry.errorCode,
    entry.promptTokens,
    entry.completionTokens,
    entry.cacheReadTokens,
    entry.cacheWriteTokens,
    entry.usageEstimated ? 1 : 0,
    entry.cost,
    Math.round(entry.latencyMs),
    entry.ttfbMs === null ? null : Math.round(entry.ttfbMs),
    entry.clientIp,
    entry.attempts,
    entry.endpoint,
    entry.units,
  ];

const toEntry = (row: UsageRow): StoredUsageLogEntry => ({
  id: row.id ?? 0,
  createdAt: row.created_at,
  requestId: row.request_id,
  tokenId: row.token_id,
  accountId: row.account_id,
  requestedModel: row.requested_model,
  upstreamModel: row.upstream_model,
  channelId: row.channel_id,
  assistantId: row.assistant_id,
  stream: row.stream === 1,
  status: row.status,
  errorCode: row.error_code,
  promptTokens: row.prompt_tokens,
  completionTokens: row.completion_tokens,
  cacheReadTokens: row.cache_read_tokens,
  cacheWriteTokens: row.cache_write_tokens,
  endpoint: row.endpoint,
  units: row.units,
  usageEstimated: row.usage_estimated === 1,
  cost: row.cost,
  latencyMs: row.latency_ms,
  ttfbMs: row.ttfb_ms,
  clientIp: row.client_ip,
  attempts: row.attempts,
});

export class SqliteUsageLogStore implements UsageLogStore {
  private readonly insert: Database.Statement<UsageValues>;
  private readonly settleToken: Database.Statement<[number, number]>;
  private readonly settleAccount: Database.Statement<[number, number]>;
  private readonly forgetReservation: Database.Statement<[string, number, number]>;

  constructor(private readonly db: Database.Database) {
    // Integers of micro-USD, kept within [0, 2^53): MAX(0, …) only matters when an admin reset
    // quota_used while the request ran; the cap keeps the column an exact JavaScript number.
    const settled = `MIN(${Number.MAX_SAFE_INTEGER}, MAX(0, quota_used + CAST(? AS INTEGER)))`;
    this.settleToken = db.prepare(`UPDATE tokens SET quota_used = ${settled} WHERE id = ?`);
    this.settleAccount = db.prepare(`UPDATE accounts SET quota_used = ${settled} WHERE id = ?`);
    // Requests may share an id (a caller's X-Request-Id), so one of several equal reservations will do.
    this.forgetReservation = db.prepare(
      `DELETE FROM quota_reservations WHERE id =
         (SELECT id FROM quota_reservations WHERE request_id = ? AND token_id = ? AND amount = ? LIMIT 1)`,
    );
    this.insert = db.prepare(
      `INSERT INTO usage_log (created_at, request_id, token_id, account_id, requested_model, upstream_model,
         channel_id, assistant_id, stream, status, error_code, prompt_tokens, completion_tokens, cache_read_tokens,
         cache_write_tokens, usage_estimated, cost, latency_ms, ttfb_ms, client_ip, attempts, endpoint, units)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  async insertBatch(entries: readonly UsageLogEntry[]): Promise<void> {
    // Settle: the reservation taken before each call becomes its actual cost — summed per token
    // and per account, so a batch costs one UPDATE for each of them, not one per request.
    const tokenDeltas = new Map<number, number>();
    const accountDeltas = new Map<number, number>();
    for (const entry of entries) {
      const delta = entry.cost - entry.quotaReserved;
      if (delta === 0 || entry.tokenId === null) continue;
      tokenDeltas.set(entry.tokenId, (tokenDeltas.get(entry.tokenId) ?? 0) + delta);
      if (entry.accountId !== null) accountDeltas.set(entry.accountId, (accountDeltas.get(entry.accountId) ?? 0) + delta);
    }
    this.db.transaction(() => {
      for (const entry of entries) {
        this.insert.run(...rowValues(entry));
        // The row settles the reservation: it no longer needs giving back after a crash.
        if (entry.quotaReserved > 0 && entry.tokenId !== null) this.forgetReservation.run(entry.requestId, entry.tokenId, entry.quotaReserved);
      }
      for (const [tokenId, delta] of tokenDeltas) if (delta !== 0) this.settleToken.run(delta, tokenId);
      for (const [accountId, delta] of accountDeltas) if (delta !== 0) this.settleAccount.run(delta, accountId);
    })();
  }

  async recent(limit: number): Promise<StoredUsageLogEntry[]> {
    const rows = this.db.prepare('SELECT * FROM usage_log ORDER BY id DESC LIMIT ?').all(limit) as UsageRow[];
    return rows.map(toEntry);
  }

  async query(query: UsageLogQuery): Promise<Page<StoredUsageLogEntry>> {
    const { where, params } = filters(query);
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM usage_log WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM usage_log WHERE ${where} ORDER BY id DESC LIMIT :limit OFFSET :offset`)
      .all({ ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage }) as UsageRow[];
    return { rows: rows.map(toEntry), total };
  }

  async aggregate(
    scope: { tokenId?: number; accountId?: number },
    from: string,
    to: string,
    groupBy: 'day' | 'model',
  ): Promise<Array<UsageTotals & { key: string }>> {
    const { where, params } = filters({ ...scope, from, to, page: 1, perPage: 1 });
    const key = groupBy === 'day' ? 'substr(created_at, 1, 10)' : "COALESCE(requested_model, '')";
    return this.db
      .prepare(
        `SELECT ${key} AS key, COUNT(*) AS requests, SUM(prompt_tokens) AS promptTokens,
           SUM(completion_tokens) AS completionTokens, SUM(cache_read_tokens) AS cacheReadTokens,
           SUM(cache_write_tokens) AS cacheWriteTokens, SUM(cost) AS cost
         FROM usage_log WHERE ${where} GROUP BY ${key} ORDER BY ${key}`,
      )
      .all(params) as Array<UsageTotals & { key: string }>;
  }

  purgeBefore(_before: string, _limit: number): Promise<number> {
    return notYetPurged();
  }
}

// Issue 15 scaffolding: retention is written with migration 9.
export async function notYetPurged(): Promise<number> {
  throw new Error('purgeBefore: not written yet');
}

/** WHERE clause and named parameters of a usage query; `to` is exclusive. */
function filters(query: UsageLogQuery): { where: string; params: Record<string, string | number> } {
  const clauses: string[] = [];
  const params: Record<string, string | number> = {};
  const add = (clause: string, name: string, value: string | number | undefined) => {
    if (value === undefined) return;
    clauses.push(clause);
    params[name] = value;
  };
  add('token_id = :token', 'token', query.tokenId);
  add('account_id = :account', 'account', query.accountId);
  add('requested_model = :model', 'model', query.model);
  add('status = :status', 'status', query.status);
  add('endpoint = :endpoint', 'endpoint', query.endpoint);
  add('created_at >= :from', 'from', query.from);
  add('created_at < :to', 'to', query.to);
  return { where: clauses.length ? clauses.join(' AND ') : '1 = 1', params };
}
