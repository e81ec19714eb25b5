import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage, SQLITE_FILE_NAME } from './open-sqlite';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('issue 10 defect 14: file modes', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-modes-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates the data directory 0700 and relay.db, -wal and -shm 0600', async () => {
    const dataDir = path.join(root, 'nested', 'data');
    const storage = openSqliteStorage(dataDir);
    try {
      await storage.accounts.createAdmin('digest');
      expect(modeOf(dataDir)).toBe(0o700);
      for (const suffix of ['', '-wal', '-shm']) {
        expect({ file: `${SQLITE_FILE_NAME}${suffix}`, mode: modeOf(path.join(dataDir, `${SQLITE_FILE_NAME}${suffix}`)) }).toEqual({
          file: `${SQLITE_FILE_NAME}${suffix}`,
          mode: 0o600,
        });
      }
    } finally {
      await storage.close();
    }
  });

  it('tightens a database left readable by an older version to 0600', async () => {
    const first = openSqliteStorage(root);
    await first.accounts.createAdmin('digest');
    await first.close();
    for (const name of fs.readdirSync(root)) fs.chmodSync(path.join(root, name), 0o644);

    const again = openSqliteStorage(root);
    try {
      for (const name of fs.readdirSync(root).filter((file) => file.startsWith(SQLITE_FILE_NAME))) {
        expect({ name, mode: modeOf(path.join(root, name)) }).toEqual({ name, mode: 0o600 });
      }
      expect(await again.accounts.findAdmin()).toBeDefined();
    } finally {
      await again.close();
    }
  });
});
