import type Database from 'better-sqlite3';
import type { PriceRecord, PriceStore } from '../types';

export class SqlitePriceStore implements PriceStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<PriceRecord[]> {
    return this.db
      .prepare('SELECT model, input, output, cache_read AS cacheRead, cache_write AS cacheWrite FROM prices ORDER BY position')
      .all() as PriceRecord[];
  }

  async replace(prices: readonly PriceRecord[]): Promise<void> {
    const insert = this.db.prepare('INSERT INTO prices (position, model, input, output, cache_read, cache_write) VALUES (?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM prices').run();
      prices.forEach((price, index) => insert.run(index + 1, price.model, price.input, price.output, price.cacheRead, price.cacheWrite));
    })();
  }
}
