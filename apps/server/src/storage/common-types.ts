/**
 * What the stores share. Their interfaces are async so that a PostgreSQL backend can implement
 * them as they are; SQLite answers synchronously underneath.
 */

export interface Page<T> {
  rows: T[];
  total: number;
}
export interface PageRequest {
  page: number;
  perPage: number;
}

/** A write refused: another row holds the id (or the unique key) already. */
export class AlreadyExistsError extends Error {}
