// The usage writer thread (its own bundle, dist/apps/server/usage-writer.worker.js): stores the
// batches the relay's UsageRecorder sends, so that SQLite inserts, fsyncs and index updates never
// run on the event loop that relays requests.
import { parentPort, workerData } from 'node:worker_threads';
import type { UsageLogEntry } from '../types';
import { openSqliteUsageWriter } from './open-sqlite-usage-writer';
import { isCloseRequest, isWriteRequest, type WriteReply } from './usage-writer-protocol';

const port = parentPort;
if (!port || typeof workerData?.dataDir !== 'string') throw new Error('usage writer: start me as a worker with workerData.dataDir');
const writer = openSqliteUsageWriter(workerData.dataDir as string);

port.on('message', (message: unknown) => {
  if (isCloseRequest(message)) {
    void writer.close().finally(() => port.close());
    return;
  }
  if (!isWriteRequest(message)) return;
  const reply = (outcome: WriteReply) => port.postMessage(outcome);
  writer.write(message.batch as UsageLogEntry[]).then(
    () => reply({ id: message.id }),
    (error: unknown) => reply({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
