import type Database from 'better-sqlite3';
import type { FallbackRuleInput, FallbackRuleRecord, FallbackRuleStore } from '../fallback-types';
import { SQLITE_CODEC } from '../rows/codec';
import { fallbackRuleOf, fallbackRuleValues, type FallbackRuleRow } from '../rows/fallback-rule-row';

export class SqliteFallbackRuleStore implements FallbackRuleStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<FallbackRuleRecord[]> {
    const rows = this.db.prepare('SELECT * FROM fallback_rules ORDER BY id').all() as FallbackRuleRow[];
    return rows.map((row) => fallbackRuleOf(row, SQLITE_CODEC));
  }

  async get(id: number): Promise<FallbackRuleRecord | null> {
    const row = this.db.prepare('SELECT * FROM fallback_rules WHERE id = ?').get(id) as FallbackRuleRow | undefined;
    return row ? fallbackRuleOf(row, SQLITE_CODEC) : null;
  }

  async create(input: FallbackRuleInput, now: string): Promise<FallbackRuleRecord> {
    const row = this.db
      .prepare('INSERT INTO fallback_rules (model, fallbacks, triggers, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *')
      .get(...fallbackRuleValues(input, SQLITE_CODEC), now, now) as FallbackRuleRow;
    return fallbackRuleOf(row, SQLITE_CODEC);
  }

  async update(id: number, patch: Partial<FallbackRuleInput>, now: string): Promise<FallbackRuleRecord | null> {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM fallback_rules WHERE id = ?').get(id) as FallbackRuleRow | undefined;
      if (!row) return null;
      const merged = { ...fallbackRuleOf(row, SQLITE_CODEC), ...patch };
      const updated = this.db
        .prepare('UPDATE fallback_rules SET model = ?, fallbacks = ?, triggers = ?, enabled = ?, updated_at = ? WHERE id = ? RETURNING *')
        .get(...fallbackRuleValues(merged, SQLITE_CODEC), now, id) as FallbackRuleRow;
      return fallbackRuleOf(updated, SQLITE_CODEC);
    })();
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM fallback_rules WHERE id = ?').run(id).changes > 0;
  }
}
