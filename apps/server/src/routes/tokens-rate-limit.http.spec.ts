import Database from 'better-sqlite3';
import path from 'node:path';
import request from 'supertest';
import { TokenBatchResultSchema, TokenSchema } from '@chat-relay/contract';
import { SQLITE_FILE_NAME } from '../storage/sqlite/open-sqlite';
import { bearer, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/**
 * Issue 11: `rate_limit: {"rpm": 3}` was refused with "Missing required parameter:
 * 'rate_limit.tpm'". Each kind is optional; PATCH and batch updates merge kind by kind.
 */
describe('issue 11: rate limits set one at a time', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const patch = (id: number, body: object) => request(relay.app).patch(`/api/tokens/${id}`).set(admin()).send(body);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates a token with rpm alone: the other kinds show null (no limit)', async () => {
    const token = await createToken(relay, { name: 'rpm-only', rate_limit: { rpm: 3 } });
    expect(token.rate_limit).toEqual({ rpm: 3, tpm: null, concurrency: null });
    expect((await relay.storage.tokens.get(token.id))?.rateLimit).toEqual({ rpm: 3, tpm: null, concurrency: null });
  });

  it('PATCH merges: tpm added keeps rpm, concurrency added keeps both, null removes one kind', async () => {
    const token = await createToken(relay, { name: 'merge', rate_limit: { rpm: 3 } });
    expect((await patch(token.id, { rate_limit: { tpm: 1000 } }).expect(200)).body.rate_limit).toEqual({ rpm: 3, tpm: 1000, concurrency: null });
    expect((await patch(token.id, { rate_limit: { concurrency: 2 } }).expect(200)).body.rate_limit).toEqual({ rpm: 3, tpm: 1000, concurrency: 2 });
    expect((await patch(token.id, { rate_limit: { rpm: null } }).expect(200)).body.rate_limit).toEqual({ rpm: null, tpm: 1000, concurrency: 2 });
    // Another field alone leaves the limits as they are.
    expect((await patch(token.id, { name: 'renamed' }).expect(200)).body.rate_limit).toEqual({ rpm: null, tpm: 1000, concurrency: 2 });
  });

  it('removing the last kind, or rate_limit: null, leaves no limits at all (null)', async () => {
    const token = await createToken(relay, { name: 'clear', rate_limit: { rpm: 3, tpm: 10 } });
    expect((await patch(token.id, { rate_limit: { rpm: null, tpm: null } }).expect(200)).body.rate_limit).toBeNull();
    await patch(token.id, { rate_limit: { tpm: 5 } }).expect(200);
    expect(TokenSchema.parse((await patch(token.id, { rate_limit: null }).expect(200)).body).rate_limit).toBeNull();
    expect((await createToken(relay, { name: 'empty', rate_limit: {} })).rate_limit).toBeNull();
  });

  it('a batch update merges into each token its own limits', async () => {
    const a = await createToken(relay, { name: 'a', rate_limit: { rpm: 1 } });
    const b = await createToken(relay, { name: 'b', rate_limit: { tpm: 2 } });
    const response = await request(relay.app)
      .post('/api/tokens/batch')
      .set(admin())
      .send({ ids: [a.id, b.id], action: 'update', update: { rate_limit: { concurrency: 4 } } })
      .expect(200);
    const results = TokenBatchResultSchema.parse(response.body).results;
    expect(results.map((result) => result.token?.rate_limit)).toEqual([
      { rpm: 1, tpm: null, concurrency: 4 },
      { rpm: null, tpm: 2, concurrency: 4 },
    ]);
  });

  it('limits stored before concurrency existed read back whole', async () => {
    const token = await createToken(relay, { name: 'legacy' });
    // What a token created by an earlier version holds in its JSON column.
    const db = new Database(path.join(relay.dataDir, SQLITE_FILE_NAME));
    db.prepare('UPDATE tokens SET rate_limit = ? WHERE id = ?').run('{"rpm":7,"tpm":null}', token.id);
    db.close();
    const shown = await request(relay.app).get(`/api/tokens/${token.id}`).set(admin()).expect(200);
    expect(shown.body.rate_limit).toEqual({ rpm: 7, tpm: null, concurrency: null });
  });

  it.each([
    [{ rpm: 0 }, 'rate_limit.rpm'],
    [{ tpm: 1.5 }, 'rate_limit.tpm'],
    [{ concurrency: -1 }, 'rate_limit.concurrency'],
    [{ rpm: 1, burst: 2 }, 'rate_limit.burst'],
  ])('refuses rate_limit %j: 400 naming %s', async (rateLimit, param) => {
    const token = await createToken(relay, { name: 'bad' });
    const response = await patch(token.id, { rate_limit: rateLimit }).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
  });
});
