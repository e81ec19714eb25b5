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
import { CommitInDoubt, commitOutcome, type TransactionDoubt } from './pg-doubt';
import { inTransaction } from './pg-pool';
import { pgKeysetSql, pgListingSql } from './pg-usage-queries';
import { pgSeriesSql } from './pg-usage-series';
import { writeUsage } from './pg-usage-writer';
import { aggregateFromSeries } from '../usage-aggregate';
import { storedUsageEntryOf, type UsageRow } from '../rows/usage-row';

/**
 * The usage log on PostgreSQL. A batch is one transaction of `writeUsage`'s few statements. A
 * batch whose COMMIT went unanswered is remembered by its rows: when they come again (the
 * recorder retries what failed), the server is asked first whether that COMMIT landed, so a row
 * is never written — nor its cost charged — twice. What the server answers is remembered too: a
 * row found written stays known as written, however often the rows it came back with fail.
 */
export class PgUsageLogStore implements UsageLogStore {
  /** A row of a batch whose COMMIT went unanswered: the doubt to ask about, or `written` once the server said it landed. */
  private readonly fate = new WeakMap<UsageLogEntry, TransactionDoubt | 'written'>();

  constructor(private readonly pool: pg.Pool) {}

  async insertBatch(entries: readonly UsageLogEntry[]): Promise<void> {
    const unwritten = await this.withoutCommitted(entries);
    if (unwritten.length === 0) return;
    try {
      await inTransaction(this.pool, (client) => writeUsage(client, unwritten));
    } catch (error) {
      if (error instanceof CommitInDoubt) for (const entry of unwritten) this.fate.set(entry, error.doubt);
      throw error;
    }
  }

  /**
   * `entries` less those an earlier batch did write after all; throws while that cannot be known.
   * Rows found written are marked so, not forgotten: the rows they came back with may fail yet,
   * and the recorder then brings them all back once more (connections reset twice in a row wrote
   * such a batch twice).
   */
  private async withoutCommitted(entries: readonly UsageLogEntry[]): Promise<readonly UsageLogEntry[]> {
    let doubts: Set<TransactionDoubt> | undefined;
    let written = false;
    for (const entry of entries) {
      const fate = this.fate.get(entry);
      if (fate === 'written') written = true;
      else if (fate !== undefined) (doubts ??= new Set()).add(fate);
    }
    if (doubts === undefined && !written) return entries;
    for (const doubt of doubts ?? []) {
      const committed = (await commitOutcome(this.pool, doubt)) === 'committed';
      for (const entry of entries) {
        if (this.fate.get(entry) !== doubt) continue;
        if (committed) this.fate.set(entry, 'written');
        else this.fate.delete(entry);
      }
    }
    return entries.filter((entry) => this.fate.get(entry) !== 'written');
  }

  async recent(limit: number): Promise<StoredUsageLogEntry[]> {
    const { rows } = await this.pool.query<UsageRow>('SELECT * FROM usage_log ORDER BY id DESC LIMIT $1', [limit]);
    return rows.map(storedUsageEntryOf);
  }

  async query(query: UsageLogQuery): Promise<Page<StoredUsageLogEntry>> {
    const listing = pgListingSql(query);
    const total = await this.pool.query<{ n: number }>(listing.count, listing.values);
    const { rows } = await this.pool.query<UsageRow>(listing.rows, listing.pageValues);
    return { rows: rows.map(storedUsageEntryOf), total: total.rows[0]?.n ?? 0 };
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
    return (await this.pool.query<UsageRow>(sql, values)).rows.map(storedUsageEntryOf);
  }

  async purgeBefore(before: string, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM usage_log WHERE id IN (SELECT id FROM usage_log WHERE created_at < $1 ORDER BY created_at, id LIMIT $2)',
      [before, limit],
    );
    return rowCount ?? 0;
  }
}
