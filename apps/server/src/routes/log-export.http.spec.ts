import request from 'supertest';
import { LOG_CSV_COLUMNS, LogPageSchema, type LogEntry, type TokenCreated } from '@chat-relay/contract';
import { sampleRows } from '../../test/storage/suites/usage-sample';
import { parseCsv } from '../../test/testing/parse-csv';
import { bearer, createAccount, createToken, usageEntry, type AccountCreated } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

/** A value of the JSON listing as the CSV must write it. */
const asCsv = (value: LogEntry[keyof LogEntry]): string => (value === null ? '' : String(value));

describe('GET /api/logs/export', () => {
  let relay: TestRelay;
  let alice: AccountCreated;
  let bob: AccountCreated;
  let aliceToken: TokenCreated;
  let bobToken: TokenCreated;
  const exportCsv = (query: string, key = relay.adminKey) => request(relay.app).get(`/api/logs/export${query}`).set(bearer(key));
  const records = async (query: string, key = relay.adminKey) => {
    const response = await exportCsv(query, key).expect(200);
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(LOG_CSV_COLUMNS);
    return rows;
  };
  /** Every entry of the JSON listing, page by page. */
  const listing = async (query: string, key = relay.adminKey): Promise<LogEntry[]> => {
    const entries: LogEntry[] = [];
    for (let page = 1; ; page++) {
      const separator = query ? '&' : '?';
      const body = LogPageSchema.parse((await request(relay.app).get(`/api/logs${query}${separator}per_page=100&page=${page}`).set(bearer(key)).expect(200)).body);
      entries.push(...body.data);
      if (entries.length >= body.total) return entries;
    }
  };

  beforeEach(async () => {
    relay = await createTestRelay();
    alice = await createAccount(relay, { name: 'alice' });
    bob = await createAccount(relay, { name: 'bob' });
    aliceToken = await createToken(relay, { name: 'a', account_id: alice.id });
    bobToken = await createToken(relay, { name: 'b', account_id: bob.id });
  });
  afterEach(() => relay.close());

  it('writes the JSON listing row for row, same values, newest first, for the same filters; as a download', async () => {
    await relay.storage.usageLog.insertBatch(sampleRows(250, { tokens: [aliceToken.id, bobToken.id], accounts: [alice.id, bob.id] }, 3));
    const filters = [
      '',
      '?status=200',
      `?token_id=${aliceToken.id}&endpoint=chat`,
      `?account_id=${bob.id}&model=gpt-4o`,
      '?from=2026-02-01T12:00:00.000Z&to=2026-02-02T06:30:00.000Z',
    ];
    for (const query of filters) {
      const expected = (await listing(query)).map((entry) => LOG_CSV_COLUMNS.map((column) => asCsv(entry[column])));
      expect(expected.length).toBeGreaterThan(query ? 5 : 200);
      expect({ query, rows: await records(query) }).toEqual({ query, rows: expected });
    }
    const response = await exportCsv('?status=500').expect(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="chat-relay-logs-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect(response.text.endsWith('\r\n')).toBe(true);
  });

  it('lets a console on an allowed origin read the file name', async () => {
    const crossOrigin = await createTestRelay({ env: { RELAY_CORS_API_ORIGINS: 'https://console.example' } });
    try {
      const response = await request(crossOrigin.app).get('/api/logs/export').set('origin', 'https://console.example').set(bearer(crossOrigin.adminKey)).expect(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://console.example');
      expect(response.headers['access-control-expose-headers']).toContain('content-disposition');
    } finally {
      await crossOrigin.close();
    }
  });

  it('writes the header alone when nothing matches, and refuses what the listing refuses', async () => {
    expect((await exportCsv('?model=none').expect(200)).text).toBe(`${LOG_CSV_COLUMNS.join(',')}\r\n`);
    for (const query of ['?page=2', '?per_page=10', '?status=99', '?from=2026-01-02T00:00:00.000Z&to=2026-01-01T00:00:00.000Z', '?nope=1']) {
      const response = await exportCsv(query).expect(400);
      expect(response.body.error.type).toBe('invalid_request_error');
    }
  });

  it("an account's key exports its own account's rows only: another account is 403, another's token nothing", async () => {
    await relay.storage.usageLog.insertBatch([
      usageEntry({ requestId: 'req-alice-1', createdAt: '2026-01-01T00:00:01.000Z', tokenId: aliceToken.id, accountId: alice.id }),
      usageEntry({ requestId: 'req-bob', createdAt: '2026-01-01T00:00:02.000Z', tokenId: bobToken.id, accountId: bob.id }),
      usageEntry({ requestId: 'req-alice-2', createdAt: '2026-01-01T00:00:03.000Z', tokenId: aliceToken.id, accountId: alice.id }),
    ]);
    const requestIds = (rows: string[][]) => rows.map((row) => row[LOG_CSV_COLUMNS.indexOf('request_id')]);
    expect(requestIds(await records('', alice.access_key))).toEqual(['req-alice-2', 'req-alice-1']);
    expect(requestIds(await records(`?token_id=${bobToken.id}`, alice.access_key))).toEqual([]);
    const forbidden = await exportCsv(`?account_id=${bob.id}`, alice.access_key).expect(403);
    expect(forbidden.body.error.code).toBe('account_forbidden');
    expect(requestIds(await records(''))).toEqual(['req-alice-2', 'req-bob', 'req-alice-1']);
    const byToken = await exportCsv('', aliceToken.key).expect(403);
    expect(byToken.body.error.code).toBe('management_key_required');
  });

  it('quotes as RFC 4180 says and defuses text a spreadsheet would run as a formula', async () => {
    await relay.storage.usageLog.insertBatch([
      usageEntry({
        requestId: 'say "hi", twice',
        createdAt: '2026-01-01T00:00:00.000Z',
        requestedModel: '=HYPERLINK("http://evil.example","x")',
        upstreamModel: 'line one\r\nline two',
        assistantId: '-2+3',
        errorCode: '+cmd',
        clientIp: '@SUM(A1)',
        stream: true,
        usageEstimated: false,
        ttfbMs: null,
        cost: 1_234_567,
      }),
    ]);
    const response = await exportCsv('').expect(200);
    expect(response.text).toContain(',"say ""hi"", twice",');
    expect(response.text).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",`);
    const [, row] = parseCsv(response.text);
    const field = (column: (typeof LOG_CSV_COLUMNS)[number]) => row?.[LOG_CSV_COLUMNS.indexOf(column)];
    expect(field('request_id')).toBe('say "hi", twice');
    expect(field('requested_model')).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(field('upstream_model')).toBe('line one\r\nline two');
    expect([field('assistant_id'), field('error_code'), field('client_ip')]).toEqual(["'-2+3", "'+cmd", "'@SUM(A1)"]);
    expect([field('stream'), field('usage_estimated'), field('ttfb_ms'), field('cost'), field('cost_usd')]).toEqual(['true', 'false', '', '1234567', '1.234567']);
  });
});
