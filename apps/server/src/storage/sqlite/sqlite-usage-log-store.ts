import type Database from 'better-sqlite3';
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
import { aggregateFromSeries } from '../usage-aggregate';
import { storedUsageEntryOf, type UsageRow } from '../rows/usage-row';
import { sqliteKeysetSql, sqliteListingSql } from './sqlite-usage-queries';
import { sqliteSeriesSql } from './sqlite-usage-series';
import { SqliteUsageWriter } from './sqlite-usage-writer';

export class SqliteUsageLogStore implements UsageLogStore {
  private readonly writer: SqliteUsageWriter;
  private readonly purge: Database.Statement<[string, number]>;

  constructor(private readonly db: Database.Database) {
    this.writer = new SqliteUsageWriter(db);
    this.purge = db.prepare(
      'DELETE FROM usage_log WHERE id IN (SELECT id FROM usage_log WHERE created_at < ? ORDER BY created_at, id LIMIT ?)',
    );
  }

  async insertBatch(entries: readonly UsageLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    this.db.transaction(() => this.writer.write(entries))();
  }

  async recent(limit: number): Promise<StoredUsageLogEntry[]> {
    const rows = this.db.prepare('SELECT * FROM usage_log ORDER BY id DESC LIMIT ?').all(limit) as UsageRow[];
    return rows.map(storedUsageEntryOf);
  }

  async query(query: UsageLogQuery): Promise<Page<StoredUsageLogEntry>> {
    const listing = sqliteListingSql(query);
    const total = (this.db.prepare(listing.count).get(listing.params) as { n: number }).n;
    const rows = this.db.prepare(listing.rows).all(listing.params) as UsageRow[];
    return { rows: rows.map(storedUsageEntryOf), total };
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
    const { sql, params } = sqliteSeriesSql(filter, from, to, bucket, groupBy);
    return this.db.prepare(sql).all(params) as UsageSeriesPoint[];
  }

  async keysetPage(filter: UsageLogFilter, after: UsageLogCursor | null, limit: number): Promise<StoredUsageLogEntry[]> {
    const { sql, params } = sqliteKeysetSql(filter, after, limit);
    return (this.db.prepare(sql).all(params) as UsageRow[]).map(storedUsageEntryOf);
  }

  async purgeBefore(before: string, limit: number): Promise<number> {
    return this.purge.run(before, limit).changes;
  }
}
