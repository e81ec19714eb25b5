// First: its module holds the young generation small while the others are evaluated.
import { releaseYoungGeneration } from './core/start-heap';
// Second: zod's schemas are made lean from here on, before any module of the bundle makes one.
import './core/lean-zod';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createApp } from './app';
import { openCluster } from './cluster/open-cluster';
import { ConfigError, loadConfig } from './config';
import { limitHeapGrowth } from './core/heap-growth';
import { gracefulShutdown } from './graceful-shutdown';
import { createHttpServer } from './http-server';
import { ResponsesWebSockets } from './dialects/responses/websocket/responses-websockets';
import { createLogger, type Logger } from './logger';
import { startProcessMetrics } from './metrics/process-metrics';
import { createServices } from './services';
import { taskEngineOptions } from './tasks/task-engine';
import { bootstrapStorage } from './storage/bootstrap';
import { openStorage } from './storage/open-storage';
import { RELAY_VERSION } from './version';

const LISTEN_BACKLOG = 4096;
/** After the grace: time for open streams' ends, their rows, and storage to close. */
const SHUTDOWN_OVERRUN_MS = 30_000;

/** config → storage → createApp(deps) → listen; and a clean drain on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  // CPU, event-loop lag and GC are measured from here, not from the first scrape.
  startProcessMetrics();
  limitHeapGrowth();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  keepRunningOnRejections(logger);
  // This start's name among the instances sharing the database: its reservations and heartbeats.
  const instanceId = randomUUID();
  const cluster = await openCluster(config, instanceId, logger);
  const storage = await openStorage(config, logger, { instanceId, changes: cluster.changes });
  await bootstrapStorage(storage, config, logger);
  const services = createServices(storage, logger, {
    usage: { flushIntervalMs: config.usageFlushMs, maxBacklog: config.usageBacklogMax },
    responses: config.responses,
    cluster,
    storageJobs: { logRetentionDays: config.logRetentionDays },
    channelChecks: { intervalMs: config.channelCheckMs },
    tasks: taskEngineOptions(config.tasks),
    affinityTtlMs: config.affinityTtlMs,
    alerts: config.alerts,
  });
  const app = createApp({
    storage,
    services,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    maxUploadBytes: config.maxUploadBytes,
    maxRetries: config.maxRetries,
    toolLimits: config.toolLimits,
    webSearchMaxCalls: config.webSearchMaxCalls,
    trustProxy: config.trustProxy,
    cors: config.cors,
    quotaDefaultCompletionTokens: config.quotaDefaultCompletionTokens,
    quotaOutputReservationTokens: config.quotaOutputReservationTokens,
    unpricedModels: config.unpricedModels,
    limitsTimeZone: config.limitsTimeZone,
    // Built beside the server's bundle: dist/apps/server/main.js → dist/apps/console.
    consoleDir: path.join(__dirname, '../console'),
    metricsToken: config.metricsToken,
    version: RELAY_VERSION,
  });

  const webSockets = new ResponsesWebSockets({ ...config.responsesWebSocket, maxFrameBytes: config.maxBodyBytes, logger });
  const server = createHttpServer(app, { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs, webSockets });
  // A deep accept queue (the kernel caps it at net.core.somaxconn): Node's default of 511 drops
  // connections when thousands of streams open at once, and a dropped SYN costs the caller 1 s.
  server.listen(config.port, config.host, LISTEN_BACKLOG, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info(
      { host: config.host, port, storage: storage.kind, shared: cluster.kind, instanceId, dataDir: config.dataDir, version: RELAY_VERSION },
      `chat-relay listening on http://${config.host}:${port}`,
    );
    releaseYoungGeneration();
  });

  const shutdown = gracefulShutdown({ server, services, storage, logger, graceMs: config.shutdownGraceMs, webSockets });
  const stop = (signal: string) => {
    // The last word: an upstream call that never lets go must not keep the process alive.
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + SHUTDOWN_OVERRUN_MS).unref();
    void shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * A rejected promise nobody handled is one request's bookkeeping gone wrong (usage estimation,
 * a late write), not a corrupt process: log it and keep serving everyone else's streams. Only
 * where it happened is logged — the message may quote request or upstream text. A synchronous
 * throw that escaped (`uncaughtException`) stays fatal: the state after it is unknown.
 */
function keepRunningOnRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason: unknown) => {
    const error = reason instanceof Error ? reason : undefined;
    logger.error(
      {
        name: error?.name ?? typeof reason,
        code: (reason as { code?: unknown } | null)?.code,
        where: error?.stack?.split('\n').slice(1, 6).map((line) => line.trim()),
      },
      'unhandled promise rejection; the process keeps running',
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`chat-relay failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
