import type { ServerResponse } from 'node:http';
import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { buildChatChunks, buildChatCompletion } from './build-chat-completion';
import { requestDigest } from './decide-answer';
import { sendError } from './http-io';
import { errorForStatus, openAiError } from './openai-error';
import { openAiContextLength } from './context-length-fault';
import { refuseChatParameters } from './openai-model-rules';
import { parseOpenAiBody } from './parse-openai-body';
import { planProviderAnswer, type ChatContext } from './plan-provider-answer';
import { sendJsonAnswer } from './send-json-answer';
import { writeChatStream } from './write-chat-stream';

export type { ChatContext } from './plan-provider-answer';

const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'];

/** POST /v1/chat/completions: validate, pick the fault, decide the answer, send it. */
export async function handleChatCompletion(res: ServerResponse, rawBody: string, context: ChatContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, ChatCompletionRequestSchema);
  if (!request) return;
  // What the real model refuses (top_k, an effort on a chat model, output over its limit…).
  const refusal = refuseChatParameters(request);
  if (refusal) {
    sendError(res, 400, openAiError(refusal.message, 'invalid_request_error', refusal.param, refusal.code));
    return;
  }
  const answer = planProviderAnswer(request, context);
  if (answer.kind === 'invalid') {
    sendError(res, 400, openAiError(answer.message, 'invalid_request_error', answer.param));
    return;
  }
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    sendError(res, fault.status, fault.contextLength ? openAiContextLength() : errorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  const tier = request.service_tier;
  if (tier !== undefined && tier !== null && !SERVICE_TIERS.includes(tier)) {
    const message = `Invalid value: '${tier}'. Supported values are: ${SERVICE_TIERS.map((value) => `'${value}'`).join(', ')}.`;
    sendError(res, 400, openAiError(message, 'invalid_request_error', 'service_tier', 'invalid_value'));
    return;
  }
  const meta = {
    id: `chatcmpl-sim${requestDigest(request).slice(0, 24)}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    // As OpenAI says which tier served it: the one asked for, `default` for `auto`.
    ...(tier ? { serviceTier: tier === 'auto' ? 'default' : tier } : {}),
  };
  if (request.stream !== true) {
    if (fault?.kind === 'stream-error') {
      sendError(res, 500, errorForStatus(500));
      return;
    }
    const body = JSON.stringify(buildChatCompletion(plan, meta));
    await sendJsonAnswer(res, body, { completionTokens: plan.usage.completion_tokens, latencyMsPerToken }, fault);
    return;
  }
  const includeUsage = request.stream_options?.include_usage === true;
  // On by default at OpenAI (stream_options.include_obfuscation, API reference).
  const withObfuscation = request.stream_options?.include_obfuscation !== false;
  await writeChatStream(res, buildChatChunks(plan, meta, includeUsage, withObfuscation), { latencyMsPerToken, fault });
}
