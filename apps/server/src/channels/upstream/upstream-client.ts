import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
// undici's own files for these two, not its index (undici-parts.d.ts says why).
import Agent from 'undici/lib/dispatcher/agent';
import errors from 'undici/lib/core/errors';
import type { ChannelRecord } from '../../storage/types';
import type { AbortLike } from '../../core/caller-gone';
import { encodeInSlices, LARGE_TEXT_UNITS } from './encode-in-slices';
import { UpstreamBody, type AbortableCall } from './upstream-body';
import type { CloudAuth } from '../cloud/cloud-auth';
import { isCloudType } from '../cloud/cloud-channel';

export interface UpstreamCall {
  channel: ChannelRecord;
  url: string;
  headers: Record<string, string>;
  /** Absent for a GET or DELETE; a stream for an upload (sent as it is read). */
  body?: string | Buffer | Readable;
  signal: AbortLike;
  /** POST when absent: every relayed call is one; GET and DELETE reach stored upstream state. */
  method?: 'POST' | 'GET' | 'DELETE';
  /**
   * The channel key the call was built with: required for a cloud channel (`azure`, `bedrock`,
   * `vertex`), whose credential is applied here — signed or a minted bearer (CloudAuth).
   */
  key?: string;
}

/** The upstream answer's headers the relay reads; no other is kept. */
export type UpstreamHeaderName = 'content-type' | 'content-length' | 'retry-after' | 'retry-after-ms';

export interface UpstreamResponse {
  statusCode: number;
  body: UpstreamBody;
  /** A response header's value (the first one, when repeated). */
  header(name: UpstreamHeaderName): string | undefined;
}

type UpstreamHeaders = Partial<Record<UpstreamHeaderName, string>>;

const isReadHeader = (name: string): name is UpstreamHeaderName =>
  name === 'content-type' || name === 'content-length' || name === 'retry-after' || name === 'retry-after-ms';

/**
 * The headers the relay reads, out of undici's raw ones (name, value, name, value…), taken at
 * once: the raw ones are views of the socket's read buffer, and a stream that kept them kept
 * that buffer (~2.3 KB a stream in a heap snapshot of 2,000 open streams). Only names of a
 * read header's length are decoded.
 */
function readHeaders(raw: Buffer[] | string[] | null | undefined): UpstreamHeaders {
  const headers: UpstreamHeaders = {};
  if (!raw) return headers;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const key = raw[index];
    if (key === undefined || key.length < 11 || key.length > 14) continue;
    const name = key.toString().toLowerCase();
    if (isReadHeader(name)) headers[name] ??= raw[index + 1]?.toString();
  }
  return headers;
}

/** `origin` and `path` of a URL, parsed once per distinct URL (channels have a handful). */
const targets = new Map<string, { origin: string; path: string }>();

function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= 1000) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/**
 * Keep-alive connection pools to upstreams: one undici Agent per channel (so each channel's
 * connect timeout applies), reused across requests, replaced when the channel changes.
 *
 * Requests go through undici's `dispatch` with a handler of our own rather than `request()`:
 * no Readable, AsyncResource or URL object per call — the answer's bytes land in an
 * UpstreamBody queue as they arrive.
 */
export class UpstreamClient {
  /** Each channel's pool, with what it was made for: a channel edited since (or its connect timeout) gets a new one. */
  private readonly agents = new Map<number, { agent: Agent; updatedAt: string; connectMs: number }>();

  constructor(private readonly cloud?: CloudAuth) {}

  post(call: UpstreamCall): Promise<UpstreamResponse> {
    if (isCloudType(call.channel.type)) return this.postToCloud(call);
    return this.send(call);
  }

  /** A cloud channel's call: its credential applied over the exact bytes sent, or the cloud's refusal of it answered as the call's. */
  private async postToCloud(call: UpstreamCall): Promise<UpstreamResponse> {
    if (!this.cloud) throw new Error('this upstream client has no cloud credentials step');
    if (call.key === undefined) throw new Error(`a call to ${call.channel.type} channel ${call.channel.id} must name its key`);
    const signed = { ...call, key: call.key };
    const response = await this.sendAuthorized(this.cloud, signed);
    if (response.statusCode !== 401 || response.bearer === undefined) return response;
    // A minted bearer the cloud no longer takes says nothing of the credential (that is checked when
    // minting): minted afresh and sent once more, rather than the key disabled for a stale token.
    await response.body.text().catch(() => undefined);
    this.cloud.refused(call.key, response.bearer);
    return this.sendAuthorized(this.cloud, signed);
  }

  private async sendAuthorized(cloud: CloudAuth, call: UpstreamCall & { key: string }): Promise<UpstreamResponse & { bearer?: string }> {
    const authorized = await cloud.authorize(call.channel, call.key, { method: call.method ?? 'POST', url: call.url, headers: call.headers, body: call.body });
    if (!authorized.ok) return answered(authorized.status, authorized.body);
    const response = await this.send(authorized.headers ? { ...call, headers: { ...call.headers, ...authorized.headers } } : call);
    if (authorized.bearer === undefined) return response;
    // Not a spread: the answer's `header` is a method of its class.
    return { statusCode: response.statusCode, body: response.body, header: (name) => response.header(name), bearer: authorized.bearer };
  }

  private send(call: UpstreamCall): Promise<UpstreamResponse> {
    // undici would encode a large text body in one go (~2 ms a MB): done here a slice per turn, and sent as its pieces.
    if (typeof call.body === 'string' && call.body.length >= LARGE_TEXT_UNITS) {
      return encodeInSlices(call.body).then((pieces) => dispatchCall(this.agentFor(call.channel), dispatchOptions(call, pieces), call.signal));
    }
    const large = largeBytes(call.body);
    // Nothing of `call` is kept past this point: the handler lives as long as the answer does.
    return dispatchCall(this.agentFor(call.channel), dispatchOptions(call, large && [large]), call.signal);
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map(({ agent }) => agent.close()));
  }

  private agentFor(channel: ChannelRecord): Agent {
    // Compared field by field: no key string built on every call.
    const { updatedAt } = channel;
    const connectMs = channel.timeouts.connectMs;
    const existing = this.agents.get(channel.id);
    if (existing && existing.updatedAt === updatedAt && existing.connectMs === connectMs) return existing.agent;
    if (existing) void existing.agent.close();
    const agent = new Agent({
      connect: { timeout: channel.timeouts.connectMs },
      // No cap per origin: every concurrent caller stream needs its own upstream socket.
      connections: null,
      pipelining: 1,
    });
    this.agents.set(channel.id, { agent, updatedAt, connectMs });
    return agent;
  }
}

const noop = () => undefined;

/** A body this large is handed to undici as pieces it lets go of once written (lettingGo). */
export const LET_GO_BYTES = 64 * 1024;

/**
 * undici keeps a request's body (a string made into a Buffer) until the answer has ended, and an
 * answer streamed to a coding agent can last minutes while its request is ~100 KB. A large body is
 * handed over as bytes undici lets go of once written (lettingGo); a smaller one as it is.
 */
function largeBytes(body: UpstreamCall['body']): Buffer | undefined {
  if (typeof body === 'string') return body.length >= LET_GO_BYTES ? Buffer.from(body, 'utf8') : undefined;
  return Buffer.isBuffer(body) && body.length >= LET_GO_BYTES ? body : undefined;
}

/** The body's pieces, each let go once undici has taken it. Read once: every send makes its own. */
async function* lettingGo(pieces: Buffer[]): AsyncGenerator<Buffer> {
  while (pieces.length > 0) {
    const piece = pieces.shift();
    if (piece) yield piece;
  }
}

/** What undici is asked: with `pieces`, the body is those bytes, let go of once written. */
function dispatchOptions(call: UpstreamCall, pieces: Buffer[] | undefined): Dispatcher.DispatchOptions {
  const { origin, path } = targetOf(call.url);
  return {
    origin,
    path,
    method: call.method ?? 'POST',
    headers: pieces ? withLength(call.headers, pieces) : call.headers,
    // undici takes an async iterable as a body (docs/docs/api/Dispatcher.md); its types leave it out.
    body: pieces ? (lettingGo(pieces) as unknown as Readable) : (call.body ?? null),
    headersTimeout: call.channel.timeouts.firstByteMs,
    bodyTimeout: call.channel.timeouts.idleMs,
  };
}

function withLength(headers: Record<string, string>, pieces: readonly Buffer[]): Record<string, string> {
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  return { ...headers, 'content-length': String(length) };
}

/**
 * One call through undici's `dispatch`: the answer once its headers are in, its body read as it
 * arrives. The handler keeps only what the answer needs.
 */
function dispatchCall(agent: Agent, options: Dispatcher.DispatchOptions, signal: AbortLike): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new errors.RequestAbortedError());
    agent.dispatch(options, new CallHandler(signal, resolve, reject));
  });
}

/**
 * undici's handler of one call, and the call its body can stop. An object rather than a closure
 * per callback: it lives as long as the answer streams (issue 30: a closure each and their shared
 * context were ~0.7 KB of every open stream).
 */
class CallHandler implements Dispatcher.DispatchHandler, AbortableCall {
  private abortCall: ((error: Error) => void) | undefined;
  private pendingAbort: Error | undefined;
  private resumeUpstream: () => void = noop;
  private body: UpstreamBody | undefined;
  /** Until the headers are in: then the answer is handed over, or the call's failure. */
  private waiting: { resolve(response: UpstreamResponse): void; reject(error: Error): void } | undefined;
  private readonly onSignal = () => this.abort(new errors.RequestAbortedError());

  constructor(
    private readonly signal: AbortLike,
    resolve: (response: UpstreamResponse) => void,
    reject: (error: Error) => void,
  ) {
    this.waiting = { resolve, reject };
    signal.addEventListener('abort', this.onSignal, { once: true });
  }

  abort(error: Error): void {
    if (this.abortCall) this.abortCall(error);
    else this.pendingAbort = error;
  }

  onConnect(abortRequest: (error: Error) => void): void {
    this.abortCall = abortRequest;
    if (this.pendingAbort) abortRequest(this.pendingAbort);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null, resume: () => void): boolean {
    // 1xx informational answers carry no body; the final status follows.
    if (statusCode < 200) return true;
    this.resumeUpstream = resume;
    const body = new UpstreamBody(this);
    this.body = body;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(new ReceivedAnswer(statusCode, body, readHeaders(rawHeaders)));
    return true;
  }

  onData(chunk: Buffer): boolean {
    return this.body?.push(chunk, this.resumeUpstream) ?? true;
  }

  onComplete(): void {
    this.settled();
    this.body?.end();
  }

  onError(error: Error): void {
    this.settled();
    if (this.body) this.body.fail(error);
    else this.waiting?.reject(error);
    this.waiting = undefined;
  }

  private settled(): void {
    this.signal.removeEventListener('abort', this.onSignal);
  }
}

/** An upstream's answer as its headers arrived: the few headers read, and its body to come. */
class ReceivedAnswer implements UpstreamResponse {
  constructor(
    readonly statusCode: number,
    readonly body: UpstreamBody,
    private readonly headers: UpstreamHeaders,
  ) {}

  header(name: UpstreamHeaderName): string | undefined {
    return this.headers[name];
  }
}

const stopsNothing: AbortableCall = { abort: noop };

/** An answer made here, as if the upstream had given it (a cloud refusing the credential before any call). */
function answered(statusCode: number, text: string): UpstreamResponse {
  const body = new UpstreamBody(stopsNothing);
  body.push(Buffer.from(text), noop);
  body.end();
  return { statusCode, body, header: (name) => (name === 'content-type' ? 'application/json' : undefined) };
}

/** What went wrong on the way to an upstream, in routing terms. */
export type TransportFailure = 'timeout' | 'unreachable' | 'connection' | 'aborted';

export function classifyTransportError(error: unknown): TransportFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') return 'aborted';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return 'timeout';
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') {
    return 'unreachable';
  }
  return 'connection';
}
