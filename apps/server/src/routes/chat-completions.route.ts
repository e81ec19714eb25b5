import type { ChatCompletion } from '@chat-relay/contract';
import { chatContract, parseGizmoModel } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { performance } from 'node:perf_hooks';
import { invalidRequest, modelNotFound } from '@chat-relay/wire';
import { enforceCallerPolicy } from '../policy/enforce-token-policy';
import type { RateLimiter } from '../policy/rate-limiter';
import { isModelAllowed } from '../policy/model-allow-list';
import { CallerGone } from '../relay/caller-gone';
import { listModels } from '../relay/list-models';
import { relayChatCompletion, type ChatRelayDeps } from '../relay/relay-chat-completion';
import { reserveQuota, type ReserveDeps } from '../relay/reserve-quota';
import { familyAllowed, resolveModel } from '../relay/resolve-model';
import type { Caller } from '../relay/request-context';
import { SSE_HEADERS } from '../relay/sse';
import type { AssistantStore } from '../storage/types';

export interface ChatRouteDeps extends ChatRelayDeps, ReserveDeps {
  assistants: AssistantStore;
  rateLimiter: RateLimiter;
}

function callerAccountId(caller: Caller | undefined): number {
  if (caller?.kind === 'token') return caller.token.accountId;
  if (caller?.kind === 'admin') return caller.account.id;
  throw new Error('chat route reached without a caller');
}

/** `POST /v1/chat/completions` and the model list (API token). */
export function chatRouter(deps: ChatRouteDeps) {
  const s = initServer();
  return s.router(chatContract, {
    createChatCompletion: async ({ body, req, res }) => {
      const trace = res.locals.trace;
      if (!trace) throw new Error('usage log middleware missing on the chat route');
      trace.requestedModel = body.model;
      trace.stream = body.stream === true;
      // IP and model allow-lists and rate limits (SPEC §4) before anything is reserved or sent.
      const clientIp = req.ip;
      trace.clientIp = clientIp ?? null;
      res.set(await enforceCallerPolicy(deps.rateLimiter, res.locals.caller, { clientIp, model: body.model, slot: trace }));
      if (body.stream_options && !body.stream) {
        throw invalidRequest('stream_options is only allowed when stream is true.', 'stream_options', 'invalid_value');
      }

      const resolved = await resolveModel(deps, body, callerAccountId(res.locals.caller));
      trace.assistantId = resolved.assistantId;
      trace.pricedModel = resolved.request.model;
      const caller = res.locals.caller;
      if (caller?.kind === 'token') {
        // The UTF-8 bytes of what is sent: the caller's own bytes when forwarded as they are (not
        // Content-Length, which counts a compressed body), else the request an assistant built.
        const rawBody = res.locals.rawBody;
        const bodyBytes = () => (rawBody && resolved.request === body ? rawBody.length : Buffer.byteLength(JSON.stringify(resolved.request)));
        trace.quotaReserved = await reserveQuota(deps, caller.token, { requestId: trace.requestId, request: resolved.request, bodyBytes });
      }

      // The usage log's close listener aborts it when the caller goes away first.
      const gone = (trace.callerGone = new CallerGone());
      if (res.destroyed) gone.abort();
      const result = await relayChatCompletion(
        deps,
        {
          request: resolved.request,
          publicModel: body.model,
          // Unchanged by an assistant: the caller's own bytes may be forwarded.
          rawBody: resolved.request === body ? res.locals.rawBody : undefined,
          caller: caller?.kind === 'token' ? `token:${caller.token.id}` : `account:${callerAccountId(caller)}`,
        },
        trace,
        gone,
      );
      if (result.kind === 'json') {
        trace.ttfbMs = performance.now() - trace.startedAt;
        // Text already serialised goes out as bytes (the contract declares this answer with an
        // explicit content type, so ts-rest sends it without serialising it again).
        const body = result.text === undefined ? result.body : Buffer.from(result.text);
        return { status: 200, body: body as unknown as ChatCompletion };
      }
      for (const [name, value] of Object.entries(SSE_HEADERS)) res.setHeader(name, value);
      // ts-rest pipes a stream body to the response as it comes; the contract types the JSON form.
      return { status: 200, body: result.body as unknown as ChatCompletion };
    },

    listModels: async ({ req, res }) => {
      res.set(await enforceCallerPolicy(deps.rateLimiter, res.locals.caller, { clientIp: req.ip }));
      const assistants = await deps.assistants.listUsableBy(callerAccountId(res.locals.caller));
      const caller = res.locals.caller;
      const allowList = caller?.kind === 'token' ? caller.token.models : null;
      // Only what this key may use: what the channels serve ∩ the token's allow-list.
      const data = listModels(await deps.registry.all(), assistants).filter((model) => isModelAllowed(allowList, model.id));
      return { status: 200, body: { object: 'list' as const, data } };
    },

    retrieveModel: async ({ params, req, res }) => {
      res.set(await enforceCallerPolicy(deps.rateLimiter, res.locals.caller, { clientIp: req.ip }));
      const model = params.model;
      const gizmo = parseGizmoModel(model);
      if (gizmo) {
        const assistant = await deps.assistants.resolveFor(callerAccountId(res.locals.caller), gizmo.assistantId);
        const usable =
          assistant &&
          familyAllowed(assistant, gizmo.family) &&
          (await deps.registry.candidatesFor(gizmo.family)).length > 0;
        if (assistant && usable) {
          const created = Math.floor(Date.parse(assistant.createdAt) / 1000);
          return { status: 200, body: { id: model, object: 'model' as const, created, owned_by: 'chat-relay' } };
        }
      }
      const [channel] = await deps.registry.candidatesFor(model);
      if (!channel) throw modelNotFound(model);
      const created = Math.floor(Date.parse(channel.record.createdAt) / 1000);
      return { status: 200, body: { id: model, object: 'model' as const, created, owned_by: channel.record.type } };
    },
  });
}
