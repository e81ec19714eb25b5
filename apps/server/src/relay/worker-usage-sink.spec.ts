import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../logger';
import { openSqliteStorage } from '../storage/sqlite/open-sqlite';
import type { Storage, UsageLogEntry } from '../storage/types';
import { storeUsageSink } from '../storage/usage-sink';
import { UsageRecorder } from './usage-recorder';
import { WorkerUsageSink } from './worker-usage-sink';

const root = path.resolve(__dirname, '../../../..');
// Inside the workspace (tmp/ is ignored by git), so the bundle finds node_modules as dist/ does.
fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
const scratch = fs.mkdtempSync(path.join(root, 'tmp', 'usage-worker-'));
/** The writer thread as `npm start` runs it: bundled by the same script as the server build. */
const workerFile = path.join(scratch, 'usage-writer.worker.js');
/** A thread that dies on its first batch. */
const crashingWorker = path.join(scratch, 'crashing.worker.js');

beforeAll(() => {
  execFileSync(process.execPath, [
    path.join(root, 'tools/scripts/build-node-bundle.mjs'),
    'apps/server/src/storage/sqlite/usage-writer.worker.ts',
    workerFile,
  ], { cwd: root, stdio: 'ignore' });
  fs.writeFileSync(crashingWorker, "require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });\n");
}, 30_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('WorkerUsageSink', () => {
  const logger = createLogger('silent');
  let dataDir: string;
  let storage: Storage;
  let tokenId: number;
  let accountId: number;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-usage-data-'));
    storage = openSqliteStorage(dataDir);
    accountId = (await storage.accounts.createUser('alice')).id;
    tokenId = (await storage.tokens.create({ accountId, name: 't', keyDigest: 'd', keyHint: 'h' })).id;
  });

  afterEach(async () => {
    await storage.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const entry = (requestId: string, cost = 10): UsageLogEntry => ({
    createdAt: new Date().toISOString(),
    requestId,
    tokenId,
    accountId,
    requestedModel: 'gpt-4o',
    upstreamModel: 'gpt-4o',
    channelId: null,
    assistantId: null,
    stream: false,
    status: 200,
    errorCode: null,
    promptTokens: 3,
    completionTokens: 4,
    usageEstimated: false,
    cost,
    quotaReserved: 0,
    latencyMs: 1,
    ttfbMs: 1,
    clientIp: '127.0.0.1',
    attempts: 1,
  });
  const fallback = () => storeUsageSink(storage.usageLog, storage.tokens);
  const storedIds = async () => (await storage.usageLog.recent(100)).map((row) => row.requestId).sort();

  it('stores batches from its own thread: rows, settled quota and last use, seen by the relay at once', async () => {
    const sink = new WorkerUsageSink(workerFile, dataDir, fallback(), logger);
    await sink.write([entry('a'), entry('b')]);
    await sink.write([entry('c', 5)]);
    expect(await storedIds()).toEqual(['a', 'b', 'c']);
    const token = await storage.tokens.get(tokenId);
    expect(token?.quotaUsed).toBe(25);
    expect(token?.lastUsedAt).not.toBeNull();
    expect((await storage.accounts.get(accountId))?.quotaUsed).toBe(25);
    await sink.close();
  });

  it('writes in this thread when the writer cannot start', async () => {
    const sink = new WorkerUsageSink(path.join(scratch, 'missing.js'), dataDir, fallback(), logger);
    await sink.write([entry('a')]).catch(() => undefined);
    await sink.write([entry('b')]);
    expect(await storedIds()).toEqual(expect.arrayContaining(['b']));
    await sink.close();
  });

  it('loses nothing when the thread dies: the recorder keeps the batch and the fallback writes it once', async () => {
    const sink = new WorkerUsageSink(crashingWorker, dataDir, fallback(), logger);
    const recorder = new UsageRecorder(sink, logger, { flushIntervalMs: 10 });
    recorder.record(entry('a'));
    recorder.record(entry('b'));
    await recorder.flush();
    recorder.record(entry('c'));
    await recorder.close();
    expect(await storedIds()).toEqual(['a', 'b', 'c']);
  });

  it('ends the thread on close, after the last batch is stored', async () => {
    const sink = new WorkerUsageSink(workerFile, dataDir, fallback(), logger);
    const written = sink.write([entry('last')]);
    await written;
    await sink.close();
    expect(await storedIds()).toEqual(['last']);
  });
});
