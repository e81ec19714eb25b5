/** One SQLite schema step: applied once, in version order, and recorded in schema_migrations. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
