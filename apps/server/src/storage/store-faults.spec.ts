import pg from 'pg';
import { guardStores, isStoreFault, StoreUnavailableError } from './store-faults';
import { outcomeUnknown } from './postgres/pg-doubt';
import { createPgPool } from './postgres/pg-pool';
import { storeBackends, type StoreBackend } from '../../test/storage/testing/store-backends';
import type { Storage } from './types';

/** SQLite, always among the backends. */
function sqlite(): StoreBackend {
  const backend = storeBackends().find((candidate) => candidate.name === 'SQLite');
  if (!backend) throw new Error('SQLite is always among the store backends');
  return backend;
}

/** What better-sqlite3 throws when another connection holds the lock past busy_timeout. */
function busy(): Error {
  return Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' });
}

describe('guardStores', () => {
  it('classifies the faults of every store a real storage opens (upstream objects were once left out)', async () => {
    const opened = await sqlite().open();
    try {
      const names = Object.keys(opened.storage).filter((name) => typeof (opened.storage as unknown as Record<string, unknown>)[name] === 'object');
      expect(names).toContain('upstreamObjects');
      // Each store replaced by one whose method fails as a locked SQLite file does.
      const failing = { ...opened.storage } as unknown as Record<string, unknown>;
      for (const name of names) failing[name] = { probe: () => Promise.reject(busy()) };
      const guarded = guardStores(failing as unknown as Storage) as unknown as Record<string, { probe(): Promise<void> }>;
      for (const name of names) {
        await expect(guarded[name]?.probe()).rejects.toBeInstanceOf(StoreUnavailableError);
      }
    } finally {
      await opened.close();
    }
  });

  it('leaves a caller’s own errors as they are', async () => {
    const mistake = new TypeError('not a store fault');
    const opened = await sqlite().open();
    try {
      const failing = { ...opened.storage, tokens: { probe: () => Promise.reject(mistake) } } as unknown as Storage;
      const guarded = guardStores(failing).tokens as unknown as { probe(): Promise<void> };
      await expect(guarded.probe()).rejects.toBe(mistake);
    } finally {
      await opened.close();
    }
  });

  it('recognises the PostgreSQL server’s errors once a pool is made (pg itself is loaded only then)', async () => {
    // What the server answers when it shuts down, and a statement's own error.
    const shutdown = Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), { code: '57P01' });
    const duplicate = Object.assign(new pg.DatabaseError('duplicate key value', 0, 'error'), { code: '23505' });
    // A pool connects on its first query only: none is made here.
    await createPgPool({ url: 'postgres://127.0.0.1:1/none', schema: 'none' }).end();
    expect(isStoreFault(shutdown)).toBe(true);
    expect(outcomeUnknown(shutdown)).toBe(true);
    expect(isStoreFault(duplicate)).toBe(false);
    expect(outcomeUnknown(duplicate)).toBe(false);
  });
});
