import { messagesContract, type AnthropicCountTokensRequest, type AnthropicMessage, type AnthropicMessagesRequest } from '@chat-relay/contract';
import {
  convertMessagesToChat,
  inspectMessagesRequest,
  lossOf,
  MESSAGES_TO_CHAT,
  stripBridgedThinking,
  type Adjustment,
} from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { Request, Response } from 'express';
import { anthropicMessagesDialect } from '../dialects/messages/anthropic-messages-dialect';
import { applyAssistantToMessages } from '../dialects/messages/apply-assistant-to-messages';
import { countMessageTokens } from '../dialects/messages/count-message-tokens';
import { messagesConversation } from '../dialects/messages/messages-conversation';
import type { CallerDialect } from '../pipeline/caller-dialect';
import type { ChatRelayResult } from '../pipeline/relay-chat-completion';
import { admitRequest, runPipeline, traceOf, watchCaller, type PipelineDeps } from '../pipeline/run-pipeline';
import { relayAnswer } from './relay-answer';

/** The headers of Anthropic's dialect an `anthropic` channel receives as the caller sent them. */
export function anthropicHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const version = req.headers['anthropic-version'];
  if (typeof version === 'string') headers['anthropic-version'] = version;
  const beta = req.headers['anthropic-beta'];
  if (beta) headers['anthropic-beta'] = Array.isArray(beta) ? beta.join(',') : beta;
  return headers;
}

/** A count_tokens request takes no max_tokens. */
function withoutMaxTokens({ max_tokens: _maxTokens, ...prompt }: AnthropicMessagesRequest): AnthropicCountTokensRequest {
  return prompt;
}

/** Betas only Anthropic honours: a bridged request cannot forward them, and says so in the log. */
function betasNotForwarded(headers: Record<string, string>): Adjustment[] {
  const beta = headers['anthropic-beta'];
  return beta ? [lossOf(MESSAGES_TO_CHAT.rules.betaHeader, { from: beta })] : [];
}

/** A Messages request as a route has read it. */
export interface MessageCall {
  body: AnthropicMessagesRequest;
  /** `anthropic-version`, `anthropic-beta`: what an `anthropic` channel receives. */
  headers: Record<string, string>;
  /** The caller's bytes, when `body` is exactly what they parsed to. */
  rawBody?: Buffer;
  /** The caller's framing; Anthropic's SSE when not given. */
  dialect?: CallerDialect;
}

/**
 * A Messages request on the one pipeline (`/v1/messages`, and Claude's cloud APIs): to `anthropic`
 * channels it passes through as sent (model mapped), to the others it is bridged through the hub.
 */
export function relayMessage(deps: PipelineDeps, req: Request, res: Response, call: MessageCall): Promise<ChatRelayResult> {
  const { body, headers } = call;
  const converted = convertMessagesToChat(body);
  const forwarded = stripBridgedThinking(body);
  return runPipeline(deps, req, res, {
    request: converted.request,
    dialect: call.dialect ?? anthropicMessagesDialect,
    native: {
      dialect: 'messages',
      body: forwarded,
      rawBody: forwarded === body ? call.rawBody : undefined,
      conversation: messagesConversation,
      headers,
      inspect: inspectMessagesRequest,
      applyAssistant: (assistant, family) => applyAssistantToMessages(assistant, forwarded, family),
    },
    nativeOnly: converted.nativeOnly,
    bridgeWarnings: [...converted.warnings, ...betasNotForwarded(headers)],
  });
}

/**
 * `POST /v1/messages` and `POST /v1/messages/count_tokens` (Anthropic's Messages API, for Claude
 * Code and the Anthropic SDKs), on the one pipeline (relayMessage).
 */
export function messagesRouter(deps: PipelineDeps) {
  const s = initServer();
  return s.router(messagesContract, {
    createMessage: async ({ body, req, res }) => {
      res.setHeader('request-id', res.locals.requestId);
      const result = await relayMessage(deps, req, res, { body, headers: anthropicHeaders(req), rawBody: res.locals.rawBody });
      return relayAnswer<AnthropicMessage>(res, result);
    },

    countMessageTokens: async ({ body, req, res }) => {
      res.setHeader('request-id', res.locals.requestId);
      // The converter wants a whole Messages request; max_tokens plays no part in a count.
      const request: AnthropicMessagesRequest = { ...body, max_tokens: 1 };
      // Rate-limited and allow-listed like any request; never charged (no priced model) nor held
      // against tpm; a row of its own endpoint, whose count is no usage (issue 28 defect 7).
      traceOf(res).countOnly = true;
      traceOf(res).endpoint = 'count_tokens';
      const { trace, resolved } = await admitRequest(deps, req, res, convertMessagesToChat(request).request);
      const applied = resolved.assistant && resolved.family !== null ? applyAssistantToMessages(resolved.assistant, request, resolved.family) : undefined;
      const native = applied ? withoutMaxTokens(applied) : body;
      const headers = anthropicHeaders(req);
      const counted = await countMessageTokens(deps, { hub: resolved.request, native, rawBody: applied ? undefined : res.locals.rawBody, headers }, trace, watchCaller(res, trace));
      return { status: 200, body: counted };
    },
  });
}
