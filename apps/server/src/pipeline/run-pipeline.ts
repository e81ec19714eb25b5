import { MODELS_TRIED_HEADER, SERVED_MODEL_HEADER, type ChatCompletionRequest, type FallbackTrigger } from '@chat-relay/contract';
import { ADJUSTED_HEADER, invalidRequest, RelayError, type Adjustment } from '@chat-relay/wire';
import type { Request, Response } from 'express';
import { assertModelAllowed } from '../policy/enforce-token-policy';
import type { RateLimiter } from '../policy/rate-limiter';
import type { AssistantRecord, AssistantStore } from '../storage/types';
import type { CallerDialect } from './caller-dialect';
import { CallerGone } from '../core/caller-gone';
import { passthroughBound, planPassthrough, type PassthroughDeps, type PassthroughPlan } from './passthrough/plan-passthrough';
import { buildChain, chainFieldsOf, type FallbackChain, type FallbackRuleSource } from './fallback-chain';
import { nativeForHop, relayHops, resolveHops, type HopModel, type PlannedHop } from './fallback-hops';
import { relayChatCompletion, type ChatRelayDeps, type ChatRelayResult, type DialectHooks, type NativeCall, type RelayedRequest } from './relay-chat-completion';
import type { RelayTrace } from './request-context';
import { reportAdjustments } from './adjust-for-channel';
import type { Caller } from '../auth/caller';
import { NOTHING_HELD, reserveQuota, type ReserveDeps } from './reserve-quota';
import { reservesQuota } from '../policy/periodic-limits';
import { priceCandidates, type CandidatePrice, type PricingDeps } from './price-candidates';
import { resolveModel, type ResolvedModel } from './resolve-model';
import { LARGE_JSON_BYTES, takeTurn } from '../core/take-turn';
import { sessionOf } from './session-of';
import { letGoOfConversation } from './let-go-of-conversation';

export interface PipelineDeps extends ChatRelayDeps, ReserveDeps, PassthroughDeps, PricingDeps {
  assistants: AssistantStore;
  rateLimiter: RateLimiter;
  /** Admin fallback rules in force (issue 32); none when not given. */
  fallbackRules?: FallbackRuleSource;
  /** Told of each move to the next model of a chain (metrics). */
  fallbackMetrics?: (from: string, to: string, trigger: FallbackTrigger) => void;
}

/** A caller's request as a dialect's route hands it to the pipeline. */
export interface PipelineRequest {
  /** The request in the hub's format (Chat Completions): what is routed, reserved and estimated. */
  request: ChatCompletionRequest;
  /** The caller's bytes, when `request` is exactly what they parsed to. */
  rawBody?: Buffer;
  dialect: CallerDialect;
  /** The caller's own request, for channels that speak its dialect. */
  native?: NativeRequest;
  /** Only a channel speaking the caller's dialect can serve it. */
  nativeOnly?: RelayError;
  bridgeWarnings?: readonly Adjustment[];
  /** The dialect's own checks of the request, once the caller's policy has admitted it. */
  validate?(): void;
  /** What the dialect needs of each attempt: a pinned channel, hints, a search of its own. */
  hooks?: DialectHooks;
  /** Whether what a native answer creates at the provider is kept there, to be recorded as the caller's (default true). */
  recordCreated?: boolean;
}

export interface NativeRequest extends NativeCall {
  /** The same request for `<family>-gizmo-<id>`: the assistant's instructions, tools and defaults applied. */
  applyAssistant(assistant: AssistantRecord, family: string): Readonly<Record<string, unknown>>;
}

export function callerAccountId(caller: Caller | undefined): number {
  if (caller?.kind === 'token') return caller.token.accountId;
  if (caller?.kind === 'admin') return caller.account.id;
  throw new Error('relay route reached without a caller');
}

export function traceOf(res: Response): RelayTrace {
  const trace = res.locals.trace;
  if (!trace) throw new Error('usage log middleware missing on a relay route');
  return trace;
}

/**
 * The one path every dialect's request takes after authentication and the token's policy
 * (SPEC §4–§8, middleware/admit-token.ts): the model allow-list re-checked on the parsed
 * request, the model resolved (a custom assistant applied), what a passthrough carries policed,
 * each candidate's upstream model priced (an unpriced one refused), the quota reserved, then
 * routing with retries and the answer relayed. A dialect's route only
 * converts its request to the hub's form and writes the result.
 */
export async function runPipeline(deps: PipelineDeps, req: Request, res: Response, input: PipelineRequest): Promise<ChatRelayResult> {
  const { request } = input;
  const admitting = admitRequest(deps, req, res, request, input.validate);
  const { trace, caller, resolved } = admitting instanceof Promise ? await admitting : admitting;
  const accountId = callerAccountId(caller);
  // Most requests have no chain: one hop, planned exactly as before (one map lookup for the rules).
  const fields = chainFieldsOf(input.native?.body ?? request);
  const chain = buildChain({ model: request.model, models: fields.models, fallbacks: fields.fallbacks }, deps.fallbackRules);
  const allowList = caller?.kind === 'token' ? caller.token.models : null;
  const context = { chained: chain !== undefined, allowList, accountId };
  const hops = chain
    ? await planChain(deps, input, chain, await resolveHops(deps, chain, resolved, request, caller, accountId), context)
    : [await planHop(deps, input, { model: request.model, resolved }, context)];
  const first = hops[0] as PlannedRelay;
  trace.pricedModel = first.resolved.request.model;
  if (caller?.kind === 'token') {
    const { rawBody } = first;
    const firstRequest = first.resolved.request;
    // The UTF-8 bytes of what is sent: the caller's own bytes when forwarded as they are (not
    // Content-Length, which counts a compressed body), else the request an assistant built.
    const bodyBytes = () => (rawBody ? rawBody.length : Buffer.byteLength(JSON.stringify(firstRequest)));
    // The scan of the body only where a reservation is taken (a lifetime or periodic limit on the token or its account).
    const limited = reservesQuota(caller.token);
    const bound = { ...passthroughBound(first.passthrough), cacheWrites: limited && marksCacheWrites(res.locals.rawBody ?? input.rawBody) };
    // Reserved once, at the dearest upstream model of every hop: whichever serves, it fits.
    const candidates = hops.length === 1 ? first.candidates : hops.flatMap((hop) => hop.candidates);
    const reservation = { requestId: trace.requestId, request: firstRequest, candidates, bodyBytes, extraPromptBytes: input.hooks?.bridgedExtraBytes, passthrough: bound };
    // A token without a limit reserves nothing: no call, no turn of the event loop.
    const held = limited ? await reserveQuota(deps, caller.token, reservation) : NOTHING_HELD;
    trace.quotaReserved = held.amount;
    trace.windowsReserved = held.windowsReserved;
  }

  // Converting and serialising a large request for the upstream is one long step: on a turn of its own.
  if ((res.locals.rawBody?.length ?? 0) >= LARGE_JSON_BYTES) await takeTurn();
  const gone = watchCaller(res, trace);
  // Each request relayed, so that a stream's can let go of the caller's bytes (letGoOfCallerBytes).
  const made: RelayedRequest[] = [];
  const relay = (hop: PlannedRelay) => {
    const relayed: RelayedRequest = {
      request: hop.resolved.request,
      publicModel: hop.model,
      // Unchanged by an assistant: the caller's own bytes may be forwarded.
      rawBody: hop.rawBody,
      caller: caller?.kind === 'token' ? `token:${caller.token.id}` : `account:${accountId}`,
      dialect: input.dialect,
      native: hop.native,
      nativeOnly: input.nativeOnly,
      bridgeWarnings: input.bridgeWarnings,
      hooks: input.hooks,
      passthrough: hop.passthrough,
      session: () => sessionOf(req.headers, hop.resolved.request, res.locals.rawBody?.length ?? input.rawBody?.length ?? 0),
      // The caller's bytes sent as they are (never with a chain): while an unstreamed answer is awaited, they stand for the conversation.
      forwarded:
        hop.rawBody || hop.native?.rawBody
          ? (sent, native) => {
              const bytes = native ? native.rawBody : hop.rawBody;
              if (bytes === undefined || sent !== bytes || (native && !native.conversation)) return;
              const nativeHolder = native?.conversation && { body: native.body, conversation: native.conversation };
              letGoOfConversation({ hub: [hop.resolved.request, input.request], parsedBody: req.body, native: nativeHolder }, bytes);
            }
          : undefined,
    };
    made.push(relayed);
    return relayChatCompletion(deps, relayed, trace, gone);
  };
  let result: ChatRelayResult;
  if (!chain) {
    result = await relay(first);
  } else {
    const tried: string[] = [];
    const outcome = await relayHops(deps, chain, hops, { trace, signal: gone, tried }, relay, deps.fallbackMetrics).catch((error: unknown) => {
      // Every hop failed (or one failed for a reason that is not a trigger): the caller still learns what was tried.
      if (!res.headersSent) res.setHeader(MODELS_TRIED_HEADER, tried.join(','));
      throw error;
    });
    result = outcome.result;
    // Before the first byte, JSON or stream: which model served, and every model tried.
    res.setHeader(SERVED_MODEL_HEADER, outcome.served.model);
    res.setHeader(MODELS_TRIED_HEADER, tried.join(','));
    trace.fallbackPath = tried.length > 1 ? tried.join('>') : null;
  }
  // Before the first byte, JSON or stream, every dialect: what was changed so the model takes the request (issue 28).
  const adjusted = reportAdjustments(deps.logger, trace);
  if (adjusted !== undefined) res.setHeader(ADJUSTED_HEADER, adjusted);
  if (result.kind === 'stream') letGoOfCallerBytes(res, input, hops, made);
  return result;
}

/**
 * A stream is the caller's from here: its first piece is in and no retry remains, so the caller's
 * bytes are not needed again. Every holder lets go of them — an agent's request is ~100 KB, and
 * the answer may stream for minutes (with 1,000 open streams of 67 KB requests, ~68 KB less heap
 * a stream; docs/PERFORMANCE.md, issue 30). What the stream still needs of the request (its
 * parsed form, for counting the prompt of an answer cut short) is kept.
 */
function letGoOfCallerBytes(res: Response, input: PipelineRequest, hops: readonly PlannedRelay[], made: readonly RelayedRequest[]): void {
  res.locals.rawBody = undefined;
  input.rawBody = undefined;
  if (input.native) input.native.rawBody = undefined;
  for (const hop of hops) {
    hop.rawBody = undefined;
    if (hop.native) hop.native.rawBody = undefined;
  }
  for (const relayed of made) {
    relayed.rawBody = undefined;
    if (relayed.native) relayed.native.rawBody = undefined;
  }
}

/** One hop of a request (the only one without a chain): resolved, policed and priced before the reservation. */
interface PlannedRelay extends PlannedHop {
  native: NativeCall | undefined;
  passthrough: PassthroughPlan;
  candidates: CandidatePrice[];
  /** The caller's bytes, when what is sent is exactly what they parsed to (never with a chain: it carries `models`). */
  rawBody: Buffer | undefined;
}

interface HopContext {
  chained: boolean;
  allowList: readonly string[] | null;
  accountId: number;
}

/** Every hop of a chain planned at once; a rule's fallback that cannot be priced is left out for this request, never failing the model it backs up. */
async function planChain(deps: PipelineDeps, input: PipelineRequest, chain: FallbackChain, models: readonly HopModel[], context: HopContext): Promise<PlannedRelay[]> {
  const planned = await Promise.all(
    models.map((hop, index) =>
      planHop(deps, input, hop, context).catch((error: unknown) => {
        if (index === 0 || chain.source !== 'rule' || !(error instanceof RelayError)) throw error;
        deps.logger.warn({ model: hop.model, code: error.code }, 'fallback rule entry left out for this request');
        return undefined;
      }),
    ),
  );
  return planned.filter((hop): hop is PlannedRelay => hop !== undefined);
}

async function planHop(
  deps: PipelineDeps,
  input: PipelineRequest,
  hop: HopModel,
  context: HopContext,
): Promise<PlannedRelay> {
  const { resolved } = hop;
  const unchanged = !context.chained && resolved.request === input.request;
  const native = input.native && (context.chained ? nativeForHop(input.native, hop) : nativeFor(input.native, resolved));
  const planning = planPassthrough(deps, {
    accountId: context.accountId,
    allowList: context.allowList,
    request: resolved.request,
    native: native?.inspect(native.body),
    recordCreated: input.recordCreated ?? true,
  });
  // Each step at once where it can be (a plain request, channels loaded, prices known): no promise to await.
  const passthrough = planning instanceof Promise ? await planning : planning;
  // Priced by the model each candidate channel would send upstream; an unpriced one is refused
  // here, before any upstream call (no candidate: routing answers its 404).
  const { model } = resolved.request;
  const channels = deps.registry.knownCandidates(model, 'chat') ?? (await deps.registry.candidatesFor(model, 'chat'));
  const pricing = priceCandidates(deps, model, 'chat', channels);
  const candidates = pricing instanceof Promise ? await pricing : pricing;
  // Spelled out, not `{ ...hop, … }`: the spread took ~3 µs a request in the bench's profile.
  return { model: hop.model, resolved, channels, native, passthrough, candidates, rawBody: unchanged ? input.rawBody : undefined };
}

/**
 * What every relayed request goes through first, whatever it then does: the trace told the
 * model and the caller's address, the model allow-list re-checked on the parsed request, the
 * dialect's own checks, and the model resolved (a custom assistant applied).
 */
export function admitRequest(
  deps: PipelineDeps,
  req: Request,
  res: Response,
  request: ChatCompletionRequest,
  validate?: () => void,
): Admitted | Promise<Admitted> {
  const { trace, caller } = admitCaller(deps, req, res, request.model, request.stream === true);
  validate?.();
  // A plain model name is resolved at once: no promise (see resolveModel).
  const resolving = resolveModel(deps, request, callerAccountId(caller));
  if (resolving instanceof Promise) return resolving.then((resolved) => admitted(trace, caller, resolved));
  return admitted(trace, caller, resolving);
}

interface Admitted {
  trace: RelayTrace;
  caller: Caller | undefined;
  resolved: ResolvedModel;
}

function admitted(trace: RelayTrace, caller: Caller | undefined, resolved: ResolvedModel): Admitted {
  trace.assistantId = resolved.assistantId;
  return { trace, caller, resolved };
}

/**
 * The trace told the model, the stream flag and the caller's address, and the model the parsed
 * request names checked once more against the token's allow-list: the rest of the token's policy
 * (address, rate limits, concurrency) was decided before the body was parsed, by the admission
 * middleware (middleware/admit-token.ts), on the model its scan found — JSON.parse has the last
 * word on which model that is (duplicate keys and the like).
 */
export function admitCaller(
  deps: PipelineDeps,
  req: Request,
  res: Response,
  model: string,
  stream: boolean,
): { trace: RelayTrace; caller: Caller | undefined } {
  const trace = traceOf(res);
  // No model has one, and PostgreSQL's text cannot hold it: refused before it reaches a usage row.
  if (model.includes('\u0000')) throw invalidRequest("'model' must not contain the NUL character (U+0000).", 'model', 'invalid_value');
  trace.requestedModel = model;
  trace.stream = stream;
  const caller = res.locals.caller;
  // The admission middleware read it already for a token (Express works `req.ip` out on every read).
  trace.clientIp ??= req.ip ?? null;
  if (caller?.kind === 'token') assertModelAllowed(caller.token, model);
  return { trace, caller };
}

/** Aborted by the usage log's close listener when the caller goes away before its answer. */
export function watchCaller(res: Response, trace: RelayTrace): CallerGone {
  const gone = (trace.callerGone = new CallerGone());
  if (res.destroyed) gone.abort();
  return gone;
}

function nativeFor(native: NativeRequest, resolved: { assistant: AssistantRecord | null; family: string | null }): NativeCall {
  if (!resolved.assistant || resolved.family === null) return native;
  return { ...native, body: native.applyAssistant(resolved.assistant, resolved.family), rawBody: undefined };
}

const CACHE_CONTROL = Buffer.from('"cache_control"');

/**
 * Whether the caller's request marks prompt caching (Anthropic's `cache_control`, on a block or
 * at the top level): only then may its prompt be written to the cache, at the cache-write price.
 * A scan of the bytes — the hub's request drops the marks — at memchr speed.
 */
function marksCacheWrites(body: Buffer | undefined): boolean {
  return body !== undefined && body.indexOf(CACHE_CONTROL) >= 0;
}
