import type Database from 'better-sqlite3';
import type { UsageLogEntry, UsageLogStore } from '../types';

interface UsageRow {
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
  usage_estimated: number;
  cost: number;
  latency_ms: number;
  ttfb_ms: number | null;
  client_ip: string | null;
  attempts: number;
}

const toRow = (entry: UsageLogEntry): UsageRow => ({
  created_at: entry.createdAt,
  request_id: entry.requestId,
  token_id: entry.tokenId,
  account_id: entry.accountId,
  requested_model: entry.requestedModel,
  upstream_model: entry.upstreamModel,
  channel_id: entry.channelId,
  assistant_id: entry.assistantId,
  stream: entry.stream ? 1 : 0,
  status: entry.status,
  error_code: entry.errorCode,
  prompt_tokens: entry.promptTokens,
  completion_tokens: entry.completionTokens,
  usage_estimated: entry.usageEstimated ? 1 : 0,
  cost: entry.cost,
  latency_ms: Math.round(entry.latencyMs),
  ttfb_ms: entry.ttfbMs === null ? null : Math.round(entry.ttfbMs),
  client_ip: entry.clientIp,
  attempts: entry.attempts,
});

const toEntry = (row: UsageRow): UsageLogEntry => ({
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
  usageEstimated: row.usage_estimated === 1,
  cost: row.cost,
  latencyMs: row.latency_ms,
  ttfbMs: row.ttfb_ms,
  clientIp: row.client_ip,
  attempts: row.attempts,
});

export class SqliteUsageLogStore implements UsageLogStore {
  private readonly insert: Database.Statement<[UsageRow]>;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO usage_log (created_at, request_id, token_id, account_id, requested_model, upstream_model,
         channel_id, assistant_id, stream, status, error_code, prompt_tokens, completion_tokens, usage_estimated,
         cost, latency_ms, ttfb_ms, client_ip, attempts)
       VALUES (:created_at, :request_id, :token_id, :account_id, :requested_model, :upstream_model, :channel_id,
         :assistant_id, :stream, :status, :error_code, :prompt_tokens, :completion_tokens, :usage_estimated,
         :cost, :latency_ms, :ttfb_ms, :client_ip, :attempts)`,
    );
  }

  async insertBatch(entries: readonly UsageLogEntry[]): Promise<void> {
    this.db.transaction(() => {
      for (const entry of entries) this.insert.run(toRow(entry));
    })();
  }

  async recent(limit: number): Promise<UsageLogEntry[]> {
    const rows = this.db.prepare('SELECT * FROM usage_log ORDER BY id DESC LIMIT ?').all(limit) as UsageRow[];
    return rows.map(toEntry);
  }
}
