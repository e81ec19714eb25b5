import type { Server } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createLogger } from './logger';
import { createServices } from './services';
import { bootstrapStorage } from './storage/bootstrap';
import { openSqliteStorage } from './storage/sqlite/open-sqlite';
import { RELAY_VERSION } from './version';

const LISTEN_BACKLOG = 4096;

/** config → storage → createApp(deps) → listen; and a clean drain on SIGTERM/SIGINT. */
async function main(): Promise<void> {
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
  const storage = openSqliteStorage(config.dataDir);
  await bootstrapStorage(storage, config, logger);
  const services = createServices(storage, logger, { usage: { flushIntervalMs: config.usageFlushMs } });
  const app = createApp({
    storage,
    services,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    maxRetries: config.maxRetries,
    trustProxy: config.trustProxy,
    quotaDefaultCompletionTokens: config.quotaDefaultCompletionTokens,
    version: RELAY_VERSION,
  });

  // A deep accept queue (the kernel caps it at net.core.somaxconn): Node's default of 511 drops
  // connections when thousands of streams open at once, and a dropped SYN costs the caller 1 s.
  const server: Server = app.listen(config.port, config.host, LISTEN_BACKLOG, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port, dataDir: config.dataDir, version: RELAY_VERSION }, `chat-relay listening on http://${config.host}:${port}`);
  });
  // Streams may be quiet for long stretches; idle timeouts belong to the channels.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, draining requests');
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    // Keep-alive sockets become idle as their last response ends: close each as soon as it does.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    server.close(() => {
      clearInterval(sweep);
      void services
        .close()
        .then(() => storage.close())
        .then(() => {
          logger.info('stopped');
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`chat-relay failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
