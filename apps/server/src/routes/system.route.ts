import { buildOpenApiDocument, systemContract, type Health, type Readiness } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import type { Cluster } from '../cluster/cluster';
import type { RelayMetrics } from '../metrics/relay-metrics';
import type { Storage } from '../storage/types';

export interface SystemRouteDeps {
  storage: Pick<Storage, 'ping' | 'kind'>;
  cluster: Pick<Cluster, 'ping' | 'kind' | 'failureMode'>;
  /** Whether the instance is shutting down (no longer ready for new requests). */
  draining: () => boolean;
  /** Whether usage rows waiting for the database fill the backlog (RELAY_USAGE_BACKLOG_MAX): new requests are refused. */
  usageBacklogFull?: () => boolean;
  version: string;
  startedAt: number;
  metrics: Pick<RelayMetrics, 'scrape'>;
}

/** A probe never waits on a dependency longer than this: a hung database reads as unavailable. */
const PROBE_TIMEOUT_MS = 2_000;

/** How long `ping` took, or null when it failed or did not answer in time. */
async function probe(ping: () => Promise<void>): Promise<number | null> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(),
      new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS))),
    ]);
    return Math.round((performance.now() - started) * 10) / 10;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

async function healthOf(deps: SystemRouteDeps): Promise<Health> {
  const [database, redis] = await Promise.all([probe(() => deps.storage.ping()), deps.cluster.kind === 'redis' ? probe(() => deps.cluster.ping()) : null]);
  const redisStatus = deps.cluster.kind === 'local' ? 'not_configured' : redis === null ? 'unavailable' : 'ok';
  return {
    status: database === null ? 'unavailable' : redisStatus === 'unavailable' ? 'degraded' : 'ok',
    version: deps.version,
    uptime_s: Math.round((Date.now() - deps.startedAt) / 1000),
    database: { kind: deps.storage.kind, status: database === null ? 'unavailable' : 'ok', latency_ms: database },
    redis: { status: redisStatus, latency_ms: redis, failure_mode: deps.cluster.kind === 'redis' ? deps.cluster.failureMode : null },
  };
}

/** Why a load balancer should not send this instance requests now; empty when it should. */
function notReadyBecause(health: Health, deps: SystemRouteDeps): string[] {
  const reasons: string[] = [];
  if (deps.draining()) reasons.push('shutting down');
  if (health.database.status !== 'ok') reasons.push('the database does not answer');
  if (deps.usageBacklogFull?.()) reasons.push('usage rows waiting for the database fill RELAY_USAGE_BACKLOG_MAX');
  if (health.redis.status === 'unavailable' && health.redis.failure_mode === 'closed') {
    reasons.push('Redis does not answer and limits fail closed (RELAY_REDIS_FAILURE_MODE=closed)');
  }
  return reasons;
}

export function systemRouter(deps: SystemRouteDeps) {
  const s = initServer();
  return s.router(systemContract, {
    health: async () => {
      const health = await healthOf(deps);
      return health.status === 'unavailable' ? { status: 503, body: health } : { status: 200, body: health };
    },
    metrics: async () => ({ status: 200, body: await deps.metrics.scrape() }),
    ready: async () => {
      const health = await healthOf(deps);
      const reasons = notReadyBecause(health, deps);
      const body: Readiness = { ...health, ready: reasons.length === 0, reasons };
      return reasons.length === 0 ? { status: 200, body } : { status: 503, body };
    },
    openApi: async () => ({ status: 200, body: buildOpenApiDocument(deps.version) }),
  });
}
