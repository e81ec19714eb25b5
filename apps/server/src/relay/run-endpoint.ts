import type { ChannelType, Endpoint } from '@chat-relay/contract';
import {
  invalidRequest,
  modelNotServedOn,
  redactUpstreamError,
  type EndpointAdapter,
  type EndpointAnswer,
  type EndpointUpstreamRequest,
  type EndpointUsage,
  type MultipartBody,
} from '@chat-relay/wire';
import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import type { AbortLike } from './caller-gone';
import { chatCompletionsDialect } from './caller-dialect';
import type { LiveChannel } from './channel-registry';
import { encodeMultipart } from './encode-multipart';
import { countCompletionTokens, estimateTokensFromChars } from './estimate-usage';
import { costBound } from './price-book';
import { ByteBody } from './pump-byte-stream';
import { pumpSseStream, type SseBody } from './pump-sse-stream';
import type { Caller, RelayTrace } from './request-context';
import { reserveAmount } from './reserve-quota';
import { resolveGizmo } from './resolve-model';
import { candidatesFor, firstPiece, routeWithRetries, type AttemptOutcome } from './route-with-retries';
import { admitCaller, callerAccountId, watchCaller, type PipelineDeps } from './run-pipeline';
import { transportFailure } from './transport-failure';

/** What a request may use at most, for the quota reservation (SPEC §8). */
export interface UsageBound {
  promptTokens: number;
  completionTokens: number;
  units: number;
  unitVariant?: string;
}

/** A request of an endpoint beside chat, as its route hands it to the pipeline. */
export interface EndpointCall<Req> {
  endpoint: Endpoint;
  /** The route, for messages (`/v1/images/edits`). */
  route: string;
  /** The caller's model, the route's default filled in where it has one. */
  model: string;
  request: Req;
  /** The caller's JSON bytes, when `request` is exactly what they parsed to. */
  rawBody?: Buffer;
  stream: boolean;
  /** How a channel of `type` is spoken to; undefined: it cannot serve this route. */
  adapterFor(type: ChannelType): EndpointAdapter<Req> | undefined;
  /** An upper bound of what the request uses, asked only when a quota applies. */
  bound(): UsageBound | Promise<UsageBound>;
  /** What the 429 tells the caller to change when the bound does not fit the quota. */
  lower: string;
  /** Streams: the prompt's text, counted when the upstream reports no usage. */
  promptText?(): string;
  /** The endpoint's units when the upstream does not say them (audio seconds of the upload). */
  estimateUnits?(): Promise<number>;
  /** Streams: whether the caller asked for the usage chunk. */
  wantsUsage?: boolean;
  /** Told which channel and key answered (a submitted task is polled with the same key). */
  onServed?(served: { channel: LiveChannel; key: string }): void;
}

export type EndpointResult =
  | { kind: 'json'; body: Record<string, unknown>; text?: string }
  | { kind: 'text'; contentType: string; text: string }
  | { kind: 'stream'; body: SseBody }
  | { kind: 'bytes'; contentType: string; body: ByteBody };

const isMultipart = (body: EndpointUpstreamRequest['body']): body is MultipartBody =>
  typeof body === 'object' && !Buffer.isBuffer(body) && body.kind === 'multipart';

/**
 * Every endpoint beside chat runs this (SPEC §7a): the same admission (policy, gizmo names
 * resolved to their family), the quota reserved for the endpoint's own bound, routing with
 * retries and the circuit breaker, one usage row with the endpoint's units. The route contributes
 * its schema, its adapters and its bound — nothing else.
 */
export async function runEndpoint<Req>(deps: PipelineDeps, req: Request, res: Response, call: EndpointCall<Req>): Promise<EndpointResult> {
  const { trace, caller } = await admitCaller(deps, req, res, call.model, call.stream);
  return serveEndpoint(deps, { trace, caller, signal: () => watchCaller(res, trace) }, call);
}

/** Who a call is served for: its trace (what becomes its usage row), its caller, and what aborts it. */
export interface EndpointServing {
  trace: RelayTrace;
  caller: Caller | undefined;
  /** Asked once the quota is reserved: aborted when the caller goes away. */
  signal(): AbortLike;
}

/**
 * The endpoint pipeline after admission: the model resolved (a gizmo name selects its family),
 * channels serving it on the endpoint, the quota reserved for the call's bound, routing with
 * retries. Fills in `trace` as it goes; the caller writes its usage row. Also what the relay runs
 * on a caller's behalf inside another request (the hosted web search of a bridged Response).
 */
export async function serveEndpoint<Req>(deps: PipelineDeps, { trace, caller, signal: watch }: EndpointServing, call: EndpointCall<Req>): Promise<EndpointResult> {
  const gizmo = await resolveGizmo(deps, call.model, callerAccountId(caller));
  // A custom assistant's instructions and tools are for chat; here its name selects its family.
  const model = gizmo?.family ?? call.model;
  trace.assistantId = gizmo?.assistant.id ?? null;
  trace.pricedModel = model;
  const candidates = (await candidatesFor(deps.registry, model, call.endpoint)).filter((channel) => call.adapterFor(channel.record.type));
  if (candidates.length === 0) throw modelNotServedOn(model, `${call.endpoint} (${call.route})`, []);
  if (caller?.kind === 'token') {
    const bound = await call.bound();
    const price = await deps.prices.priceOf(model);
    const units = { endpoint: call.endpoint, units: bound.units, unitVariant: bound.unitVariant };
    trace.quotaReserved = await reserveAmount(deps, caller.token, trace.requestId, costBound(price, bound.promptTokens, bound.completionTokens, units), call.lower);
  }
  const signal = watch();
  const who = caller?.kind === 'token' ? `token:${caller.token.id}` : `account:${callerAccountId(caller)}`;
  return routeWithRetries(
    deps,
    {
      candidates,
      model,
      caller: who,
      countsAgainstChannel: (failure) => failure.channelFault,
      attempt: (channel) => attemptEndpoint(deps, channel, call, { model, who }, trace, signal),
    },
    trace,
    signal,
  );
}

async function attemptEndpoint<Req>(
  deps: PipelineDeps,
  channel: LiveChannel,
  call: EndpointCall<Req>,
  { model, who }: { model: string; who: string },
  trace: RelayTrace,
  signal: AbortLike,
): Promise<AttemptOutcome<EndpointResult>> {
  const adapter = call.adapterFor(channel.record.type);
  if (!adapter) throw new Error(`channel ${channel.id} was routed a request it cannot take`);
  if (call.stream && !adapter.createStreamTransformer) {
    throw invalidRequest(`stream is not available for ${call.route} through this relay; leave it out.`, 'stream', 'unsupported_parameter');
  }
  const key = channel.nextKey();
  const upstreamModel = channel.upstreamModel(model);
  trace.channelId = channel.id;
  trace.upstreamModel = upstreamModel;
  // A request the provider cannot express is the caller's error (400), whichever channel.
  const built = adapter.buildRequest({ channel: channel.record, key, request: call.request, upstreamModel, rawBody: call.rawBody });
  if (built.warnings?.length) {
    deps.logger.info({ requestId: trace.requestId, channelId: channel.id, warnings: built.warnings }, 'request translated with warnings');
  }
  trace.attempts += 1;
  deps.health.markAttempt(channel.id);
  const secrets = channel.record.keys;

  let response;
  try {
    let { headers } = built;
    let body: string | Buffer | Readable;
    if (isMultipart(built.body)) {
      const encoded = encodeMultipart(built.body);
      headers = { ...headers, 'content-type': encoded.contentType, 'content-length': String(encoded.contentLength) };
      body = encoded.open();
    } else {
      body = built.body;
    }
    response = await deps.upstream.post({ channel: channel.record, url: built.url, method: built.method, headers, body: built.method === 'GET' ? undefined : body, signal });
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }

  try {
    if (response.statusCode >= 400) {
      // Each adapter's error mapper redacts the channel's keys from every field it builds.
      return { ok: false, key, ...adapter.mapErrorResponse(response.statusCode, await response.body.text(), secrets) };
    }
    if (!call.stream && !adapter.binary) {
      const contentType = response.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      const answer = adapter.convertResponse(await response.body.text(), { request: call.request, publicModel: call.model, contentType });
      if (!answer.ok) return { ok: false, key, error: redactUpstreamError(answer.error, secrets), retryable: true, channelFault: true };
      deps.health.recordSuccess(channel.id);
      await recordEndpointUsage(deps, trace, call, answer.usage);
      call.onServed?.({ channel, key });
      return { ok: true, result: resultOf(answer, trace, answer.usage) };
    }
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }

  const upstream = response.body;
  const first = await firstPiece(upstream, key);
  if (!first.ok) return first;
  deps.health.recordSuccess(channel.id);
  let settle: () => void = () => undefined;
  trace.settled = new Promise((resolve) => (settle = resolve));
  const ended = (failure: { code: string | null; type: string; status: number } | undefined) => {
    if (!failure) return;
    trace.errorCode = failure.code ?? failure.type;
    if (failure.status === 499) trace.statusOverride = 499;
    else deps.health.recordFailure(channel.id, who, false);
  };

  if (adapter.binary) {
    // The upstream bills the whole input once it has started: so does the relay, even if the caller leaves.
    const usage = adapter.binary.usage(call.request);
    const contentType = response.header('content-type') ?? 'application/octet-stream';
    const body = new ByteBody({
      upstream,
      first: first.first,
      trace,
      signal,
      openStreams: deps.openStreams,
      logger: deps.logger,
      onEnd: (failure) => {
        ended(failure);
        void recordEndpointUsage(deps, trace, call, usage).finally(settle);
      },
    });
    return { ok: true, result: { kind: 'bytes', contentType, body } };
  }

  if (!adapter.createStreamTransformer) throw new Error('a stream was committed without a transformer');
  const transformer = adapter.createStreamTransformer({ publicModel: call.model, callerWantsUsage: call.wantsUsage === true, secrets });
  const body = pumpSseStream({
    upstream,
    first: first.first,
    transformer,
    framing: chatCompletionsDialect.framing,
    trace,
    signal,
    openStreams: deps.openStreams,
    logger: deps.logger,
    onEnd: (failure) => {
      ended(failure);
      const usage = transformer.usage;
      void recordStreamUsage(deps, trace, call, usage, () => transformer.deliveredText).finally(settle);
    },
  });
  return { ok: true, result: { kind: 'stream', body } };
}

/** The answer as the caller gets it: a usage the relay counted itself is shown in the body too. */
function resultOf(answer: Extract<EndpointAnswer, { ok: true }>, trace: RelayTrace, usage: EndpointUsage): EndpointResult {
  if (answer.kind === 'text') return { kind: 'text', contentType: answer.contentType, text: answer.text };
  const shown = usage.uncountedText === undefined ? undefined : answer.body['usage'];
  if (typeof shown === 'object' && shown !== null && 'prompt_tokens' in shown) {
    const body = { ...answer.body, usage: { ...shown, prompt_tokens: trace.promptTokens, total_tokens: trace.promptTokens } };
    return { kind: 'json', body };
  }
  if (answer.text === undefined) return { kind: 'json', body: answer.body };
  // The upstream's text goes out as it is; its object is read only if asked for (a large answer parses lazily).
  return {
    kind: 'json',
    text: answer.text,
    get body() {
      return answer.body;
    },
  };
}

/** Tokens of text the upstream did not count, with the relay's tokenizer; from its length if that fails. */
async function countText(deps: PipelineDeps, trace: RelayTrace, text: string): Promise<number> {
  try {
    return await countCompletionTokens(text);
  } catch (error) {
    deps.logger.error({ requestId: trace.requestId, err: error }, 'token counting failed; charging an estimate from lengths');
    return estimateTokensFromChars(text.length);
  }
}

/** The upstream's usage onto the trace; what it did not report is counted and marked estimated. Never rejects. */
async function recordEndpointUsage<Req>(deps: PipelineDeps, trace: RelayTrace, call: EndpointCall<Req>, usage: EndpointUsage): Promise<void> {
  trace.promptTokens = usage.promptTokens;
  trace.completionTokens = usage.completionTokens;
  trace.units = usage.units;
  trace.unitVariant = usage.unitVariant ?? null;
  if (usage.estimated) trace.usageEstimated = true;
  if (usage.uncountedText !== undefined) {
    trace.promptTokens += await countText(deps, trace, usage.uncountedText);
    trace.usageEstimated = true;
  }
  if (usage.unitsUnknown && call.estimateUnits) {
    try {
      trace.units = await call.estimateUnits();
    } catch (error) {
      deps.logger.error({ requestId: trace.requestId, err: error }, 'could not estimate the units of an upload');
    }
    trace.usageEstimated = true;
  }
}

/** A stream's usage: the upstream's, else the prompt and what was delivered, counted. Never rejects. */
async function recordStreamUsage<Req>(
  deps: PipelineDeps,
  trace: RelayTrace,
  call: EndpointCall<Req>,
  usage: { promptTokens: number; completionTokens: number; completionUnknown?: true } | undefined,
  deliveredText: () => string,
): Promise<void> {
  if (usage) {
    trace.promptTokens = usage.promptTokens;
    trace.completionTokens = usage.completionTokens;
    if (!usage.completionUnknown) return;
  }
  trace.usageEstimated = true;
  if (!usage) trace.promptTokens = await countText(deps, trace, call.promptText?.() ?? '');
  trace.completionTokens = await countText(deps, trace, deliveredText());
}
