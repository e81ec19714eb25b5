import type { Logger } from '../../../../src/logger';
import { startTcpProxy, type TcpProxy } from '../../../testing/tcp-proxy';
import { createRedisCluster, type RedisCluster, type RedisClusterOptions } from '../../../../src/cluster/redis/create-redis-cluster';
import { collectingLogger, deleteKeys, hostAndPort, uniqueKeyPrefix, viaPort } from './redis-test-env';

/**
 * Clusters (one per simulated instance) on the test Redis under one key prefix of their own,
 * directly or through a proxy a test can cut; `cleanup` closes them all and deletes the keys.
 */
export class ClusterFixture {
  readonly prefix = uniqueKeyPrefix();
  readonly log: { logger: Logger; lines: string[] } = collectingLogger();
  private readonly clusters: RedisCluster[] = [];
  private readonly proxies: TcpProxy[] = [];

  constructor(readonly url: string) {}

  async open(instanceId: string, options: Partial<RedisClusterOptions> & { proxy?: TcpProxy } = {}): Promise<RedisCluster> {
    const { proxy, ...overrides } = options;
    const cluster = await createRedisCluster({
      url: proxy ? viaPort(this.url, proxy.port) : this.url,
      keyPrefix: this.prefix,
      failureMode: 'open',
      refreshMs: 60_000,
      instanceId,
      logger: this.log.logger,
      ...overrides,
    });
    this.clusters.push(cluster);
    return cluster;
  }

  async proxy(): Promise<TcpProxy> {
    const { host, port } = hostAndPort(this.url);
    const proxy = await startTcpProxy(host, port);
    this.proxies.push(proxy);
    return proxy;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.clusters.splice(0).map((cluster) => cluster.close()));
    await Promise.all(this.proxies.splice(0).map((proxy) => proxy.close()));
    await deleteKeys(this.url, this.prefix);
  }
}

/** Counts calls per name: listeners a test hands out and reads back. */
export class CallCounter {
  private readonly counts = new Map<string, number>();

  listener(name: string): () => void {
    return () => this.counts.set(name, this.count(name) + 1);
  }

  count(name: string): number {
    return this.counts.get(name) ?? 0;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
