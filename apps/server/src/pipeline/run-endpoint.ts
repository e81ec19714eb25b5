import type { ChannelType, Endpoint } from '@chat-relay/contract';
import { invalidRequest, modelNotServedOn, type EndpointAdapter, type EndpointAnswer, type EndpointUsage, type ReportedUsage } from '@chat-relay/wire';
import type { Request, Response } from 'express';
import type { UsageSources } from './account-usage';
import { attempt, type AnswerReader, type UpstreamCall } from './attempt';
import type { AbortLike } from '../core/caller-gone';
import { chatCompletionsDialect } from './caller-dialect';
import type { LiveChannel } from '../channels/channel-registry';
import { countCompletionTokens, estimateTokensFromChars } from '../billing/estimate-usage';
import { costBound } from '../billing/price-book';
import type { ByteBody } from './stream/pump-byte-stream';
import type { SseBody } from './stream/pump-sse-stream';
import type { RelayTrace } from './request-context';
import type { Caller } from '../auth/caller';
import { reserveAmount } from './reserve-quota';
import { reservesQuota } from '../policy/periodic-limits';
import { priceCandidates } from './price-candidates';
import { resolveGizmo } from './resolve-model';
import { candidatesFor } from '../channels/candidates-for';
import { routeWithRetries } from './route-with-retries';
import { admitCaller, callerAccountId, watchCaller, type PipelineDeps } from './run-pipeline';

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
  | { kind: 'json'; body: Record<string, unknown>; text?: string | Buffer }
  | { kind: 'text'; contentType: string; text: string }
  | { kind: 'stream'; body: SseBody }
  | { kind: 'bytes'; contentType: string; body: ByteBody };

/**
 * Every endpoint beside chat runs this (SPEC §7a): the same admission (policy, gizmo names
 * resolved to their family), the same pricing (an unpriced model refused), the quota reserved for the endpoint's own bound, routing with
 * retries and the circuit breaker, one usage row with the endpoint's units. The route contributes
 * its schema, its adapters and its bound — nothing else.
 */
export async function runEndpoint<Req>(deps: PipelineDeps, req: Request, res: Response, call: EndpointCall<Req>): Promise<EndpointResult> {
  const { trace, caller } = admitCaller(deps, req, res, call.model, call.stream);
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
  // Priced by the model each candidate would send upstream; an unpriced one is refused here.
  const prices = await priceCandidates(deps, model, call.endpoint, candidates);
  if (caller?.kind === 'token' && prices.length > 0 && reservesQuota(caller.token)) {
    const bound = await call.bound();
    const units = { endpoint: call.endpoint, units: bound.units, unitVariant: bound.unitVariant };
    const amount = Math.max(...prices.map(({ applied }) => costBound(applied.price, bound.promptTokens, bound.completionTokens, units)));
    // A window's token limit counts what the endpoint can bound in tokens (0 for one priced by units alone).
    const held = await reserveAmount(deps, caller.token, trace.requestId, { amount, tokens: bound.promptTokens + bound.completionTokens }, call.lower);
    trace.quotaReserved = held.amount;
    trace.windowsReserved = held.windowsReserved;
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
      attempt: (channel) => attempt(deps, channel, endpointCall(call, adapterOf(call, channel), model, who, trace), trace, signal),
    },
    trace,
    signal,
  );
}

/** The endpoint's call for one channel: its adapter's request, and its answer read as JSON or text, a stream or bytes. */
/** How the channel is spoken to on the call's endpoint; refused before a key is chosen when it cannot stream the call. */
function adapterOf<Req>(call: EndpointCall<Req>, channel: LiveChannel): EndpointAdapter<Req> {
  const adapter = call.adapterFor(channel.record.type);
  if (!adapter) throw new Error(`channel ${channel.id} was routed a request it cannot take`);
  if (call.stream && !adapter.createStreamTransformer) {
    throw invalidRequest(`stream is not available for ${call.route} through this relay; leave it out.`, 'stream', 'unsupported_parameter');
  }
  return adapter;
}

function endpointCall<Req>(call: EndpointCall<Req>, adapter: EndpointAdapter<Req>, model: string, who: string, trace: RelayTrace): UpstreamCall<EndpointResult> {
  const usageOf = (reported: ReportedUsage | undefined, deliveredText: () => string = () => ''): UsageSources => {
    // A stream's prompt is counted from the call's own text when its upstream reports no usage.
    const promptText = () => call.promptText?.() ?? '';
    return {
      reported,
      countPrompt: () => countCompletionTokens(promptText()),
      roughPrompt: () => estimateTokensFromChars(promptText().length),
      deliveredText,
      estimateUnits: call.estimateUnits,
    };
  };
  return {
    model,
    caller: who,
    onServed: call.onServed,
    prepare: ({ channel, key, upstreamModel }) => {
      const secrets = channel.record.keys;
      const built = adapter.buildRequest({ channel: channel.record, key, request: call.request, upstreamModel, rawBody: call.rawBody });
      return {
        request: built,
        warnings: built.warnings,
        // Each adapter's error mapper redacts the channel's keys from every field it builds.
        mapError: (status, text) => adapter.mapErrorResponse(status, text, secrets, upstreamModel),
        answer: endpointAnswer(adapter, call, secrets, trace, usageOf),
      };
    },
  };
}

function endpointAnswer<Req>(
  adapter: EndpointAdapter<Req>,
  call: EndpointCall<Req>,
  secrets: readonly string[],
  trace: RelayTrace,
  usageOf: (reported: ReportedUsage | undefined, deliveredText?: () => string) => UsageSources,
): AnswerReader<EndpointResult> {
  if (adapter.binary) {
    // The upstream bills the whole input once it has started: so does the relay, even if the caller leaves.
    const usage = usageOf(adapter.binary.usage(call.request));
    return { kind: 'bytes', usage, result: (body, contentType) => ({ kind: 'bytes', contentType, body }) };
  }
  const { createStreamTransformer } = adapter;
  if (call.stream && createStreamTransformer) {
    return {
      kind: 'sse',
      open: () => {
        const transformer = createStreamTransformer({ publicModel: call.model, callerWantsUsage: call.wantsUsage === true, secrets });
        return {
          transformer,
          framing: chatCompletionsDialect.framing,
          usage: () => usageOf(transformer.usage, () => transformer.deliveredText),
          result: (body) => ({ kind: 'stream', body }),
        };
      },
    };
  }
  return {
    kind: 'whole',
    read: (bytes, contentType) => {
      const context = { request: call.request, publicModel: call.model, contentType };
      const answer = adapter.convertLargeResponse?.(bytes, context) ?? adapter.convertResponse(bytes.toString('utf8'), context);
      if (!answer.ok) return answer;
      return { ok: true, usage: usageOf(answer.usage), result: () => resultOf(answer, trace, answer.usage) };
    },
  };
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
  // The upstream's text or bytes go out as they are; its object is read only if asked for (a large answer parses lazily).
  return {
    kind: 'json',
    text: answer.text,
    get body() {
      return answer.body;
    },
  };
}
