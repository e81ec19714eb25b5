import type { ServerResponse } from 'node:http';
import { type ChatCompletionRequest, ChatCompletionRequestSchema } from '@chat-relay/contract';
import type { ZodIssue } from 'zod';
import { buildChatChunks, buildChatCompletion } from './build-chat-completion';
import { requestDigest } from './decide-answer';
import { sendError } from './http-io';
import { errorForStatus, openAiError } from './openai-error';
import { planProviderAnswer, type ChatContext } from './plan-provider-answer';
import { sendJsonAnswer } from './send-json-answer';
import { writeChatStream } from './write-chat-stream';

export type { ChatContext } from './plan-provider-answer';

/** `messages[0].role` from `['messages', 0, 'role']`. */
function paramOf(path: ZodIssue['path']): string {
  return path.reduce<string>(
    (param, key) => (typeof key === 'number' ? `${param}[${key}]` : param ? `${param}.${key}` : key),
    '',
  );
}

function parseChatRequest(res: ServerResponse, rawBody: string): ChatCompletionRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    sendError(res, 400, openAiError('We could not parse the JSON body of your request.', 'invalid_request_error'));
    return undefined;
  }
  const parsed = ChatCompletionRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue ? paramOf(issue.path) : '';
  const message =
    issue?.code === 'invalid_type' && issue.received === 'undefined'
      ? `Missing required parameter: '${param}'.`
      : `Invalid '${param}': ${issue?.message ?? 'invalid request'}.`;
  sendError(res, 400, openAiError(message, 'invalid_request_error', param || null));
  return undefined;
}

/** POST /v1/chat/completions: validate, pick the fault, decide the answer, send it. */
export async function handleChatCompletion(res: ServerResponse, rawBody: string, context: ChatContext): Promise<void> {
  const request = parseChatRequest(res, rawBody);
  if (!request) return;
  const answer = planProviderAnswer(request, context);
  if (answer.kind === 'invalid') {
    sendError(res, 400, openAiError(answer.message, 'invalid_request_error', answer.param));
    return;
  }
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    sendError(res, fault.status, errorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  const meta = {
    id: `chatcmpl-sim${requestDigest(request).slice(0, 24)}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
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
  await writeChatStream(res, buildChatChunks(plan, meta, includeUsage), { latencyMsPerToken, fault });
}
