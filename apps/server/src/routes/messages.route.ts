import { messagesContract, type AnthropicMessage, type AnthropicMessagesRequest } from '@chat-relay/contract';
import { anthropicNativeAdapter, convertMessagesToChat, stripBridgedThinking } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { performance } from 'node:perf_hooks';
import { enforceCallerPolicy } from '../policy/enforce-token-policy';
import { anthropicMessagesDialect } from '../relay/anthropic-messages-dialect';
import { applyAssistantToMessages } from '../relay/apply-assistant-to-messages';
import { CallerGone } from '../relay/caller-gone';
import { countMessageTokens } from '../relay/count-message-tokens';
import { resolveModel } from '../relay/resolve-model';
import { callerAccountId, runPipeline, traceOf, type PipelineDeps } from '../relay/run-pipeline';
import { SSE_HEADERS } from '../relay/sse';

/** The headers of Anthropic's dialect an `anthropic` channel receives as the caller sent them. */
function anthropicHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const version = req.headers['anthropic-version'];
  if (typeof version === 'string') headers['anthropic-version'] = version;
  const beta = req.headers['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
  return headers;
}

/** Betas only Anthropic honours: a bridged request cannot forward them, and says so in the log. */
function betasNotForwarded(headers: Record<string, string>): string[] {
  const beta = headers['anthropic-beta'];
  return beta ? [`anthropic-beta ${beta} is not forwarded: the channel does not speak Anthropic's API`] : [];
}

/**
 * `POST /v1/messages` and `POST /v1/messages/count_tokens` (Anthropic's Messages API, for Claude
 * Code and the Anthropic SDKs), on the one pipeline: to `anthropic` channels the request passes
 * through as sent (model mapped), to the others it is bridged through the hub.
 */
export function messagesRouter(deps: PipelineDeps) {
  const s = initServer();
  return s.router(messagesContract, {
    createMessage: async ({ body, req, res }) => {
      res.setHeader('request-id', res.locals.requestId);
      const converted = convertMessagesToChat(body);
      const headers = anthropicHeaders(req);
      const forwarded = stripBridgedThinking(body);
      const result = await runPipeline(deps, req, res, {
        request: converted.request,
        dialect: anthropicMessagesDialect,
        native: {
          channelType: 'anthropic',
          adapter: anthropicNativeAdapter,
          body: forwarded,
          rawBody: forwarded === body ? res.locals.rawBody : undefined,
          headers,
          applyAssistant: (assistant, family) => applyAssistantToMessages(assistant, forwarded, family),
        },
        nativeOnly: converted.nativeOnly,
        bridgeWarnings: [...converted.warnings, ...betasNotForwarded(headers)],
      });
      if (result.kind === 'json') {
        const trace = traceOf(res);
        trace.ttfbMs = performance.now() - trace.startedAt;
        // A passthrough answer goes out as the upstream's bytes (model rewritten).
        const answer = result.text === undefined ? result.body : Buffer.from(result.text);
        return { status: 200, body: answer as unknown as AnthropicMessage };
      }
      for (const [name, value] of Object.entries(SSE_HEADERS)) res.setHeader(name, value);
      // ts-rest pipes a stream body to the response as it comes; the contract types the JSON form.
      return { status: 200, body: result.body as unknown as AnthropicMessage };
    },

    countMessageTokens: async ({ body, req, res }) => {
      res.setHeader('request-id', res.locals.requestId);
      const trace = traceOf(res);
      trace.requestedModel = body.model;
      trace.countOnly = true;
      const caller = res.locals.caller;
      trace.clientIp = req.ip ?? null;
      // Rate-limited and allow-listed like any request; never charged.
      res.set(await enforceCallerPolicy(deps.rateLimiter, caller, { clientIp: req.ip, model: body.model, slot: trace }));
      // The converter wants a whole Messages request; max_tokens plays no part in a count.
      const request: AnthropicMessagesRequest = { ...body, max_tokens: 1 };
      const hub = convertMessagesToChat(request).request;
      const resolved = await resolveModel(deps, hub, callerAccountId(caller));
      trace.assistantId = resolved.assistantId;
      // No trace.pricedModel: the usage row prices by it, and a count is never charged.
      const applied = resolved.assistant && resolved.family !== null ? applyAssistantToMessages(resolved.assistant, request, resolved.family) : undefined;
      const { max_tokens: _unused, ...native } = applied ?? request;
      const gone = (trace.callerGone = new CallerGone());
      const counted = await countMessageTokens(
        deps,
        { hub: resolved.request, native: applied ? native : body, rawBody: applied ? undefined : res.locals.rawBody, headers: anthropicHeaders(req) },
        trace,
        gone,
      );
      trace.promptTokens = counted.input_tokens;
      return { status: 200, body: counted };
    },
  });
}
