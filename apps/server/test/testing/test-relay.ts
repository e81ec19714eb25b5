import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createHttpServer, type HttpServerOptions } from '../../src/http-server';
import { ResponsesWebSockets } from '../../src/dialects/responses/websocket/responses-websockets';
import { createLogger, type Logger } from '../../src/logger';
import type { Cluster } from '../../src/cluster/cluster';
import type { CircuitOptions } from '../../src/channels/channel-health';
import { createServices, type RelayServices } from '../../src/services';
import { taskEngineOptions } from '../../src/tasks/task-engine';
import { bootstrapStorage } from '../../src/storage/bootstrap';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite';
import { storeBackends, type StoreBackend } from '../storage/testing/store-backends';
import type { Storage } from '../../src/storage/types';
import type { Express } from 'express';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

export interface TestRelay {
  app: Express;
  storage: Storage;
  services: RelayServices;
  dataDir: string;
  adminKey: string;
  close(): Promise<void>;
}

export interface TestRelayOptions {
  maxBodyBytes?: number;
  maxUploadBytes?: number;
  maxRetries?: number;
  /** A built console to serve at /console. */
  consoleDir?: string;
  /** Express `trust proxy`, e.g. `'loopback'`; defaults to RELAY_TRUST_PROXY from `env`. */
  trustProxy?: string | string[];
  env?: Record<string, string>;
  /** The relay's logger (a test that reads the log lines); silent by default. */
  logger?: Logger;
  /** Circuit breaker settings (a short cool-down for a test of the half-open trial). */
  circuit?: CircuitOptions;
  /** What is shared with other instances; one process on its own when not given. */
  cluster?: Cluster;
  /**
   * The storage to run on; SQLite in `dataDir` when not given — or PostgreSQL in a schema of its
   * own when TEST_STORAGE=postgres and DATABASE_URL are set (to run any spec on PostgreSQL).
   */
  backend?: StoreBackend;
}

function defaultBackend(): StoreBackend | undefined {
  if (process.env['TEST_STORAGE'] !== 'postgres') return undefined;
  return storeBackends().find((backend) => backend.name === 'PostgreSQL');
}

/** A real relay on a real SQLite file in a temporary directory, as `main.ts` wires it. */
export async function createTestRelay(options: TestRelayOptions = {}): Promise<TestRelay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-relay-test-'));
  const config = loadConfig({
    RELAY_DATA_DIR: dataDir,
    RELAY_ADMIN_KEY: TEST_ADMIN_KEY,
    RELAY_LOG_LEVEL: 'silent',
    // The specs' made-up models are served for nothing unless a spec asks for the default (refuse).
    RELAY_UNPRICED_MODELS: 'free',
    ...options.env,
  });
  const logger = options.logger ?? createLogger(process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const backend = options.backend ?? defaultBackend();
  const opened = backend ? await backend.open() : undefined;
  const storage = opened?.storage ?? openSqliteStorage(dataDir);
  await bootstrapStorage(storage, config, logger);
  const services = createServices(storage, logger, {
    usage: { flushIntervalMs: 20 },
    circuit: options.circuit,
    responses: config.responses,
    cluster: options.cluster,
    tasks: taskEngineOptions(config.tasks),
    affinityTtlMs: config.affinityTtlMs,
    alerts: config.alerts,
  });
  const app = createApp({
    storage,
    services,
    logger,
    maxBodyBytes: options.maxBodyBytes ?? config.maxBodyBytes,
    maxUploadBytes: options.maxUploadBytes ?? config.maxUploadBytes,
    maxRetries: options.maxRetries ?? config.maxRetries,
    toolLimits: config.toolLimits,
    webSearchMaxCalls: config.webSearchMaxCalls,
    trustProxy: options.trustProxy ?? config.trustProxy,
    cors: config.cors,
    quotaDefaultCompletionTokens: config.quotaDefaultCompletionTokens,
    quotaOutputReservationTokens: config.quotaOutputReservationTokens,
    unpricedModels: config.unpricedModels,
    consoleDir: options.consoleDir,
    metricsToken: config.metricsToken,
    version: 'test',
  });
  return {
    app,
    storage,
    services,
    dataDir,
    adminKey: TEST_ADMIN_KEY,
    close: async () => {
      await services.close();
      await (opened ? opened.close() : storage.close());
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Listens on 127.0.0.1, port 0, with the HTTP server `main.ts` builds (timeouts, parser errors in
 * the OpenAI shape); returns the base URL (no trailing slash).
 */
export async function listen(
  app: Express,
  options: HttpServerOptions = defaultServerOptions(),
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createHttpServer(app, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        options.webSockets?.terminateAll();
        server.close(() => resolve());
      }),
  };
}

/** The server `main.ts` builds with the default settings, WebSockets on `/v1/responses` included. */
export function defaultServerOptions(env: Record<string, string> = {}): HttpServerOptions {
  const config = loadConfig(env);
  const logger = createLogger(process.env['TEST_LOG_LEVEL'] ?? 'silent');
  const webSockets = new ResponsesWebSockets({ ...config.responsesWebSocket, maxFrameBytes: config.maxBodyBytes, logger });
  return { headersTimeoutMs: config.headersTimeoutMs, requestTimeoutMs: config.requestTimeoutMs, webSockets };
}
