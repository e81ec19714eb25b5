import type { RateLimiter } from '../policy/rate-limiter';
import { InMemoryRateLimiter } from '../policy/rate-limiter';
import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';
import { LOCAL_CIRCUITS, type CircuitSync } from './circuit-sync';
import type { AffinityStore } from './affinity-store';
import type { CloudTokenStore } from './cloud-token-store';

/** What the instances behind one load balancer share beyond the database (SPEC §11). */
export interface Cluster {
  /** `redis`: limits, circuits and invalidation are shared; `local`: this process only. */
  kind: 'local' | 'redis';
  changes: ChangeFeed;
  circuits: CircuitSync;
  /** rpm/tpm windows and concurrency slots. */
  rateLimiter: RateLimiter;
  /** Sessions' channels (prompt-cache affinity) as every instance sees them; none: this process's memory only. */
  affinities?: AffinityStore;
  /** Cloud access tokens one instance minted for the others (Redis); none: each instance mints its own. */
  cloudTokens?: CloudTokenStore;
  /** Throws when the shared store does not answer (`/healthz`, `/readyz`); local always answers. */
  ping(): Promise<void>;
  /**
   * `open`: a limit that cannot be checked (Redis down) admits the request; `closed`: it is
   * refused with 503. Local limits always answer.
   */
  failureMode: 'open' | 'closed';
  close(): Promise<void>;
}

/**
 * No Redis: limits and circuits in this process's memory. `refreshEveryMs` when the database is
 * shared anyway (PostgreSQL without Redis): caches reload on that timer.
 */
export function createLocalCluster(rateLimiter: RateLimiter = new InMemoryRateLimiter(), refreshEveryMs?: number): Cluster {
  const changes = new LocalChangeFeed(refreshEveryMs);
  return {
    kind: 'local',
    changes,
    circuits: LOCAL_CIRCUITS,
    rateLimiter,
    ping: async () => undefined,
    failureMode: 'open',
    close: () => changes.close(),
  };
}
