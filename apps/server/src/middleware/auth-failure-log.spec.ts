import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';
import { AuthFailureLog } from './auth-failure-log';

/**
 * Issue 10, defect 9: every request with an invalid key wrote a usage row (5,000 in 2.9 s,
 * +1.5 MB), so anybody could grow the database. They are counted and logged, rate-limited.
 */
describe('issue 10 defect 9: unauthenticated requests grow the database', () => {
  let relay: TestRelay;

  beforeAll(async () => {
    relay = await createTestRelay();
  });
  afterAll(() => relay.close());

  it('500 requests with missing, unknown, disabled and expired keys write no row; each is counted', async () => {
    const disabled = await createToken(relay, { name: 'off', status: 'disabled' });
    const expired = await createToken(relay, { name: 'old', expires_at: '2001-01-01T00:00:00Z' });
    const headers = [{}, bearer('sk-' + 'x'.repeat(48)), bearer(disabled.key), bearer(expired.key), { authorization: 'Basic abc' }];
    await relay.services.recorder.flush();
    const rowsBefore = (await relay.storage.usageLog.recent(10_000)).length;
    const counted = relay.services.authFailures.total;
    for (let i = 0; i < 500; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          request(relay.app)
            .post('/v1/chat/completions')
            .set(headers[(i + j) % headers.length] ?? {})
            .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
            .expect(401),
        ),
      );
    }
    await relay.services.recorder.flush();
    expect((await relay.storage.usageLog.recent(10_000)).length).toBe(rowsBefore);
    expect(relay.services.authFailures.total).toBe(counted + 500);
  });

  it('a valid key still gets its row when refused later (policy, validation)', async () => {
    const token = await createToken(relay, { name: 'limited', models: ['gpt-4o-mini'] });
    await relay.services.recorder.flush();
    const before = (await relay.storage.usageLog.recent(10_000)).length;
    await request(relay.app).post('/v1/chat/completions').set(bearer(token.key)).send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }).expect(403);
    await relay.services.recorder.flush();
    const rows = await relay.storage.usageLog.recent(10_000);
    expect(rows.length).toBe(before + 1);
    expect(rows[0]).toMatchObject({ tokenId: token.id, status: 403, errorCode: 'model_not_allowed' });
  });

  it('logs at most one line per interval, with the count, never the key', () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    let now = 1_000_000;
    const log = new AuthFailureLog(pino({ level: 'info' }, sink), 60_000, () => now);
    for (let i = 0; i < 1000; i++) log.record('invalid_api_key', '203.0.113.9');
    now += 59_999;
    log.record('token_disabled', '203.0.113.9');
    now += 1;
    log.record('token_expired', '198.51.100.4');
    return new Promise<void>((resolve) => {
      setImmediate(() => {
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatchObject({ refused: 1, total: 1, lastCode: 'invalid_api_key', lastClientIp: '203.0.113.9' });
        expect(lines[1]).toMatchObject({ refused: 1001, total: 1002, lastCode: 'token_expired' });
        expect(log.total).toBe(1002);
        resolve();
      });
    });
  });
});
