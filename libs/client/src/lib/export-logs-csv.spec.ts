import type { ServerResponse } from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import axios from 'axios';
import { sendJson, startRelayTestServer, type RelayTestServer } from '../testing/relay-test-server';
import { createRelayClient, type RelayClient } from './create-relay-client';
import { DEFAULT_LOGS_CSV_FILENAME, filenameOf } from './export-logs-csv';
import { RelayApiError } from './relay-api-error';

const HEADER = 'id,created_at,request_id\r\n';
const LINES = Array.from({ length: 300 }, (_, i) => `${300 - i},2026-01-01T00:00:00.000Z,"req ""${i}"", é"\r\n`);
const CSV = HEADER + LINES.join('');

/** Writes the CSV in slices, one event-loop turn apart, as the relay streams pages. */
async function sendCsv(res: ServerResponse, { slices = 10, cutAfter = Infinity, headers = {} as Record<string, string> } = {}): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="chat-relay-logs-2026-01-31.csv"',
    'x-request-id': 'req_export',
    ...headers,
  });
  const bytes = Buffer.from(CSV);
  const size = Math.ceil(bytes.length / slices);
  for (let slice = 0; slice < slices; slice++) {
    if (res.destroyed) return;
    if (slice >= cutAfter) return void res.destroy();
    res.write(bytes.subarray(slice * size, (slice + 1) * size));
    await nextTick();
  }
  res.end();
}
/** Sends lines until the client leaves (bounded, so a broken test cannot hang). */
async function sendEndless(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/csv' });
  for (let count = 0; count < 2000 && !res.destroyed; count++) {
    res.write(`${count},x\r\n`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  res.end();
}

const text = async (body: AsyncIterable<Uint8Array>): Promise<{ text: string; chunks: number }> => {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) {
    expect(chunk).toBeInstanceOf(Uint8Array);
    chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), chunks: chunks.length };
};

let server: RelayTestServer;
beforeAll(async () => {
  server = await startRelayTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.requests.splice(0));

describe.each([
  ['the http adapter (Node: a Readable)', undefined],
  ['the fetch adapter (browsers: a web ReadableStream)', 'fetch' as const],
])('exportLogsCsv over %s', (_name, adapter) => {
  let client: RelayClient;
  beforeAll(() => {
    client = createRelayClient({ baseUrl: `${server.baseUrl}/`, apiKey: 'sk-acct-key', axiosInstance: axios.create({ adapter }) });
  });

  it('GETs the export with the key and the filters, and yields the bytes as they come, with the file name', async () => {
    server.handle((_req, res) => sendCsv(res));

    const download = await client.exportLogsCsv({ token_id: 3, status: 200, from: '2026-01-01T00:00:00.000Z', model: 'gpt 4o' });

    expect(download).toMatchObject({ filename: 'chat-relay-logs-2026-01-31.csv', requestId: 'req_export' });
    const read = await text(download.body);
    expect(read.text).toBe(CSV);
    expect(read.chunks).toBeGreaterThan(1);
    const [seen] = server.requests;
    expect(seen?.method).toBe('GET');
    const url = new URL(seen?.url ?? '', server.baseUrl);
    expect(url.pathname).toBe('/api/logs/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({ token_id: '3', status: '200', from: '2026-01-01T00:00:00.000Z', model: 'gpt 4o' });
    expect(seen?.headers).toMatchObject({ authorization: 'Bearer sk-acct-key', accept: 'text/csv' });
  });

  it('throws the relay\'s error with its request id on a non-2xx answer, before any body', async () => {
    const forbidden = { error: { message: "An account's access key reaches only its own account's records.", type: 'permission_error', param: null, code: 'account_forbidden' } };
    server.handle((_req, res) => sendJson(res, 403, forbidden, { 'x-request-id': 'req_denied' }));

    const error: unknown = await client.exportLogsCsv({ account_id: 2 }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({ status: 403, type: 'permission_error', code: 'account_forbidden', requestId: 'req_denied' });
  });

  it('reports a transfer cut short as download_truncated, after the bytes that came', async () => {
    server.handle((_req, res) => sendCsv(res, { cutAfter: 3 }));
    const download = await client.exportLogsCsv();
    const received: Uint8Array[] = [];
    const error: unknown = await (async () => {
      for await (const chunk of download.body) received.push(chunk);
    })().catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(RelayApiError);
    expect(error).toMatchObject({ code: 'download_truncated', status: 502, requestId: 'req_export' });
    expect(CSV.startsWith(Buffer.concat(received).toString('utf8'))).toBe(true);
  });

  it('leaving the loop early closes the request', async () => {
    server.handle((_req, res) => sendEndless(res));
    const download = await client.exportLogsCsv();
    let chunks = 0;
    for await (const _chunk of download.body) if (++chunks === 2) break;

    await expect(server.requests[0]?.socketClosed).resolves.toEqual({ responseEnded: false });
  });

  it('aborting the signal mid-body rejects with the AbortError and closes the request', async () => {
    server.handle((_req, res) => sendEndless(res));
    const controller = new AbortController();
    const download = await client.exportLogsCsv({}, { signal: controller.signal });
    const reading = (async () => {
      let chunks = 0;
      for await (const _chunk of download.body) if (++chunks === 2) controller.abort();
    })();

    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await expect(server.requests[0]?.socketClosed).resolves.toEqual({ responseEnded: false });
  });
});

describe('exportLogsCsv, the rest', () => {
  const client = () => createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-acct-key' });

  it('names the file by default when the answer does not (or a browser may not read the header)', async () => {
    server.handle((_req, res) => sendCsv(res, { headers: { 'content-disposition': 'attachment' } }));
    const download = await client().exportLogsCsv();
    expect(download.filename).toBe(DEFAULT_LOGS_CSV_FILENAME);
    expect((await text(download.body)).text).toBe(CSV);
    expect(filenameOf('attachment; filename=logs.csv')).toBe('logs.csv');
    expect(filenameOf(null)).toBe(DEFAULT_LOGS_CSV_FILENAME);
  });

  it('an already aborted signal sends nothing; timeoutMs bounds the wait for the headers only', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client().exportLogsCsv({}, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);

    const impatient = createRelayClient({ baseUrl: server.baseUrl, apiKey: 'sk-acct-key', timeoutMs: 300 });
    server.handle(() => undefined);
    await expect(impatient.exportLogsCsv()).rejects.toMatchObject({ message: 'timeout of 300ms exceeded', code: 'ECONNABORTED' });
    // A body that takes longer than the timeout, headers at once: read to its end.
    server.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      for (let i = 0; i < 5; i++) {
        res.write(`${i}\r\n`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      res.end();
    });
    expect((await text((await impatient.exportLogsCsv()).body)).text).toBe('0\r\n1\r\n2\r\n3\r\n4\r\n');
  });
});
