import { createLocalCluster, type Cluster } from './cluster/cluster';
import type { Logger } from './logger';
import { RelayMetrics } from './metrics/relay-metrics';
import { AuthFailureLog } from './middleware/auth-failure-log';
import type { RateLimiter } from './policy/rate-limiter';
import { ChannelChecks, type ChannelChecksOptions } from './channels/channel-checks';
import { ChannelHealth, type CircuitOptions } from './channels/channel-health';
import { ChannelRegistry } from './channels/channel-registry';
import { DEFAULT_AFFINITY_TTL_MS, SessionAffinity } from './channels/session-affinity';
import { InFlightRequests } from './pipeline/in-flight-requests';
import { ChannelModelSync } from './channels/model-sync';
import { OpenStreams } from './pipeline/stream/open-streams';
import { PriceBook } from './billing/price-book';
import { ModelCatalogueService } from './catalogue/model-catalogue-service';
import { StoredCatalogueSource } from './catalogue/stored-catalogue-source';
import { ParameterRefusals } from './channels/parameter-refusals';
import { DEFAULT_STORED_RESPONSES, StoredResponses, type StoredResponsesOptions } from './dialects/responses/stored-responses';
import { UpstreamClient } from './channels/upstream/upstream-client';
import { AccessTokens } from './channels/cloud/access-tokens';
import { CloudAuth } from './channels/cloud/cloud-auth';
import { UpstreamObjects } from './pipeline/passthrough/upstream-objects';
import { UsageRecorder, type UsageRecorderOptions } from './pipeline/usage-recorder';
import { startStorageJobs, type StorageJobOptions, type StorageJobs } from './storage/storage-jobs';
import type { Storage } from './storage/types';
import { DEFAULT_TASK_ENGINE, TaskEngine, type TaskEngineOptions } from './tasks/task-engine';
import { DEFAULT_ALERTS, startAlerts, type AlertOptions, type Alerts } from './alerts/start-alerts';
import type { ChannelEventSink } from './alerts/channel-events';

/** The long-lived parts the routes share: routing cache, circuit breakers, pools, usage writer. */
export interface RelayServices {
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  recorder: UsageRecorder;
  /** Per-token rpm/tpm windows (SPEC §4): the cluster's (Redis) or this process's. */
  rateLimiter: RateLimiter;
  /** What is shared with the other instances: change feed, circuits, limits (issue 15). */
  cluster: Cluster;
  prices: PriceBook;
  /** What each model accepts, costs and allows (issue 28): the seed, an admin's refresh and overrides. */
  catalogue: ModelCatalogueService;
  /** Which channel and key last served each session (issue 29); undefined when switched off. */
  affinity: SessionAffinity | undefined;
  /** Parameters each channel's upstream refused by name, per upstream model: left out up front next time (issue 28). */
  refusals: ParameterRefusals;
  /** Requests refused for a missing or invalid key: counted and logged, never written as rows. */
  authFailures: AuthFailureLog;
  /** The streamed answers under way, ended properly on shutdown. */
  openStreams: OpenStreams;
  /** Relayed requests under way and, on shutdown, their usage rows still to be written. */
  inFlight: InFlightRequests;
  /** This instance's Prometheus registry (`GET /metrics`): requests, upstream attempts, tokens, cost, streams, circuits. */
  metrics: RelayMetrics;
  /** The Responses API's stored responses, purged when they expire. */
  responses: StoredResponses;
  /** Which account created which object at a provider through a passthrough answer (issue 26). */
  upstreamObjects: UpstreamObjects;
  /** Channels' upstream model lists, fetched on create and on `POST /api/channels/{id}/models/sync`. */
  modelSync: ChannelModelSync;
  /** Heartbeats, orphaned reservations, log retention. */
  jobs: StorageJobs;
  /** The scheduled channel check (RELAY_CHANNEL_CHECK_MS) and each channel's last test (`last_check`). */
  channelChecks: ChannelChecks;
  /** Long-running tasks (videos, songs): polled until they end, charged once (RELAY_TASK_*). */
  tasks: TaskEngine;
  /** Threshold alerts and webhook deliveries (issue 32). */
  alerts: Alerts;
  /** Channel events for webhooks (routing tells of disabled keys through it). */
  channelEvents: ChannelEventSink;
  /** Drains the usage log, retires the instance, closes upstream pools and the cluster's connections; storage is closed by its owner. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  usage?: UsageRecorderOptions;
  circuit?: CircuitOptions;
  /** In-memory limits of one process (tests inject one); ignored when `cluster` is given. */
  rateLimiter?: RateLimiter;
  /** Shared with other instances; one process on its own when not given. */
  cluster?: Cluster;
  /** RELAY_LOG_RETENTION_DAYS; rows kept for ever when not given. */
  storageJobs?: StorageJobOptions;
  /** RELAY_RESPONSES_STORE and RELAY_RESPONSES_TTL; stored for 30 days when not given. */
  responses?: StoredResponsesOptions;
  /** RELAY_CHANNEL_CHECK_MS; no schedule when not given (`runOnce()` still works). */
  channelChecks?: ChannelChecksOptions;
  /** RELAY_TASK_POLL_MS, RELAY_TASK_POLL_MAX_MS, RELAY_TASK_TIMEOUT_MS; DEFAULT_TASK_ENGINE when not given. */
  tasks?: Partial<TaskEngineOptions>;
  /** RELAY_AFFINITY_TTL_MS; DEFAULT_AFFINITY_TTL_MS when not given, 0 = no affinity. */
  affinityTtlMs?: number;
  /** RELAY_ALERT_THRESHOLDS, RELAY_WEBHOOK_*; DEFAULT_ALERTS when not given. */
  alerts?: AlertOptions;
}

export function createServices(storage: Storage, logger: Logger, options: ServiceOptions = {}): RelayServices {
  const cluster = options.cluster ?? createLocalCluster(options.rateLimiter);
  const upstream = new UpstreamClient(new CloudAuth(new AccessTokens({ shared: cluster.cloudTokens })));
  const responses = new StoredResponses(storage.responses, logger, {
    ...(options.responses ?? DEFAULT_STORED_RESPONSES),
    // Another instance may have answered the previous response and be writing it still.
    otherWritersMs: storage.kind === 'postgres' ? 1_000 : 0,
  });
  responses.start();
  const upstreamObjects = new UpstreamObjects(storage.upstreamObjects, logger, {
    ttlMs: (options.responses ?? DEFAULT_STORED_RESPONSES).ttlMs,
    otherWritersMs: storage.kind === 'postgres' ? 1_000 : 0,
  });
  upstreamObjects.start();
  const registry = new ChannelRegistry(storage.channels, cluster.changes);
  const modelSync = new ChannelModelSync({ channels: storage.channels, registry, upstream, logger });
  const health = new ChannelHealth(options.circuit, Date.now, cluster.circuits);
  const openStreams = new OpenStreams();
  const metrics = new RelayMetrics({
    openStreams: () => openStreams.size,
    circuits: async () => (await registry.all()).map((channel) => [channel.id, health.snapshot(channel.id).state] as const),
  });
  const recorder = new UsageRecorder(storage.usageLog, storage.tokens, logger, options.usage, (entry, route) => metrics.observeUsage(entry, route));
  const authFailures = new AuthFailureLog(logger);
  authFailures.onRefusal((code) => metrics.authRejected(code));
  if (cluster.kind === 'redis') {
    // Circuits other instances opened before this one started, and again with every refresh.
    void health.refresh().catch(() => undefined);
    cluster.changes.subscribe('channels', () => void health.refresh().catch(() => undefined));
  }
  const channelChecks = new ChannelChecks({ channels: storage.channels, registry, health, upstream, logger }, options.channelChecks ?? { intervalMs: 0 });
  channelChecks.start();
  const jobs = startStorageJobs(storage, logger, options.storageJobs ?? { logRetentionDays: 0 });
  const catalogue = new ModelCatalogueService(new StoredCatalogueSource(storage.catalogue), cluster.changes, (error) => logger.warn({ err: error }, 'model catalogue: reload failed; the previous one is kept'));
  const prices = new PriceBook(storage.prices, cluster.changes, catalogue);
  void catalogue.load();
  const tasks = new TaskEngine(
    { tasks: storage.tasks, registry, upstream, prices, logger, observeUsage: (entry) => metrics.observeUsage(entry, undefined) },
    { ...DEFAULT_TASK_ENGINE, ...options.tasks },
  );
  tasks.start();
  const alerts = startAlerts(
    {
      storage,
      logger,
      registry: metrics.registry,
      channelName: async (channelId) => (await registry.all()).find((channel) => channel.id === channelId)?.record.name ?? '',
    },
    options.alerts ?? DEFAULT_ALERTS,
  );
  recorder.onWritten((batch) => alerts.limits.noteWritten(batch));
  health.onCircuitChange((channelId, change) =>
    change === 'opened' ? alerts.channelEvents.circuitOpened(channelId) : alerts.channelEvents.circuitClosed(channelId),
  );
  return {
    registry,
    health,
    upstream,
    recorder,
    rateLimiter: cluster.rateLimiter,
    cluster,
    prices,
    catalogue,
    refusals: new ParameterRefusals(),
    affinity: affinityOf(options.affinityTtlMs ?? DEFAULT_AFFINITY_TTL_MS, cluster),
    authFailures,
    openStreams,
    metrics,
    inFlight: new InFlightRequests(),
    responses,
    upstreamObjects,
    modelSync,
    jobs,
    channelChecks,
    tasks,
    alerts,
    channelEvents: alerts.channelEvents,
    close: async () => {
      // Tasks left running are resumed by the next start (their state is in the database).
      await tasks.close();
      await channelChecks.close();
      await modelSync.close();
      await recorder.close();
      // After the last usage batch: its threshold pass runs, then deliveries under way are left to their leases.
      await alerts.close();
      await responses.close();
      await upstreamObjects.close();
      await upstream.close();
      // What this instance still reserved is given back only once every row is written.
      await jobs.close();
      await cluster.close();
    },
  };
}

/** Sessions' channels in this process's memory, in front of the cluster's store when it has one. */
function affinityOf(ttlMs: number, cluster: Cluster): SessionAffinity | undefined {
  return ttlMs > 0 ? new SessionAffinity({ ttlMs }, cluster.affinities) : undefined;
}
