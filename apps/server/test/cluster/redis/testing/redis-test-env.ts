import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import Redis from 'ioredis';
import { createLogger, type Logger } from '../../../../src/logger';

/** `REDIS_URL` when the environment gives one (CI does): the Redis specs run against it. */
export const TEST_REDIS_URL = process.env['REDIS_URL']?.trim() || undefined;

let skipNoted = false;

/**
 * `describe`s `suite` with the test Redis' URL, or says on stderr why it is skipped — a run
 * without Redis is never mistaken for a full one.
 */
export function describeWithRedis(title: string, suite: (url: string) => void): void {
  const url = TEST_REDIS_URL;
  if (url) {
    describe(title, () => suite(url));
    return;
  }
  if (!skipNoted) {
    skipNoted = true;
    process.stderr.write('Redis specs skipped: REDIS_URL is not set (CI sets it; e.g. redis://127.0.0.1:6379)\n');
  }
  describe.skip(`${title} (skipped: REDIS_URL is not set)`, () => it('needs Redis', () => undefined));
}

/** A key prefix no other test or run uses: every key a test writes lives under it. */
export function uniqueKeyPrefix(): string {
  return `chat-relay-test:${Date.now().toString(36)}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes the keys under `prefix` (SCAN + UNLINK), and nothing else: other runs share this Redis. */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  if (!/^chat-relay-test:[a-z0-9]+:[0-9a-f]+:/.test(prefix)) throw new Error(`not a test prefix: ${prefix}`);
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return deleted;
}

/** A plain client for a test's own reads and writes (not one of the relay's connections). */
export async function plainClient(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  return redis;
}

/** A logger whose lines a test can read. */
export function collectingLogger(level = 'debug'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level, destination), lines };
}

/** Resolves once `condition` holds, checking every 10 ms; rejects after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs: number, what = 'condition'): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** Host and port of a redis:// URL (the tcp proxy's target). */
export function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) };
}

/** The same URL pointed at another port on 127.0.0.1 (through a proxy), credentials kept. */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString();
}
