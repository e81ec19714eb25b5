import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../storage/sqlite/open-sqlite';
import { dropSchema, TEST_DATABASE_URL, uniqueSchemaName } from '../../test/storage/testing/store-backends';
import { parseCopyArgs, redactUrl, runCopyCli, USAGE } from './copy-to-postgres-cli';

jest.setTimeout(60_000);

const WORKSPACE_ROOT = path.resolve(__dirname, '../../../..');

describe('copy-to-postgres options', () => {
  it('takes --name value and --name=value, the schema public unless given', () => {
    expect(parseCopyArgs(['--from', './data/relay.db', '--to', 'postgres://relay:pw@db:5432/relay', '--schema', 'relay'])).toEqual({
      kind: 'copy',
      args: { from: './data/relay.db', to: 'postgres://relay:pw@db:5432/relay', schema: 'relay' },
    });
    expect(parseCopyArgs(['--to=postgresql://db/relay', '--from=relay.db'])).toEqual({
      kind: 'copy',
      args: { from: 'relay.db', to: 'postgresql://db/relay', schema: 'public' },
    });
    expect(parseCopyArgs(['--from', 'x.db', '--help'])).toEqual({ kind: 'help' });
    expect(parseCopyArgs(['--from', 'a.db', '--to', 'postgres://db/x', '--secret-key-file', '/run/secrets/relay'])).toEqual({
      kind: 'copy',
      args: { from: 'a.db', to: 'postgres://db/x', schema: 'public', 'secret-key-file': '/run/secrets/relay' },
    });
  });

  it.each([
    [[], '--from <file> is required; --to <postgres url> is required'],
    [['--from', 'a.db'], '--to <postgres url> is required'],
    [['--from', 'a.db', '--to', 'mysql://root:hunter2@db/x'], '--to must be a PostgreSQL URL such as postgres://relay:secret@db.internal:5432/relay'],
    [['--from', 'a.db', '--to', 'postgres://db/x', '--schema', 'Relay-1'], '--schema must be a plain lower-case schema name such as public or relay'],
    [['--from', 'a.db', '--to', 'postgres://db/x', '--verbose'], 'unknown option --verbose'],
    [['--from', 'a.db', '--from', 'b.db'], '--from given twice'],
    [['--from', '--to', 'postgres://db/x'], '--from needs a value'],
    [['--from', 'a.db', '--to'], '--to needs a value'],
    [['relay.db'], 'unexpected argument "relay.db"'],
    [['--from', 'a.db', '--to', 'postgres://db/x', '--secret-key-file'], '--secret-key-file needs a value'],
  ])('refuses %j: %s', (argv, message) => {
    expect(parseCopyArgs(argv)).toEqual({ kind: 'invalid', message });
  });

  it('prints a URL without its password', () => {
    expect(redactUrl('postgres://relay:s3cr%40t@db.internal:5432/relay')).toBe('postgres://relay:***@db.internal:5432/relay');
    expect(redactUrl('postgres://db.internal/relay')).toBe('postgres://db.internal/relay');
  });

  it('answers bad usage with exit code 2 and the usage, --help with 0', async () => {
    const out = { stdout: '', stderr: '' };
    const io = { stdout: (text: string) => (out.stdout += text), stderr: (text: string) => (out.stderr += text) };
    expect(await runCopyCli(['--from', 'a.db', '--to', 'mysql://root:hunter2@db/x'], io)).toBe(2);
    expect(out.stderr).toContain('copy-to-postgres: --to must be a PostgreSQL URL');
    expect(out.stderr).toContain(USAGE);
    expect(out.stderr).not.toContain('hunter2');
    expect(out.stdout).toBe('');
    expect(await runCopyCli(['--help'], io)).toBe(0);
    expect(out.stdout).toBe(`${USAGE}\n`);
  });
});

describe('the built copy-to-postgres.js', () => {
  let bundleDir: string;
  let dataDir: string;
  let bundle: string;
  const run = (args: string[]) => {
    const done = spawnSync(process.execPath, [bundle, ...args], { cwd: WORKSPACE_ROOT, encoding: 'utf8', timeout: 30_000 });
    return { code: done.status, stdout: done.stdout, stderr: done.stderr };
  };

  beforeAll(() => {
    // Built as `npm run build` builds it (the same script), into the workspace's ignored tmp/.
    fs.mkdirSync(path.join(WORKSPACE_ROOT, 'tmp'), { recursive: true });
    bundleDir = fs.mkdtempSync(path.join(WORKSPACE_ROOT, 'tmp', 'copy-bundle-'));
    bundle = path.join(bundleDir, 'copy-to-postgres.js');
    execFileSync(process.execPath, ['tools/scripts/build-node-bundle.mjs', 'apps/server/src/tools/copy-to-postgres.ts', bundle], { cwd: WORKSPACE_ROOT, stdio: 'pipe' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-copy-cli-'));
  });
  afterAll(() => {
    fs.rmSync(bundleDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits 2 on bad usage and 1 on a failed copy, never printing the password', () => {
    const bad = run(['--from', 'relay.db']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('--to <postgres url> is required');
    const missing = run(['--from', path.join(dataDir, 'missing.db'), '--to', 'postgres://relay:pa55word@127.0.0.1:1/relay']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('refused');
    expect(missing.stderr).toContain('no such file');
    expect(missing.stderr).toContain('postgres://relay:***@127.0.0.1:1/relay');
    expect(missing.stderr).not.toContain('pa55word');
  });

  (TEST_DATABASE_URL ? it : it.skip)('copies a relay database and prints what it copied (PostgreSQL)', async () => {
    const storage = openSqliteStorage(dataDir);
    const account = await storage.accounts.createUser('copied by the CLI');
    await storage.tokens.create({ accountId: account.id, name: 't', keyDigest: 'digest-cli', keyHint: '...cli1' });
    await storage.close();
    const schema = uniqueSchemaName('copycli');
    // A password the server (trust authentication) never asks for: only its absence from the output is tested.
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.password = 'cli-secret-77';
    try {
      const done = run(['--from', path.join(dataDir, SQLITE_FILE_NAME), '--to', url.toString(), `--schema=${schema}`]);
      expect(done.code).toBe(0);
      expect(done.stdout).toContain(`schema ${schema}:`);
      expect(done.stdout).toMatch(/ accounts +1 rows\n/);
      expect(done.stdout).toMatch(/ tokens +1 rows\n/);
      expect(done.stdout).toMatch(/ usage_log +0 rows\n/);
      expect(done.stdout).toContain(`Start the instances with DATABASE_URL and DATABASE_SCHEMA=${schema}.`);
      expect(done.stdout).toContain(`Give every instance the secret the channel keys are sealed with (${path.join(dataDir, 'secret.key')}) as RELAY_SECRET_KEY.`);
      expect(done.stdout + done.stderr).not.toContain('cli-secret-77');
      // A second run finds the data there and refuses, changing nothing.
      const again = run(['--from', path.join(dataDir, SQLITE_FILE_NAME), '--to', url.toString(), `--schema=${schema}`]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('refused: the target schema already holds data: accounts (1), tokens (1)');
    } finally {
      await dropSchema(TEST_DATABASE_URL ?? '', schema);
    }
  });
});

if (!TEST_DATABASE_URL) process.stderr.write('copy-to-postgres CLI copy skipped: DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)\n');
