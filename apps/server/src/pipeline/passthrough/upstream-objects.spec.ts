import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../logger';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite';
import type { Storage } from '../../storage/types';
import { UpstreamObjects } from './upstream-objects';

/** UpstreamObjects on a real SQLite file: an answer under way is waited for, its objects are its account's alone. */
describe('UpstreamObjects', () => {
  let dataDir: string;
  let storage: Storage;
  let objects: UpstreamObjects;
  let mine: number;
  let theirs: number;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-objects-'));
    storage = openSqliteStorage(dataDir);
    objects = new UpstreamObjects(storage.upstreamObjects, createLogger('silent'), { ttlMs: 60_000 });
    mine = (await storage.accounts.createUser('mine')).id;
    theirs = (await storage.accounts.createUser('theirs')).id;
  });
  afterEach(async () => {
    await objects.close();
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a lookup waits for the account's answer under way, then finds what it created; another account's lookup does not", async () => {
    const finish = objects.expect(mine, 1);
    const lookup = objects.owned(mine, 'item', ['msg_1', 'msg_2']);
    let answered = false;
    void lookup.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    await finish([{ kind: 'item', id: 'msg_1' }, { kind: 'container', id: 'cntr_1' }]);
    expect([...(await lookup)]).toEqual(['msg_1']);
    expect([...(await objects.owned(mine, 'container', ['cntr_1']))]).toEqual(['cntr_1']);
    expect([...(await objects.owned(theirs, 'item', ['msg_1']))]).toEqual([]);
  });

  it('finishing twice records once; an empty answer records nothing and releases the waiters', async () => {
    const finish = objects.expect(mine, 1);
    await finish([]);
    await finish([{ kind: 'item', id: 'msg_late' }]);
    expect([...(await objects.owned(mine, 'item', ['msg_late']))]).toEqual([]);
  });

  it('objects expire with the responses that hold them', async () => {
    const short = new UpstreamObjects(storage.upstreamObjects, createLogger('silent'), { ttlMs: 1 });
    await short.expect(mine, 1)([{ kind: 'item', id: 'msg_old' }]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([...(await short.owned(mine, 'item', ['msg_old']))]).toEqual([]);
    await short.purge();
    await short.close();
  });
});
