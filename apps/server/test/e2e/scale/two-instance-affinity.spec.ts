import type { SpawnedRelay } from '../../testing/spawn-relay';
import Redis from 'ioredis';
import { redisKeys, describeTwoInstances, SIM_KEY, TEST_REDIS_URL, useTwoInstances } from './two-instances';

/** Without sharing, each instance would draw its own channel: all agreeing by chance is 1 in 2^SESSIONS. */
const SESSIONS = 8;

/** One request of session `session` (Codex names its session by prompt_cache_key) to `relay`. */
async function turn(relay: SpawnedRelay, key: string, session: string): Promise<number> {
  const response = await fetch(`${relay.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', max_tokens: 5, prompt_cache_key: session, messages: [{ role: 'user', content: 'hello there' }] }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.text();
  return response.status;
}

describeTwoInstances('two relays: prompt-cache affinity is shared through Redis', () => {
  const cluster = useTwoInstances({ sims: 2 });

  it('a session served through A goes to the same channel through B, and Redis holds its pin (no key)', async () => {
    const { relay, createToken, sims, keyPrefix } = cluster();
    const token = await createToken();
    const chatCount = () => sims.map((sim) => sim.requests.filter((seen) => seen.path === '/v1/chat/completions').length);
    for (let number = 1; number <= SESSIONS; number++) {
      const session = `session-${number}`;
      const before = chatCount();
      // Alternating instances, as a load balancer without stickiness does.
      for (let index = 0; index < 8; index++) expect(await turn(relay(index % 2 === 0 ? 'a' : 'b'), token.key, session)).toBe(200);
      const added = chatCount().map((count, index) => count - (before[index] ?? 0));
      expect(added.sort()).toEqual([0, 8]);
    }
    const pins = await redisKeys(TEST_REDIS_URL ?? '', `${keyPrefix}affinity:`);
    expect(pins).toHaveLength(SESSIONS);
    expect(pins).toContain(`${keyPrefix}affinity:token:${token.id}|gpt-4o|key:session-1`);
    const redis = new Redis(TEST_REDIS_URL ?? '');
    try {
      const stored = await redis.get(pins[0] ?? '');
      expect(JSON.parse(stored ?? '')).toEqual({ channel_id: expect.any(Number), key_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(stored).not.toContain(SIM_KEY);
    } finally {
      redis.disconnect();
    }
  }, 60_000);
});
