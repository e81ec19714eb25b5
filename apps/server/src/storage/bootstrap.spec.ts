import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { digestKey } from '../security/keys';
import { ADMIN_KEY_FILE, bootstrapStorage } from './bootstrap';
import { migrations } from './sqlite/migrations';
import { openSqliteStorage } from './sqlite/open-sqlite';

describe('bootstrapStorage (first start)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-bootstrap-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const start = async (env: Record<string, string> = {}) => {
    const storage = openSqliteStorage(dataDir);
    const lines: string[] = [];
    const logger = createLogger('info');
    const info = jest.spyOn(logger, 'info').mockImplementation(((...args: unknown[]) => {
      lines.push(JSON.stringify(args));
    }) as never);
    await bootstrapStorage(storage, loadConfig({ RELAY_DATA_DIR: dataDir, ...env }), logger);
    info.mockRestore();
    return { storage, lines };
  };

  it('writes a random admin key to admin.key (0600) and logs where, never the key', async () => {
    const { storage, lines } = await start();
    const keyFile = path.join(dataDir, ADMIN_KEY_FILE);
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^sk-admin-[0-9A-Za-z]{40}$/);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toContain(keyFile);
    expect(lines.join('\n')).not.toContain(key);
    expect((await storage.accounts.findByKeyDigest(digestKey(key)))?.role).toBe('admin');
    await storage.close();
  });

  it('keeps the same admin on a second start and does not rewrite the key', async () => {
    const first = await start();
    await first.storage.close();
    const key = fs.readFileSync(path.join(dataDir, ADMIN_KEY_FILE), 'utf8');
    const second = await start();
    expect(fs.readFileSync(path.join(dataDir, ADMIN_KEY_FILE), 'utf8')).toBe(key);
    expect((await second.storage.accounts.findByKeyDigest(digestKey(key.trim())))?.id).toBe(1);
    await second.storage.close();
  });

  it('uses RELAY_ADMIN_KEY when set, also to replace an earlier key', async () => {
    const first = await start({ RELAY_ADMIN_KEY: 'first-admin-key-123456' });
    expect(fs.existsSync(path.join(dataDir, ADMIN_KEY_FILE))).toBe(false);
    await first.storage.close();
    const second = await start({ RELAY_ADMIN_KEY: 'second-admin-key-123456' });
    expect(await second.storage.accounts.findByKeyDigest(digestKey('first-admin-key-123456'))).toBeUndefined();
    expect((await second.storage.accounts.findByKeyDigest(digestKey('second-admin-key-123456')))?.role).toBe('admin');
    await second.storage.close();
  });

  it('creates channels from provider keys in the environment, once', async () => {
    const env = { OPENAI_API_KEY: 'sk-from-env', OPENAI_BASE_URL: 'http://localhost:11434/v1', ANTHROPIC_API_KEY: 'sk-ant-env' };
    const first = await start(env);
    await first.storage.close();
    const second = await start(env);
    const channels = await second.storage.channels.listAll();
    expect(channels).toHaveLength(2);
    expect(channels[0]).toMatchObject({ type: 'openai', baseUrl: 'http://localhost:11434/v1', keys: ['sk-from-env'], models: ['*'] });
    expect(channels[1]).toMatchObject({ type: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', keys: ['sk-ant-env'], models: ['claude-*'] });
    await second.storage.close();
  });

  it('records the schema version it migrated to', async () => {
    const { storage } = await start();
    await storage.close();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(path.join(dataDir, 'relay.db'), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: migrations.at(-1)?.version });
    db.close();
  });
});
