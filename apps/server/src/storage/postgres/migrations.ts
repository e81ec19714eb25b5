import type pg from 'pg';
import { quoteSchema, underAdvisoryLock } from './pg-pool';
import { SCHEMA_V1 } from './schema-v1';
import { SCHEMA_V2 } from './schema-v2';
import { SCHEMA_V3 } from './schema-v3';
import { SCHEMA_V4 } from './schema-v4';
import { SCHEMA_V5 } from './schema-v5';
import { SCHEMA_V6 } from './schema-v6';
import { SCHEMA_V7 } from './schema-v7';
import { SCHEMA_V8 } from './schema-v8';
import { SCHEMA_V9 } from './schema-v9';
import { SCHEMA_V10 } from './schema-v10';
import { SCHEMA_V11 } from './schema-v11';
import { SCHEMA_V12 } from './schema-v12';
import { SCHEMA_V13 } from './schema-v13';

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Append only, as SQLite's: a shipped migration never changes; a new version follows it.
 * Version 1 is the schema SQLite reached at its version 8, in PostgreSQL's types; later
 * versions follow SQLite's from 9 on, the same change on both backends.
 */
export const postgresMigrations: readonly PostgresMigration[] = [
  { version: 1, name: 'the schema of SQLite version 8', sql: SCHEMA_V1 },
  { version: 2, name: 'instances sharing the database, an hourly usage rollup, an index for every log filter', sql: SCHEMA_V2 },
  { version: 3, name: 'prices per second of video, per song, per web search query', sql: SCHEMA_V3 },
  { version: 4, name: 'long-running tasks, and the quota reservations they hold', sql: SCHEMA_V4 },
  { version: 5, name: 'the bytes each stored response holds, for the per-account bound', sql: SCHEMA_V5 },
  { version: 6, name: 'what passes through to a channel, its prices, and the upstream objects each account created', sql: SCHEMA_V6 },
  { version: 7, name: 'the model catalogue: overrides, and a refreshed dataset in place of the seed', sql: SCHEMA_V7 },
  { version: 8, name: 'prices carry only the units that apply, free on purpose; the price each log row was charged at', sql: SCHEMA_V8 },
  { version: 9, name: "a cloud channel's region and API version", sql: SCHEMA_V9 },
  { version: 10, name: 'periodic limits on tokens and accounts, the windows they count in', sql: SCHEMA_V10 },
  { version: 11, name: 'fallback rules across models, and the fallback path of each usage row', sql: SCHEMA_V11 },
  { version: 12, name: 'webhooks, their deliveries, and alert marks', sql: SCHEMA_V12 },
  { version: 13, name: 'the usage log indexes only the rows that name an account or an assistant by them', sql: SCHEMA_V13 },
];

/**
 * Brings `schema` up to date, under an advisory lock on the schema's name: instances starting
 * together take turns, and the later ones find the work done. Each migration runs in its own
 * transaction with its `schema_migrations` row. Returns the versions applied.
 */
export async function migratePostgres(pool: pg.Pool, schema: string, migrations: readonly PostgresMigration[] = postgresMigrations): Promise<number[]> {
  return underAdvisoryLock(pool, `chat-relay migrations ${schema}`, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const ran: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`PostgreSQL migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
      }
      ran.push(migration.version);
    }
    return ran;
  });
}
