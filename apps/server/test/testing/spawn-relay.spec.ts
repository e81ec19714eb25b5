import { spawnRelay } from './spawn-relay';

describe('spawnRelay: the production bundle in its own process', () => {
  it('listens on a loopback port, answers /healthz, and exits 0 on SIGTERM', async () => {
    const relay = await spawnRelay();
    try {
      const health = await fetch(`${relay.url}/healthz`);
      expect(health.status).toBe(200);
      relay.child.kill('SIGTERM');
      expect(await relay.exited).toBe(0);
      expect(relay.output()).toContain('stopped');
    } finally {
      await relay.close();
    }
  }, 30_000);
});
