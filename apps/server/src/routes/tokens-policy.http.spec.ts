import request from 'supertest';
import { TokenBatchResultSchema, TokenPageSchema, TokenSchema } from '@chat-relay/contract';
import { bearer, createAccount, createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const policy = {
  name: 'ci',
  expires_at: '2099-01-02T03:04:05Z',
  quota_limit: 12_500_000,
  models: ['gpt-4o*', '*-gizmo-*'],
  allowed_ips: ['10.0.0.0/8', '192.168.1.7', '2001:db8::/32'],
  rate_limit: { rpm: 60, tpm: null },
};

describe('token policy API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const patch = (id: number, body: object) => request(relay.app).patch(`/api/tokens/${id}`).set(admin()).send(body);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('creates a token with every policy field, shown back as set and kept in storage', async () => {
    const token = await createToken(relay, policy);
    expect(token).toMatchObject({
      ...policy,
      expires_at: '2099-01-02T03:04:05.000Z',
      status: 'active',
      quota_limit_usd: '12.500000',
      quota_used: 0,
      quota_used_usd: '0.000000',
      account_id: 1,
    });
    const stored = await relay.storage.tokens.get(token.id);
    expect(stored).toMatchObject({
      expiresAt: '2099-01-02T03:04:05.000Z',
      quotaLimit: 12_500_000,
      models: policy.models,
      allowedIps: policy.allowed_ips,
      rateLimit: { rpm: 60, tpm: null },
    });
  });

  it('an expiry in the past is allowed: the token shows expired and its key is refused', async () => {
    const token = await createToken(relay, { name: 'old', expires_at: '2001-01-01T00:00:00Z' });
    expect(token.status).toBe('expired');
    const refused = await request(relay.app).get('/api/account').set(bearer(token.key)).expect(401);
    expect(refused.body.error.code).toBe('token_expired');
  });

  it('created disabled shows disabled; quota_limit 0 shows exhausted', async () => {
    const off = await createToken(relay, { name: 'off', status: 'disabled' });
    expect(off.status).toBe('disabled');
    expect((await request(relay.app).get('/api/account').set(bearer(off.key)).expect(401)).body.error.code).toBe('token_disabled');
    expect((await createToken(relay, { name: 'broke', quota_limit: 0 })).status).toBe('exhausted');
  });

  it.each([
    [{ name: 'x', quota_limit: -1 }, 'quota_limit'],
    [{ name: 'x', quota_limit: 0.5 }, 'quota_limit'],
    [{ name: 'x', quota_limit: '1000' }, 'quota_limit'],
    [{ name: 'x', allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips[0]'],
    [{ name: 'x', allowed_ips: ['10.0.0.1', '300.1.1.1'] }, 'allowed_ips[1]'],
    [{ name: 'x', allowed_ips: ['2001:db8::/129'] }, 'allowed_ips[0]'],
    [{ name: 'x', allowed_ips: ['example.com'] }, 'allowed_ips[0]'],
    [{ name: 'x', allowed_ips: [] }, 'allowed_ips'],
    [{ name: 'x', models: 'gpt-4o' }, 'models'],
    [{ name: 'x', models: [''] }, 'models[0]'],
    [{ name: 'x', rate_limit: { rpm: 0, tpm: null } }, 'rate_limit.rpm'],
    [{ name: 'x', rate_limit: { rpm: 5, tpm: null, burst: 2 } }, 'rate_limit.burst'],
    [{ name: 'x', expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'x', status: 'expired' }, 'status'],
    [{ name: 'x', quota_used: 5 }, 'quota_used'],
    [{ name: 'x', account_id: 'one' }, 'account_id'],
    [{ name: 42 }, 'name'],
  ])('refuses to create %j: 400 naming %s', async (body, param) => {
    const response = await request(relay.app).post('/api/tokens').set(admin()).send(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect((await request(relay.app).get('/api/tokens').set(admin())).body.total).toBe(0);
  });

  it('the admin creates for another account, which must exist', async () => {
    const account = await createAccount(relay, { name: 'team' });
    const token = await createToken(relay, { name: 'theirs', account_id: account.id });
    expect(token.account_id).toBe(account.id);
    const unknown = await request(relay.app).post('/api/tokens').set(admin()).send({ name: 'x', account_id: 999 }).expect(400);
    expect(unknown.body.error).toMatchObject({ param: 'account_id', code: 'account_not_found' });
  });

  it('PATCH changes the given fields only; null clears a limit', async () => {
    const token = await createToken(relay, policy);
    const patched = TokenSchema.parse((await patch(token.id, { quota_limit: 3_000_000, models: null }).expect(200)).body);
    expect(patched).toMatchObject({
      name: 'ci',
      quota_limit: 3_000_000,
      quota_limit_usd: '3.000000',
      models: null,
      allowed_ips: policy.allowed_ips,
      rate_limit: policy.rate_limit,
    });
    const renamed = (await patch(token.id, { name: 'ci-2', allowed_ips: null, rate_limit: { rpm: null, tpm: 1000 } }).expect(200)).body;
    expect(renamed).toMatchObject({ name: 'ci-2', allowed_ips: null, rate_limit: { rpm: null, tpm: 1000 }, quota_limit: 3_000_000 });
    expect((await relay.storage.tokens.get(token.id))?.models).toBeNull();
  });

  it('PATCH disables a token on its next request and re-enables it; resetting quota_used lifts exhaustion', async () => {
    const token = await createToken(relay, { name: 't', quota_limit: 100 });
    await request(relay.app).get('/api/account').set(bearer(token.key)).expect(200);
    expect((await patch(token.id, { status: 'disabled' }).expect(200)).body.status).toBe('disabled');
    await request(relay.app).get('/api/account').set(bearer(token.key)).expect(401);
    await patch(token.id, { status: 'active' }).expect(200);
    await request(relay.app).get('/api/account').set(bearer(token.key)).expect(200);

    expect((await patch(token.id, { quota_used: 100 }).expect(200)).body).toMatchObject({ status: 'exhausted', quota_used_usd: '0.000100' });
    expect((await patch(token.id, { quota_used: 0 }).expect(200)).body.status).toBe('active');
    expect((await patch(token.id, { expires_at: '2000-01-01T00:00:00Z' }).expect(200)).body.status).toBe('expired');
    expect((await patch(token.id, { expires_at: null }).expect(200)).body.status).toBe('active');
  });

  it.each([
    [{}, null],
    [{ quota_limit: -100 }, 'quota_limit'],
    [{ quota_used: -1 }, 'quota_used'],
    [{ allowed_ips: ['10.0.0.0/8/8'] }, 'allowed_ips[0]'],
    [{ status: 'exhausted' }, 'status'],
    [{ key: 'sk-mine' }, 'key'],
    [{ account_id: 2 }, 'account_id'],
  ])('refuses the patch %j (param %s) and leaves the token as it was', async (body, param) => {
    const token = await createToken(relay, policy);
    const response = await patch(token.id, body).expect(400);
    expect(response.body.error.type).toBe('invalid_request_error');
    if (param) expect(response.body.error.param).toBe(param);
    const { key: _key, ...unchanged } = token;
    expect((await request(relay.app).get(`/api/tokens/${token.id}`).set(admin()).expect(200)).body).toEqual(unchanged);
  });

  it('PATCH, GET and DELETE of an unknown token answer 404', async () => {
    expect((await patch(999, { name: 'x' }).expect(404)).body.error).toMatchObject({ code: 'token_not_found', param: 'id' });
    await request(relay.app).get('/api/tokens/999').set(admin()).expect(404);
    await request(relay.app).delete('/api/tokens/999').set(admin()).expect(404);
    await request(relay.app).get('/api/tokens/0').set(admin()).expect(400);
  });

  it('lists by shown status, and by account for the admin', async () => {
    const account = await createAccount(relay, { name: 'team' });
    await createToken(relay, { name: 'live' });
    await createToken(relay, { name: 'off', status: 'disabled' });
    await createToken(relay, { name: 'old', expires_at: '2001-01-01T00:00:00Z' });
    await createToken(relay, { name: 'broke', quota_limit: 0 });
    await createToken(relay, { name: 'theirs', account_id: account.id });
    const names = async (query: string) =>
      TokenPageSchema.parse((await request(relay.app).get(`/api/tokens?${query}`).set(admin()).expect(200)).body).data.map(
        (token) => token.name,
      );
    expect(await names('status=active')).toEqual(['live', 'theirs']);
    expect(await names('status=disabled')).toEqual(['off']);
    expect(await names('status=expired')).toEqual(['old']);
    expect(await names('status=exhausted')).toEqual(['broke']);
    expect(await names(`account_id=${account.id}`)).toEqual(['theirs']);
    expect(await names('account_id=1&status=active')).toEqual(['live']);
    await request(relay.app).get('/api/tokens?account_id=abc').set(admin()).expect(400);
    await request(relay.app).get('/api/tokens?owner=1').set(admin()).expect(400);
    expect((await request(relay.app).get('/api/tokens?page=2').set(admin()).expect(400)).body.error.code).toBe('page_out_of_range');
  });

  it('searches names and key hints, case-insensitively, paginated', async () => {
    const alpha = await createToken(relay, { name: 'Alpha web' });
    await createToken(relay, { name: 'beta web' });
    await createToken(relay, { name: 'gamma' });
    const search = (query: string) => request(relay.app).get(`/api/tokens/search?${query}`).set(admin());
    const web = TokenPageSchema.parse((await search('q=WEB').expect(200)).body);
    expect(web.data.map((token) => token.name)).toEqual(['Alpha web', 'beta web']);
    expect(web.total).toBe(2);
    const byHint = (await search(`q=${alpha.key.slice(-4)}`).expect(200)).body;
    expect(byHint.data.map((token: { id: number }) => token.id)).toContain(alpha.id);
    expect((await search('q=web&per_page=1&page=2').expect(200)).body.data[0].name).toBe('beta web');
    expect((await search('q=nothing-like-this').expect(200)).body).toMatchObject({ total: 0, data: [] });
    expect((await search('').expect(400)).body.error).toMatchObject({ param: 'q', code: 'missing_required_parameter' });
    expect((await search('q=web&page=3').expect(400)).body.error.code).toBe('page_out_of_range');
  });
});

describe('token batch API', () => {
  let relay: TestRelay;
  const admin = () => bearer(relay.adminKey);
  const batch = (body: object) => request(relay.app).post('/api/tokens/batch').set(admin()).send(body);

  beforeEach(async () => {
    relay = await createTestRelay();
  });
  afterEach(() => relay.close());

  it('disables and enables per id, reporting unknown ids without failing the rest', async () => {
    const one = await createToken(relay, { name: 'one' });
    const two = await createToken(relay, { name: 'two' });
    const disabled = TokenBatchResultSchema.parse((await batch({ ids: [one.id, 999, two.id], action: 'disable' }).expect(200)).body);
    expect(disabled.action).toBe('disable');
    expect(disabled.results.map(({ id, status, token }) => [id, status, token?.status])).toEqual([
      [one.id, 'ok', 'disabled'],
      [999, 'not_found', undefined],
      [two.id, 'ok', 'disabled'],
    ]);
    await request(relay.app).get('/api/account').set(bearer(one.key)).expect(401);
    await batch({ ids: [one.id], action: 'enable' }).expect(200);
    await request(relay.app).get('/api/account').set(bearer(one.key)).expect(200);
    expect((await relay.storage.tokens.get(two.id))?.status).toBe('disabled');
  });

  it('applies one update to every id', async () => {
    const one = await createToken(relay, { name: 'one', models: ['a'] });
    const two = await createToken(relay, { name: 'two' });
    const update = { quota_limit: 5_000_000, rate_limit: { rpm: 10, tpm: null } };
    const { body } = await batch({ ids: [one.id, two.id], action: 'update', update }).expect(200);
    for (const result of body.results) expect(result).toMatchObject({ status: 'ok', token: { ...update, quota_limit_usd: '5.000000' } });
    expect((await relay.storage.tokens.get(one.id))?.models).toEqual(['a']);
    expect((await relay.storage.tokens.get(two.id))?.quotaLimit).toBe(5_000_000);
  });

  it('deletes, each id once', async () => {
    const one = await createToken(relay, { name: 'one' });
    const keep = await createToken(relay, { name: 'keep' });
    const { body } = await batch({ ids: [one.id, one.id, 777], action: 'delete' }).expect(200);
    expect(body.results).toEqual([
      { id: one.id, status: 'ok' },
      { id: 777, status: 'not_found' },
    ]);
    await request(relay.app).get(`/api/tokens/${one.id}`).set(admin()).expect(404);
    await request(relay.app).get(`/api/tokens/${keep.id}`).set(admin()).expect(200);
  });

  it.each([
    [{ ids: [1], action: 'update' }, 'update'],
    [{ ids: [1], action: 'enable', update: { name: 'x' } }, 'update'],
    [{ ids: [1], action: 'update', update: {} }, 'update'],
    [{ ids: [1], action: 'update', update: { quota_limit: -1 } }, 'update.quota_limit'],
    [{ ids: [1], action: 'update', update: { allowed_ips: ['1.2.3.4/40'] } }, 'update.allowed_ips[0]'],
    [{ ids: [], action: 'disable' }, 'ids'],
    [{ ids: ['1'], action: 'disable' }, 'ids[0]'],
    [{ ids: [1], action: 'archive' }, 'action'],
    [{ ids: [1], action: 'disable', dry_run: true }, 'dry_run'],
  ])('refuses %j: 400 naming %s, changing nothing', async (body, param) => {
    const token = await createToken(relay, { name: 'still' });
    const response = await batch(body).expect(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
    expect(await relay.storage.tokens.get(token.id)).toMatchObject({ name: 'still', status: 'active', quotaLimit: null });
  });
});
