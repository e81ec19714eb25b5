import { DEFAULT_SEARCH_MODEL, responsesContract, type ResponseObject, type ResponsesRequest } from '@chat-relay/contract';
import {
  convertResponsesToChat,
  inspectResponsesRequest,
  invalidRequest,
  isResponsesEndpointMissing,
  lossOf,
  notFound,
  RESPONSES_TO_CHAT,
  ResponsesPassthroughStream,
  tallyResponsesRun,
  WEB_SEARCH_SOURCES_MAX_BYTES,
  withoutWebSearchFunction,
  type ConvertedResponsesRequest,
  type RelayError,
} from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { applyAssistantToResponses } from '../dialects/responses/apply-assistant-to-responses';
import { closedBy } from '../core/caller-gone';
import { channelKeyDigest } from '../channels/channel-registry';
import { callNativeResponse } from '../dialects/responses/native-response-call';
import type { ServedBy } from '../pipeline/relay-chat-completion';
import { responsesDialect } from '../dialects/responses/responses-dialect';
import { historyOf, inputItemsOf, newResponseId, pageOfItems, parsedItems, unresolvedReferences } from '../dialects/responses/responses-items';
import type { Caller } from '../auth/caller';
import { callerAccountId, runPipeline, traceOf, type NativeRequest } from '../pipeline/run-pipeline';
import { isUnfinishedBackground, awaitBackgroundUsage } from '../dialects/responses/await-background-usage';
import type { StoredResponses } from '../dialects/responses/stored-responses';
import { bridgedWebSearch, DEFAULT_WEB_SEARCH_MAX_CALLS } from '../search/bridged-web-search';
import type { HostedSearchDeps } from '../search/run-hosted-search';
import type { StoredResponseRecord } from '../storage/types';
import { relayAnswer } from './relay-answer';

export interface ResponsesRouteDeps extends HostedSearchDeps {
  responses: StoredResponses;
  /** The most web searches one bridged response runs (RELAY_WEB_SEARCH_MAX_CALLS). */
  webSearchMaxCalls?: number;
}

const previousNotFound = (id: string): RelayError =>
  notFound('previous_response_not_found', `Previous response with id '${id}' not found.`, 'previous_response_id');

const responseNotFound = (id: string): RelayError => notFound('response_not_found', `Response with id '${id}' not found.`);

const nothingStored = (): RelayError =>
  invalidRequest(
    'This relay stores no responses (RELAY_RESPONSES_STORE=false): previous_response_id works only for responses a channel answered natively. Send the earlier items in `input` instead.',
    'previous_response_id',
    'previous_response_unavailable',
  );

/** Only the channel that created a native response can continue it. */
const onlyItsChannel = (id: string): RelayError =>
  invalidRequest(
    `Previous response '${id}' is kept by the upstream channel that created it, which can no longer serve this request (removed, disabled, or not serving this model).`,
    'previous_response_id',
    'previous_response_unavailable',
  );

function tokenIdOf(caller: Caller | undefined): number | null {
  return caller?.kind === 'token' ? caller.token.id : null;
}

/**
 * OpenAI's Responses API (SPEC §1, §8) on the one pipeline. An `openai` channel whose
 * `responses_api` is not `bridged` takes the request as sent (model mapped) — `auto` channels
 * that answer 404/405 are switched to `bridged` by the relay; every other channel gets it
 * bridged through Chat Completions. With `store`, a bridged response and its input items are
 * kept (RELAY_RESPONSES_TTL) so `previous_response_id` and retrieval work; a native one is
 * kept by its channel, and the relay remembers which channel and key, so later calls go there.
 * What a native request carries beyond tokens is policed per channel (issue 26): what an `auto`
 * channel does not let through is bridged instead, a `native` one refuses it.
 */
export function responsesRouter(deps: ResponsesRouteDeps) {
  const s = initServer();
  const { responses } = deps;

  /** The stored response `id` of the caller's account, or the 404 OpenAI answers. */
  async function ownResponse(id: string, res: Response): Promise<StoredResponseRecord> {
    const record = await responses.find(id, callerAccountId(res.locals.caller));
    if (!record) throw responseNotFound(id);
    return record;
  }

  return s.router(responsesContract, {
    createResponse: async ({ body, req, res }) => {
      const caller = res.locals.caller;
      const accountId = callerAccountId(caller);
      const storing = body.store !== false;
      const previousId = body.previous_response_id ?? undefined;
      const previous = previousId ? await responses.find(previousId, accountId) : undefined;
      if (previousId && !previous) throw responses.options.store ? previousNotFound(previousId) : nothingStored();
      const history = previous?.origin === 'bridged' ? historyOf(await responses.chain(previous.id, accountId)) : [];
      // Items of earlier stored responses named by reference (the AI SDK's way), for the bridge.
      const referable = parsedItems(await responses.findItems(accountId, unresolvedReferences(body, history)));
      const converted = await withWebSearchServed(deps, convertResponsesToChat(body, history, referable));

      const createdAtMs = Date.now();
      const responseId = newResponseId('resp');
      const keep = (record: Omit<StoredResponseRecord, 'accountId' | 'tokenId' | 'previousResponseId' | 'createdAt' | 'expiresAt'>) =>
        responses.remember({
          ...record,
          accountId,
          tokenId: tokenIdOf(caller),
          previousResponseId: previousId ?? null,
          createdAt: new Date(createdAtMs).toISOString(),
          expiresAt: responses.expiresAt(createdAtMs),
        });

      let served: ServedBy | undefined;
      /** A native response lives on its channel: the relay keeps where (never its content). */
      const keepNative = async (id: string, status: string): Promise<void> => {
        if (!served || !storing) return;
        await keep({ id, origin: 'native', channelId: served.channel.id, keyDigest: channelKeyDigest(served.key), model: body.model, status, response: null, inputItems: null });
      };
      // The hosted web_search tool: a function of the relay's for a channel answering bridged, each call a search.
      const webSearch =
        converted.webSearch &&
        bridgedWebSearch(deps, converted.webSearch, {
          caller,
          requestId: traceOf(res).requestId,
          clientIp: req.ip ?? null,
          newId: newResponseId,
          request: body,
          maxCalls: deps.webSearchMaxCalls ?? DEFAULT_WEB_SEARCH_MAX_CALLS,
        });
      const dialect = responsesDialect({
        request: body,
        responseId,
        createdAt: Math.floor(createdAtMs / 1000),
        newId: newResponseId,
        leadingItems: webSearch?.leadingItems,
        onBridged: (response: ResponseObject) => {
          if (!storing || !responses.options.store) return;
          void keep({
            id: responseId,
            origin: 'bridged',
            channelId: served?.channel.id ?? null,
            keyDigest: null,
            model: body.model,
            status: response.status,
            response,
            inputItems: inputItemsOf(body),
          });
        },
      });

      // A response the relay stores continues on any channel, bridged; one a channel keeps, only there.
      const pinned = previous?.origin === 'native' ? previous : undefined;
      const native = previous?.origin === 'bridged' ? undefined : nativeResponsesCall(deps, body, res.locals.rawBody, (id) => void keepNative(id, 'in_progress'));
      const result = await runPipeline(deps, req, res, {
        request: converted.request,
        dialect,
        native,
        nativeOnly: pinned ? onlyItsChannel(pinned.id) : converted.nativeOnly,
        bridgeWarnings: converted.warnings,
        hooks: {
          pin: pinned?.channelId != null ? { channelId: pinned.channelId, keyDigest: pinned.keyDigest, gone: onlyItsChannel(pinned.id) } : undefined,
          onServed: (by) => (served = by),
          // Hints Codex sends on every request: a channel that cannot honour them still answers.
          advisory: RESPONSES_HINTS,
          relayFunction: webSearch,
          bridgedExtraBytes: webSearch ? WEB_SEARCH_SOURCES_MAX_BYTES : undefined,
        },
        // With store: false the provider keeps none of the answer's items: nothing to refer to later.
        recordCreated: storing,
      });
      if (result.kind === 'json' && served?.native) {
        const id = result.body['id'];
        const status = result.body['status'];
        if (typeof id === 'string') {
          await keepNative(id, typeof status === 'string' ? status : 'completed');
          // Its usage row waits for the real usage: a queued answer has none yet.
          if (isUnfinishedBackground(status)) traceOf(res).settled = awaitBackgroundUsage(deps, served, id, traceOf(res));
        }
      }
      return relayAnswer<ResponseObject>(res, result);
    },

    retrieveResponse: async ({ params, query, res }) => {
      const record = await ownResponse(params.id, res);
      if (query.stream !== undefined && query.stream !== 'false') {
        throw invalidRequest('Streaming a stored response again is not supported by this relay.', 'stream');
      }
      if (record.origin === 'bridged') return { status: 200, body: record.response as ResponseObject };
      const search = new URLSearchParams();
      for (const include of [query.include ?? []].flat()) search.append('include', include);
      const text = await callNativeResponse(deps, record, { method: 'GET', path: withQuery(`/responses/${enc(record.id)}`, search), rewritesModel: true }, closedBy(res));
      rememberItemsOf(deps, record, text);
      return { status: 200, body: Buffer.from(text) as unknown as ResponseObject };
    },

    deleteResponse: async ({ params, res }) => {
      const record = await ownResponse(params.id, res);
      if (record.origin === 'native') {
        const text = await callNativeResponse(deps, record, { method: 'DELETE', path: `/responses/${enc(record.id)}`, rewritesModel: false }, closedBy(res));
        await responses.delete(record.id, record.accountId);
        return { status: 200, body: Buffer.from(text) as unknown as { id: string; object: 'response'; deleted: true } };
      }
      await responses.delete(record.id, record.accountId);
      return { status: 200, body: { id: record.id, object: 'response' as const, deleted: true as const } };
    },

    listResponseInputItems: async ({ params, query, res }) => {
      const record = await ownResponse(params.id, res);
      if (record.origin === 'bridged') return { status: 200, body: pageOfItems(record.inputItems ?? [], query) };
      const search = new URLSearchParams();
      for (const name of ['limit', 'order', 'after', 'before'] as const) if (query[name] !== undefined) search.set(name, String(query[name]));
      for (const include of [query.include ?? []].flat()) search.append('include', include);
      const text = await callNativeResponse(deps, record, { method: 'GET', path: withQuery(`/responses/${enc(record.id)}/input_items`, search), rewritesModel: false }, closedBy(res));
      return { status: 200, body: Buffer.from(text) as unknown as ReturnType<typeof pageOfItems> };
    },

    cancelResponse: async ({ params, res }) => {
      const record = await ownResponse(params.id, res);
      if (record.origin === 'bridged') {
        throw invalidRequest('Only responses created with background=true can be cancelled; this response was answered in the foreground.', null, 'response_not_cancellable');
      }
      const text = await callNativeResponse(deps, record, { method: 'POST', path: `/responses/${enc(record.id)}/cancel`, rewritesModel: true }, closedBy(res));
      return { status: 200, body: Buffer.from(text) as unknown as ResponseObject };
    },
  });
}

/**
 * What a Responses caller asks for as a preference, not as a condition of the answer: how hard
 * to reason, and one tool call at a time. A channel that cannot take one (Gemini cannot promise
 * a single call; an effort a channel has no mapping for) leaves the field out (logged), not a 400.
 */
const RESPONSES_HINTS = ['reasoning_effort', 'parallel_tool_calls'] as const;

const enc = encodeURIComponent;

/** With no channel to run a search, the search function is not offered (a bridge warning), rather than failing at every call. */
async function withWebSearchServed(deps: ResponsesRouteDeps, converted: ConvertedResponsesRequest): Promise<ConvertedResponsesRequest> {
  const plan = converted.webSearch;
  if (!plan || (await deps.registry.candidatesFor(DEFAULT_SEARCH_MODEL, 'search')).length > 0) return converted;
  const { webSearch: _plan, ...rest } = converted;
  return { ...rest, request: withoutWebSearchFunction(converted.request, plan), warnings: [...converted.warnings, lossOf(RESPONSES_TO_CHAT.rules.noSearchChannel, { from: DEFAULT_SEARCH_MODEL })] };
}

/**
 * A native response retrieved by its owner: its items are the owner's to refer to (a background
 * response's are first seen here). Recorded as the answer goes back, never delaying it.
 */
function rememberItemsOf(deps: ResponsesRouteDeps, record: StoredResponseRecord, text: string): void {
  if (record.channelId === null) return;
  let response: unknown;
  try {
    response = JSON.parse(text);
  } catch {
    return;
  }
  const { created } = tallyResponsesRun(response);
  if (created.length > 0) void deps.upstreamObjects.expect(record.accountId, record.channelId)(created);
}
const withQuery = (path: string, search: URLSearchParams): string => (search.size > 0 ? `${path}?${search.toString()}` : path);

/**
 * The request as an `openai` channel with the Responses API takes it: passed through (model
 * mapped), its stream read as it goes by so the response's id is known — and where it lives
 * recorded — before the event naming it reaches the caller.
 */
function nativeResponsesCall(deps: ResponsesRouteDeps, body: ResponsesRequest, rawBody: Buffer | undefined, onId: (id: string) => void): NativeRequest {
  return {
    dialect: 'responses',
    wrap: (adapter) => ({ ...adapter, createStreamTransformer: (options) => new ResponsesPassthroughStream(options, onId) }),
    body,
    rawBody,
    headers: {},
    inspect: inspectResponsesRequest,
    applyAssistant: (assistant, family) => applyAssistantToResponses(assistant, body, family),
    serves: (channel) => channel.responsesApi !== 'bridged',
    // `auto` allows either way: what the channel does not let through is bridged (a hosted web search run by the relay).
    bridgesWhenRefused: (channel) => channel.responsesApi === 'auto',
    endpointMissing: {
      test: (status, text, channel) => channel.responsesApi === 'auto' && isResponsesEndpointMissing(status, text),
      remember: (channel) => deps.registry.setResponsesApi(channel, 'bridged'),
    },
  };
}
