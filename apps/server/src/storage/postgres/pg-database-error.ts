import type pg from 'pg';

let databaseError: typeof pg.DatabaseError | undefined;

/**
 * pg's DatabaseError class, told by pg-pool — the one module that loads pg, and only when
 * DATABASE_URL is set. Until then no error can be one, and the classifiers that ask (store
 * faults, doubts) need not load pg (~1.5 MB of RSS) on SQLite.
 */
export function knowDatabaseError(type: typeof pg.DatabaseError): void {
  databaseError = type;
}

/** True when `error` is an error the PostgreSQL server answered with (it carries a SQLSTATE `code`). */
export function isDatabaseError(error: unknown): error is pg.DatabaseError {
  return databaseError !== undefined && error instanceof databaseError;
}
