import { redactUpstreamError, type Adjustment, type MultipartBody, type RelayError, type StreamTransformer, type UpstreamFailure, type UpstreamRequest } from '@chat-relay/wire';
import { retryAfterMsOf } from '../channels/upstream/retry-after';
import type { Readable } from 'node:stream';
import type { AbortLike } from '../core/caller-gone';
import type { StreamFraming } from './caller-dialect';
import type { LiveChannel } from '../channels/channel-registry';
import { encodeMultipart } from '../channels/upstream/encode-multipart';
import { ByteBody } from './stream/pump-byte-stream';
import { pumpSseStream, type PumpInput, type SseBody, type UpstreamPieces } from './stream/pump-sse-stream';
import type { RelayTrace } from './request-context';
import type { Logger } from '../logger';
import { firstPiece, type AttemptOutcome, type RoutingDeps } from './route-with-retries';
import { transportFailure } from '../channels/upstream/transport-failure';
import type { OpenStreams } from './stream/open-streams';
import type { UpstreamClient } from '../channels/upstream/upstream-client';
import { accountUsage, type UsageSources } from './account-usage';
import { awaitSettlement } from './settle';

export interface AttemptDeps extends Pick<RoutingDeps, 'health' | 'logger'> {
  upstream: UpstreamClient;
  /** Streams register here so a shutdown can end them properly. */
  openStreams?: OpenStreams;
}

/** The channel an attempt goes to, with the key and model name it uses there. */
export interface AttemptTarget {
  channel: LiveChannel;
  key: string;
  upstreamModel: string;
}

/**
 * One relayed call as the attempt sends it to any channel: what differs between a chat dialect,
 * an endpoint, a task submit and a single call such as count_tokens. Everything else — the key,
 * the trace, the circuit, the post, the first piece, the pump, the usage — is the attempt's.
 */
export interface UpstreamCall<R> {
  /** The model routed: each channel maps it to its own name. */
  model: string;
  /** Who is asking (`token:3`): a stream that breaks after it began is held against the channel for them. */
  caller: string;
  /** A key this channel must use (the one that created the state the request refers to); its next key otherwise. */
  pinnedKey?(channel: LiveChannel): string | undefined;
  /** A single call (count_tokens) leaves the channel's circuit alone: it is neither a trial nor evidence. */
  leavesCircuit?: true;
  /** The request for the target, and how its answer is read. Throws the caller's 400 when the provider cannot express it. */
  prepare(target: AttemptTarget): PreparedCall<R> | Promise<PreparedCall<R>>;
  /** Told, once, which channel and key an answer that reached the caller came from. */
  onServed?(served: ServedBy): void;
}

/** Where a committed answer came from. */
export interface ServedBy {
  channel: LiveChannel;
  key: string;
  /** Passed through in the caller's own dialect, not bridged through the hub. */
  native: boolean;
}

/** A failure the upstream answered with; `endpointMissing`: the channel lacks the native endpoint, try it bridged. */
export type AnsweredFailure = UpstreamFailure & { endpointMissing?: true };

export interface PreparedCall<R> {
  /** As the channel's adapter built it; its own `warnings` are the caller's to pass on in `warnings`. */
  request: UpstreamRequest;
  /** What was accepted but cannot be honoured exactly: logged. */
  warnings?: readonly Adjustment[];
  /** Passed through in the caller's dialect (for onServed). */
  native?: boolean;
  /** A non-2xx answer → its failure, the channel's keys redacted. */
  mapError(status: number, text: string): AnsweredFailure;
  /**
   * A non-2xx answer that refuses a parameter the relay may leave out (issue 28) → the same call
   * without it, posted once more on this channel before anything reached the caller; undefined
   * otherwise. The call it returns has none of its own: never more than one retry.
   */
  retryWithout?(status: number, text: string): PreparedCall<R> | undefined;
  answer: AnswerReader<R>;
}

/**
 * How a 2xx answer is read: whole (JSON or text, handed over as the bytes that came, so a large
 * answer can go out without becoming a string), as an SSE stream, or as bytes passed through.
 */
export type AnswerReader<R> =
  | { kind: 'whole'; read(body: Buffer, contentType: string | undefined): WholeAnswer<R> | Promise<WholeAnswer<R>> }
  | { kind: 'sse'; open(): OpenedStream<R> }
  | { kind: 'bytes'; usage: UsageSources; result(body: ByteBody, contentType: string): R };

export type WholeAnswer<R> =
  | {
      ok: true;
      /** Absent: the call uses nothing (a count). */
      usage?: UsageSources;
      /** What the call does once the answer is the caller's, before its usage is counted. */
      served?(): void;
      /** The answer, asked once its usage is on the trace (an endpoint shows the relay's count). */
      result(): R;
    }
  | { ok: false; error: RelayError };

/** A committed stream: how its events are turned and framed, and what its end records. */
export interface OpenedStream<R> {
  transformer: StreamTransformer;
  framing: StreamFraming;
  usage(): UsageSources;
  /** At the end, after the usage is counted (passthrough charges, created objects). */
  ended?(): void;
  result(body: SseBody): R;
  /** An answer of several model calls: the next upstream body (see PumpInput.next). */
  next?: PumpInput['next'];
}

const isMultipart = (body: UpstreamRequest['body']): body is MultipartBody =>
  typeof body === 'object' && !Buffer.isBuffer(body) && body.kind === 'multipart';

/**
 * One try of one channel, the same for every relayed call: key and model chosen, the request
 * built, the attempt marked, the post, the error mapped, the answer read — whole, or committed
 * once its first piece is in and pumped to the caller with its usage counted at the end. The one
 * place a relayed request is posted upstream; routeWithRetries decides what happens next.
 */
export async function attempt<R>(deps: AttemptDeps, channel: LiveChannel, call: UpstreamCall<R>, trace: RelayTrace, signal: AbortLike): Promise<AttemptOutcome<R>> {
  const key = call.pinnedKey?.(channel) ?? channel.nextKey();
  const upstreamModel = channel.upstreamModel(call.model);
  trace.channelId = channel.id;
  trace.upstreamModel = upstreamModel;
  // A request the provider cannot express is the caller's error (400), whichever channel.
  // Most requests are prepared at once (a chat request); one that looks something up is awaited.
  const preparing = call.prepare({ channel, key, upstreamModel });
  let prepared = preparing instanceof Promise ? await preparing : preparing;
  if (prepared.warnings?.length) {
    // A mapping that is not exact is a warning (README), with the request id to find the row by.
    deps.logger.warn({ requestId: trace.requestId, channelId: channel.id, warnings: prepared.warnings }, 'request translated with warnings');
  }
  trace.attempts += 1;
  const circuit = call.leavesCircuit ? undefined : deps.health;
  circuit?.markAttempt(channel.id);

  let response = await post(deps, channel, signal, key, prepared);
  if ('ok' in response) return response;
  if (response.statusCode >= 400 && prepared.retryWithout) {
    // A parameter the upstream refused by name, left out once (issue 28): still this attempt, before anything reached the caller.
    const status = response.statusCode;
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      return { ok: false, key, ...transportFailure(error) };
    }
    const again = prepared.retryWithout(status, text);
    if (!again) return { ok: false, key, ...prepared.mapError(status, text) };
    deps.logger.info({ requestId: trace.requestId, channelId: channel.id, status }, 'upstream refused a parameter by name; sent once more without it');
    prepared = again;
    response = await post(deps, channel, signal, key, prepared);
    if ('ok' in response) return response;
  }

  const { answer } = prepared;
  const native = prepared.native === true;
  try {
    if (response.statusCode >= 400) {
      const failure = prepared.mapError(response.statusCode, await response.body.text());
      const retryAfterMs = retryAfterMsOf(response.statusCode, (name) => response.header(name));
      return { ok: false, key, ...failure, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
    }
    if (answer.kind === 'whole') {
      const contentType = response.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      const reading = answer.read(await response.body.bytes(), contentType);
      // Most answers are read at once; one that calls the upstream again (a relay function's loop) is awaited.
      const read = reading instanceof Promise ? await reading : reading;
      // The reader knows no keys (a Gemini finishMessage may quote upstream text): redacted here.
      if (!read.ok) return { ok: false, key, error: redactUpstreamError(read.error, channel.record.keys), retryable: true, channelFault: true };
      circuit?.recordSuccess(channel.id);
      call.onServed?.({ channel, key, native });
      read.served?.();
      const counting = read.usage && accountUsage(deps.logger, trace, read.usage);
      if (counting instanceof Promise) await counting;
      return { ok: true, result: read.result() };
    }
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }

  const upstream = response.body;
  // The first piece mostly came with the head: taken at once, else awaited.
  const queued = upstream.takeQueued();
  const first = queued ? { ok: true as const, first: queued } : await firstPiece(upstream, key);
  if (!first.ok) return first;
  circuit?.recordSuccess(channel.id);
  call.onServed?.({ channel, key, native });
  // What the end of the answer needs, and nothing more: it is kept for as long as the answer
  // streams (minutes for an agent's turn), and the call, the prepared request and the pipeline
  // that made them are let go (issue 30).
  const end = new StreamEnd(deps.logger, trace, circuit, channel.id, call.caller);
  if (answer.kind === 'bytes') {
    const contentType = response.header('content-type') ?? 'application/octet-stream';
    const usage = answer.usage;
    // The upstream bills the whole input once it has started: so does the relay, even if the caller leaves.
    const onEnd = (failure: RelayError | undefined) => end.ended(failure, usage);
    const body = new ByteBody({ upstream, first: first.first, trace, signal, openStreams: deps.openStreams, logger: deps.logger, onEnd });
    return { ok: true, result: answer.result(body, contentType) };
  }
  return { ok: true, result: pumpAnswer(deps, answer.open(), end, upstream, first.first, prepared.request.framing, signal) };
}

/**
 * How a committed answer's end is recorded: its usage counted (then the row may settle), and a
 * failure after the start noted on the trace and, unless the caller left, against the channel.
 */
class StreamEnd {
  private readonly settled: () => void;

  constructor(
    private readonly logger: Logger,
    readonly trace: RelayTrace,
    private readonly circuit: AttemptDeps['health'] | undefined,
    private readonly channelId: number,
    private readonly caller: string,
  ) {
    this.settled = awaitSettlement(trace);
  }

  /** `stream.ended()` runs after the usage is counted and before a failure is noted (passthrough charges, created objects). */
  ended(failure: RelayError | undefined, usage: UsageSources, stream?: { ended?(): void }): void {
    const { trace } = this;
    // First, so the row is settled even if what follows throws (accountUsage never rejects).
    const counting = accountUsage(this.logger, trace, usage);
    if (counting instanceof Promise) void counting.finally(this.settled);
    else this.settled();
    stream?.ended?.();
    if (!failure) return;
    // Already redacted: the stream transformers redact what they take from the upstream.
    trace.errorCode = failure.code ?? failure.type;
    if (failure.status === 499) trace.statusOverride = 499;
    else this.circuit?.recordFailure(this.channelId, this.caller, false);
  }
}

/** An SSE answer pumped to the caller; its end counts the usage the stream reports then. */
function pumpAnswer<R>(
  deps: AttemptDeps,
  stream: OpenedStream<R>,
  end: StreamEnd,
  upstream: UpstreamPieces,
  first: Buffer,
  upstreamFraming: UpstreamRequest['framing'],
  signal: AbortLike,
): R {
  // Spelled out, not spread from a shared object: the spread took ~2 µs a stream in the bench's profile.
  const body = pumpSseStream({
    upstream,
    first,
    trace: end.trace,
    signal,
    openStreams: deps.openStreams,
    logger: deps.logger,
    upstreamFraming,
    transformer: stream.transformer,
    framing: stream.framing,
    next: stream.next,
    onEnd: (failure) => end.ended(failure, stream.usage(), stream),
  });
  return stream.result(body);
}

/** The one post of a prepared call: the upstream's response, or the transport failure. */
async function post(deps: AttemptDeps, channel: LiveChannel, signal: AbortLike, key: string, call: PreparedCall<unknown>) {
  try {
    const { url, method, headers, body } = bodyOf(call.request);
    return await deps.upstream.post({ channel: channel.record, key, signal, url, method, headers, body });
  } catch (error) {
    return { ok: false as const, key, ...transportFailure(error) };
  }
}

/** The request as the upstream client sends it: a multipart form encoded and streamed, a GET without a body. */
function bodyOf(request: UpstreamRequest): { url: string; method?: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string | Buffer | Readable } {
  const { url, method, headers, body } = request;
  if (method === 'GET') return { url, method, headers };
  if (!isMultipart(body)) return { url, method, headers, body };
  const encoded = encodeMultipart(body);
  return { url, method, headers: { ...headers, 'content-type': encoded.contentType, 'content-length': String(encoded.contentLength) }, body: encoded.open() };
}
