import type pg from 'pg';
import type { PriceRecord, PriceStore } from '../types';
import { inTransaction } from './pg-pool';
import { columnsOf } from './pg-rows';
import { PG_CODEC } from '../rows/codec';
import { PRICE_COLUMNS as COLUMNS, priceRecordOf, priceValues, type PriceRow } from '../rows/price-row';

/** The price table in PostgreSQL, behaving as SqlitePriceStore does. */
export class PgPriceStore implements PriceStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<PriceRecord[]> {
    const { rows } = await this.pool.query<PriceRow>(`SELECT ${COLUMNS} FROM prices ORDER BY position`);
    return rows.map((row) => priceRecordOf(row, PG_CODEC));
  }

  /**
   * The whole table at once, in one transaction and one INSERT (a column per array, a row per
   * price); positions keep the given order. A duplicate model fails it and leaves the old table.
   */
  async replace(prices: readonly PriceRecord[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM prices');
      if (prices.length === 0) return;
      await client.query(
        `INSERT INTO prices (position, ${COLUMNS})
         SELECT * FROM unnest($1::integer[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
           $8::json[], $9::bigint[], $10::bigint[], $11::bigint[], $12::bigint[], $13::json[], $14::bigint[], $15::bigint[],
           $16::json[], $17::json[], $18::bigint[], $19::boolean[])`,
        columnsOf(prices.map((price, index) => priceValues(price, index + 1, PG_CODEC))),
      );
    });
  }
}
