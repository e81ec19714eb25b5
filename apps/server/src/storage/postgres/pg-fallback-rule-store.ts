import type pg from 'pg';
import type { FallbackRuleInput, FallbackRuleRecord, FallbackRuleStore } from '../fallback-types';
import { jsonColumn, PG_CODEC } from '../rows/codec';
import { fallbackRuleOf, fallbackRuleValues, type FallbackRuleRow } from '../rows/fallback-rule-row';

/** The fallback rules in PostgreSQL, behaving as SqliteFallbackRuleStore does. */
export class PgFallbackRuleStore implements FallbackRuleStore {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<FallbackRuleRecord[]> {
    const { rows } = await this.pool.query<FallbackRuleRow>('SELECT * FROM fallback_rules ORDER BY id');
    return rows.map((row) => fallbackRuleOf(row, PG_CODEC));
  }

  async get(id: number): Promise<FallbackRuleRecord | null> {
    const { rows } = await this.pool.query<FallbackRuleRow>('SELECT * FROM fallback_rules WHERE id = $1', [id]);
    return rows[0] ? fallbackRuleOf(rows[0], PG_CODEC) : null;
  }

  async create(input: FallbackRuleInput, now: string): Promise<FallbackRuleRecord> {
    const { rows } = await this.pool.query<FallbackRuleRow>(
      'INSERT INTO fallback_rules (model, fallbacks, triggers, enabled, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING *',
      [...fallbackRuleValues(input, PG_CODEC), now],
    );
    return fallbackRuleOf(rows[0] as FallbackRuleRow, PG_CODEC);
  }

  /** One statement: each field the patch leaves out keeps its stored value (COALESCE), so concurrent patches of different fields both hold. */
  async update(id: number, patch: Partial<FallbackRuleInput>, now: string): Promise<FallbackRuleRecord | null> {
    const { rows } = await this.pool.query<FallbackRuleRow>(
      `UPDATE fallback_rules SET model = COALESCE($2, model), fallbacks = COALESCE($3::jsonb, fallbacks),
         triggers = COALESCE($4::jsonb, triggers), enabled = COALESCE($5, enabled), updated_at = $6
       WHERE id = $1 RETURNING *`,
      [id, patch.model ?? null, jsonColumn(patch.fallbacks), jsonColumn(patch.triggers), patch.enabled ?? null, now],
    );
    return rows[0] ? fallbackRuleOf(rows[0], PG_CODEC) : null;
  }

  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM fallback_rules WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
