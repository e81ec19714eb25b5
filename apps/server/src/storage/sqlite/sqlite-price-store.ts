import type Database from 'better-sqlite3';
import type { PriceRecord, PriceStore } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import { PRICE_COLUMNS, priceRecordOf, priceValues, type PriceRow } from '../rows/price-row';

export class SqlitePriceStore implements PriceStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<PriceRecord[]> {
    const rows = this.db.prepare(`SELECT ${PRICE_COLUMNS} FROM prices ORDER BY position`).all() as PriceRow[];
    return rows.map((row) => priceRecordOf(row, SQLITE_CODEC));
  }

  async replace(prices: readonly PriceRecord[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO prices (position, ${PRICE_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM prices').run();
      prices.forEach((price, index) => insert.run(...priceValues(price, index + 1, SQLITE_CODEC)));
    })();
  }
}
