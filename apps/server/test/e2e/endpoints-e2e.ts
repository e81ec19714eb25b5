import Database from 'better-sqlite3';
import http from 'node:http';
import path from 'node:path';
import { CHANNEL_TYPE_ENDPOINTS, type Channel, type Endpoint, type Price } from '@chat-relay/contract';
import type { RecordedRequest, UpstreamSim, UpstreamSimOptions } from '@chat-relay/upstream-sim';
import { SQLITE_FILE_NAME } from '../../src/storage/sqlite/open-sqlite';
import type { TestRelayOptions } from '../testing/test-relay';
import { startE2eRelay, type ChannelInput, type E2eRelay } from './e2e-relay';

/** Every endpoint an `openai` channel can serve, `rerank` included (never a default): a channel that serves them all. */
export const ALL_ENDPOINTS: readonly Endpoint[] = CHANNEL_TYPE_ENDPOINTS.openai;

/** The OpenAI error body every refusal carries. */
export interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** An answer read whole: status, headers, the bytes, and the body as JSON when it is. */
export interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: unknown;
  requestId: string;
}

export interface EndpointsE2e extends E2eRelay {
  sim: UpstreamSim;
  channel: Channel;
  /** `POST {url}{route}` with the token and a JSON body (a string is sent as it is). */
  postJson(route: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** `POST {url}{route}` with the token and a multipart form. */
  postForm(route: string, form: FormData): Promise<Answer>;
  /** The admin API: `{method} {url}{route}` with the admin key. */
  admin(method: string, route: string, body?: unknown): Promise<Answer>;
  /** `PUT /api/prices` (200 asserted). */
  setPrices(prices: Price[]): Promise<void>;
  /** Sets the token's quota limit and zeroes what it used. */
  setQuota(limit: number | null): Promise<void>;
  quotaUsed(): Promise<number>;
  /** Quota reservations no usage row has settled yet, read from the relay's database. */
  openReservations(): number;
}

async function read(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, bytes, json, requestId: response.headers.get('x-request-id') ?? '' };
}

/** The simulator's requests that are model calls (any POST), not model listings. */
export const modelCalls = (sim: UpstreamSim): RecordedRequest[] => sim.requests.filter((request) => request.method === 'POST');

/** The error of a 4xx answer, asserted to be in OpenAI's shape (`{"error": {…}}` and nothing else). */
export function errorOf(answer: Pick<Answer, 'status' | 'json'>): OpenAiError['error'] {
  const body = answer.json as OpenAiError | undefined;
  if (!body || typeof body.error !== 'object' || typeof body.error.message !== 'string') {
    throw new Error(`not an OpenAI error body (${answer.status}): ${JSON.stringify(answer.json)?.slice(0, 300)}`);
  }
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.type).toBe('string');
  expect(body.error.param === null || typeof body.error.param === 'string').toBe(true);
  return body.error;
}

/**
 * A relay with one simulator behind one `openai` channel: every model (`*`) and, unless `channel`
 * says otherwise, every endpoint (rerank too).
 */
export async function startEndpointsRelay(
  channel: ChannelInput = {},
  options: TestRelayOptions = {},
  simOptions: UpstreamSimOptions = {},
): Promise<EndpointsE2e> {
  const e2e = await startE2eRelay(options);
  const sim = await e2e.startSim(simOptions);
  const created = await e2e.addChannel(sim.baseUrl, { models: ['*'], endpoints: [...ALL_ENDPOINTS], ...channel });
  const bearer = { authorization: `Bearer ${e2e.token}` };
  const adminHeaders = { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' };
  const db = new Database(path.join(e2e.relay.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });

  const admin = async (method: string, route: string, body?: unknown) =>
    read(await fetch(`${e2e.url}${route}`, { method, headers: adminHeaders, body: body === undefined ? undefined : JSON.stringify(body) }));

  return {
    ...e2e,
    sim,
    channel: created,
    postJson: async (route, body, headers = {}) =>
      read(
        await fetch(`${e2e.url}${route}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    postForm: async (route, form) => read(await fetch(`${e2e.url}${route}`, { method: 'POST', headers: bearer, body: form })),
    admin,
    setPrices: async (prices) => {
      const answer = await admin('PUT', '/api/prices', { data: prices });
      if (answer.status !== 200) throw new Error(`PUT /api/prices answered ${answer.status}: ${answer.bytes.toString('utf8')}`);
    },
    setQuota: async (quotaLimit) => {
      await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit, quotaUsed: 0 });
    },
    quotaUsed: async () => {
      const token = await e2e.relay.storage.tokens.get(e2e.tokenId);
      if (!token) throw new Error(`token ${e2e.tokenId} is gone`);
      return token.quotaUsed;
    },
    openReservations: () => (db.prepare('SELECT COUNT(*) AS n FROM quota_reservations').get() as { n: number }).n,
    close: async () => {
      db.close();
      await e2e.close();
    },
  };
}

/** A multipart form of `fields` and files (`[field, bytes, filename, type]`). */
export function formOf(fields: Record<string, string>, files: Array<[string, Buffer, string, string]> = []): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [field, bytes, filename, type] of files) form.append(field, new Blob([bytes], { type }), filename);
  return form;
}

/** What an upload that never stops on its own got back. */
export interface EndlessUploadAnswer {
  status: number;
  body: string;
  /** Bytes of the body written before the answer came. */
  sent: number;
  requestId: string;
}

/**
 * A multipart upload of a file that keeps coming (64 KiB every 5 ms, up to `maxBytes`), chunked
 * or with a declared `content-length` of `declaredLength`: resolves with the answer as soon as it
 * arrives — a relay that waited for the whole body would only answer at `maxBytes`, or never
 * when the declared length is never reached.
 */
export function endlessUpload(
  url: string,
  route: string,
  token: string,
  {
    declaredLength,
    maxBytes = 64 * 1024 * 1024,
    fields = { model: 'whisper-1' },
    fileField = 'file',
  }: { declaredLength?: number; maxBytes?: number; fields?: Record<string, string>; fileField?: string },
): Promise<EndlessUploadAnswer> {
  const boundary = 'endless-upload-boundary';
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\ncontent-disposition: form-data; name="${fileField}"; filename="long.wav"\r\ncontent-type: audio/wav\r\n\r\n`,
  );
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (declaredLength !== undefined) headers['content-length'] = String(declaredLength);
  return new Promise((resolve, reject) => {
    const target = new URL(route, url);
    const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers });
    let sent = 0;
    const write = (bytes: Buffer) => {
      sent += bytes.length;
      request.write(bytes);
    };
    request.on('error', (error) => {
      clearInterval(timer);
      reject(error);
    });
    request.on('response', (response) => {
      clearInterval(timer);
      const sentThen = sent;
      let body = '';
      response.setEncoding('utf8').on('data', (piece: string) => (body += piece));
      response.on('end', () => {
        request.destroy();
        const requestId = response.headers['x-request-id'];
        resolve({ status: response.statusCode ?? 0, body, sent: sentThen, requestId: typeof requestId === 'string' ? requestId : '' });
      });
    });
    write(head);
    const chunk = Buffer.alloc(64 * 1024, 7);
    const timer = setInterval(() => {
      if (sent + chunk.length > maxBytes || request.destroyed) return clearInterval(timer);
      write(chunk);
    }, 5);
  });
}
