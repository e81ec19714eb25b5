import type pg from 'pg';
import type {
  Page,
  StoredUsageLogEntry,
  UsageSeriesBucket,
  UsageLogCursor,
  UsageLogEntry,
  UsageLogFilter,
  UsageLogQuery,
  UsageLogStore,
  UsageSeriesFilter,
  UsageSeriesGroup,
  UsageSeriesPoint,
  UsageTotals,
} from '../types';
import { inTransaction } from './pg-pool';
import { pgKeysetSql, pgListingSql } from './pg-usage-queries';
import { pgSeriesSql } from './pg-usage-series';
import { writeUsage } from './pg-usage-writer';
import { aggregateFromSeries } from '../usage-aggregate';
import { usageEntryOf, type UsageRow } from '../usage-row';

/** The usage log on PostgreSQL. A batch is one transaction of `writeUsage`'s few statements. */
export class PgUsageLogStore implements UsageLogStore {
  constructor(private readonly pool: pg.Pool) {}

  async insertBatch(entries: readonly UsageLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await inTransaction(this.pool, (client) => writeUsage(client, entries));
  }

  async recent(limit: number): Promise<StoredUsageLogEntry[]> {
    const { rows } = await this.pool.query<UsageRow>('SELECT * FROM usage_log ORDER BY id DESC LIMIT $1', [limit]);
    return rows.map(usageEntryOf);
  }

  async query(query: UsageLogQuery): Promise<Page<StoredUsageLogEntry>> {
    const listing = pgListingSql(query);
    const total = await this.pool.query<{ n: number }>(listing.count, listing.values);
    const { rows } = await this.pool.query<UsageRow>(listing.rows, listing.pageValues);
    return { rows: rows.map(usageEntryOf), total: total.rows[0]?.n ?? 0 };
  }

  aggregate(
    scope: { tokenId?: number; accountId?: number },
    from: string,
    to: string,
    groupBy: 'day' | 'model',
  ): Promise<Array<UsageTotals & { key: string }>> {
    return aggregateFromSeries(this, scope, from, to, groupBy);
  }

  async series(
    filter: UsageSeriesFilter,
    from: string,
    to: string,
    bucket: UsageSeriesBucket,
    groupBy: UsageSeriesGroup,
  ): Promise<UsageSeriesPoint[]> {
    const { sql, values } = pgSeriesSql(filter, from, to, bucket, groupBy);
    return (await this.pool.query<UsageSeriesPoint>(sql, values)).rows;
  }

  async keysetPage(filter: UsageLogFilter, after: UsageLogCursor | null, limit: number): Promise<StoredUsageLogEntry[]> {
    const { sql, values } = pgKeysetSql(filter, after, limit);
    return (await this.pool.query<UsageRow>(sql, values)).rows.map(usageEntryOf);
  }

  async purgeBefore(before: string, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM usage_log WHERE id IN (SELECT id FROM usage_log WHERE created_at < $1 ORDER BY created_at, id LIMIT $2)',
      [before, limit],
    );
    return rowCount ?? 0;
  }
}
