import { isDatabaseError } from './postgres/pg-database-error';
import { CommitInDoubt, connectionFailed } from './postgres/pg-doubt';
import type { Storage } from './types';

/**
 * The database could not answer — connection refused, lost or silent, a timeout, the server
 * shutting down or read-only, the disk full or busy — as opposed to a statement or request that
 * is wrong. Raised by every store (see `guardStores`); callers get 503 `store_unavailable`.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the database does not answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * PostgreSQL SQLSTATE classes and codes of a database that cannot serve now: connection
 * exception, insufficient resources (disk, memory, connections), operator intervention
 * (statement timeout, shutdown), system error; serialization failure and deadlock (the
 * transaction was rolled back); lock timeout; a read-only server (a standby after a failover).
 */
const PG_UNAVAILABLE_CLASSES = ['08', '53', '57', '58'];
const PG_UNAVAILABLE_CODES = new Set(['40001', '40P01', '55P03', '25006']);

/** pg-pool's own errors: no connection within connectionTimeoutMillis; the pool closed at shutdown. */
const PG_POOL_UNAVAILABLE = /^(timeout exceeded when trying to connect|Cannot use a pool after calling end)/;

/** SQLite result codes (and their extended forms) of a file that cannot serve now. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|NOMEM|PROTOCOL|CORRUPT|NOTADB)/;

/** The one classifier of store failures, for both backends. */
export function isStoreFault(error: unknown): boolean {
  if (error instanceof StoreUnavailableError || error instanceof CommitInDoubt) return true;
  const sqliteCode = sqliteCodeOf(error);
  if (sqliteCode !== undefined) return SQLITE_UNAVAILABLE.test(sqliteCode);
  if (isDatabaseError(error)) {
    const code = error.code ?? '';
    return PG_UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || PG_UNAVAILABLE_CODES.has(code);
  }
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && PG_POOL_UNAVAILABLE.test(message)) return true;
  return connectionFailed(error);
}

/**
 * The result code of a better-sqlite3 error, read by shape: the native addon keeps the error class
 * of the first copy of the module loaded in the process (a test runner loads several).
 */
function sqliteCodeOf(error: unknown): string | undefined {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === 'SqliteError' && typeof code === 'string' ? code : undefined;
}

/** `error` as callers should see it: a StoreUnavailableError when the store could not answer, else itself. */
export function asStoreFault(error: unknown): unknown {
  return !(error instanceof StoreUnavailableError) && isStoreFault(error) ? new StoreUnavailableError(error) : error;
}

type StoreName = Exclude<keyof Storage, 'kind' | 'ping' | 'exclusive' | 'close'>;
/** Every store, by a record over the type: a store added to Storage and not here does not compile. */
const GUARDED: Record<StoreName, true> = {
  accounts: true,
  tokens: true,
  channels: true,
  assistants: true,
  quota: true,
  prices: true,
  usageLog: true,
  responses: true,
  upstreamObjects: true,
  tasks: true,
  catalogue: true,
  webhooks: true,
};
const STORE_NAMES = Object.keys(GUARDED) as StoreName[];

/**
 * `storage` whose every store method raises StoreUnavailableError for a store fault (and any
 * other error as it was): what the stores throw is classified here, once, for every caller.
 */
export function guardStores(storage: Storage): Storage {
  const guarded: Storage = { ...storage };
  for (const name of STORE_NAMES) Object.assign(guarded, { [name]: guardMethods(storage[name]) });
  return guarded;
}

/** An object reading through to `store`, whose methods (own and inherited) classify what they throw. */
function guardMethods<T extends object>(store: T): T {
  const guarded = Object.create(store) as Record<string, unknown>;
  for (const name of methodNames(store)) {
    const method = (store as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
    guarded[name] = (...args: unknown[]) => {
      try {
        const result = method.apply(store, args);
        return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(asStoreFault(error))) : result;
      } catch (error) {
        throw asStoreFault(error);
      }
    };
  }
  return guarded as T;
}

function methodNames(store: object): Set<string> {
  const names = new Set<string>();
  for (let layer: object | null = store; layer && layer !== Object.prototype; layer = Object.getPrototypeOf(layer) as object | null) {
    for (const name of Object.getOwnPropertyNames(layer)) {
      if (name !== 'constructor' && typeof (store as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return names;
}
