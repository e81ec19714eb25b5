import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../config';
import { createLogger } from '../../logger';
import { digestKey } from '../../security/keys';
import { bootstrapStorage } from '../bootstrap';
import { dropSchema, TEST_DATABASE_URL, TEST_SECRETS, uniqueSchemaName } from '../../../test/storage/testing/store-backends';
import type { Storage } from '../types';
import { openPostgresStorage } from './open-postgres';

if (!TEST_DATABASE_URL) {
  process.stderr.write('PostgreSQL bootstrap specs skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
}
const describePostgres = TEST_DATABASE_URL ? describe : describe.skip;

// Seen in the two-instance specs on a loaded machine: both instances found no admin, both
// inserted one, and the second died on the unique key of the access-key digest.
describePostgres('first start of several instances on one new PostgreSQL schema', () => {
  const url = TEST_DATABASE_URL ?? '';
  let schema: string;
  let dataDir: string;
  const opened: Storage[] = [];
  beforeEach(() => {
    schema = uniqueSchemaName('boot');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-boot-'));
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
    await dropSchema(url, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates one admin and one set of environment channels when four instances bootstrap at once', async () => {
    const adminKey = 'sk-admin-started-together-0123456789';
    const config = loadConfig({ RELAY_DATA_DIR: dataDir, RELAY_ADMIN_KEY: adminKey, OPENAI_API_KEY: 'sk-upstream-key' });
    const logger = createLogger('silent');
    const instances = await Promise.all([0, 1, 2, 3].map(() => openPostgresStorage({ url, schema, maxConnections: 3 }, { secrets: TEST_SECRETS })));
    opened.push(...instances);

    await Promise.all(instances.map((storage) => bootstrapStorage(storage, config, logger)));

    const admin = await instances[0]!.accounts.findByKeyDigest(digestKey(adminKey));
    expect(admin?.role).toBe('admin');
    const { total: accounts } = await instances[0]!.accounts.list({ page: 1, perPage: 10 });
    expect(accounts).toBe(1);
    expect(await instances[0]!.channels.count()).toBe(1);
  });
});
