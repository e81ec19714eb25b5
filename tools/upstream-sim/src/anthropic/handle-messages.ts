import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { requestDigest } from '../decide-answer';
import { planProviderAnswer, type ChatContext } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import { dottedPath, firstIssue } from '../zod-issues';
import { MessagesRequestSchema, type MessagesRequest } from './anthropic-api';
import { anthropicError, anthropicErrorForStatus, anthropicOverloaded, sendAnthropicError } from './anthropic-error';
import { buildAnthropicEvents, buildAnthropicMessage } from './build-anthropic-message';
import { checkAnthropicConversation } from './check-anthropic-conversation';
import { anthropicToInternalRequest } from './to-internal-request';
import { writeAnthropicStream } from './write-anthropic-stream';

export interface AnthropicContext extends ChatContext {
  acceptedKeys: ReadonlySet<string> | undefined;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `x-api-key` (one of `acceptedKeys` when set) and `anthropic-version`, as the real API checks them. */
function checkHeaders(headers: IncomingHttpHeaders, res: ServerResponse, acceptedKeys: ReadonlySet<string> | undefined): boolean {
  const key = headerValue(headers, 'x-api-key')?.trim();
  if (!key) {
    sendAnthropicError(res, 401, anthropicError('authentication_error', 'x-api-key header is required'));
    return false;
  }
  if (acceptedKeys && !acceptedKeys.has(key)) {
    sendAnthropicError(res, 401, anthropicError('authentication_error', 'invalid x-api-key'));
    return false;
  }
  if (!headerValue(headers, 'anthropic-version')?.trim()) {
    sendAnthropicError(res, 400, anthropicError('invalid_request_error', 'anthropic-version: header is required'));
    return false;
  }
  return true;
}

function invalidRequest(res: ServerResponse, message: string): undefined {
  sendAnthropicError(res, 400, anthropicError('invalid_request_error', message));
  return undefined;
}

function parseMessagesRequest(res: ServerResponse, rawBody: string): MessagesRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return invalidRequest(res, 'There was an issue with your request body: it is not valid JSON.');
  }
  const parsed = MessagesRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return invalidRequest(res, `${dottedPath(issue.path)}: ${issue.missing ? 'Field required' : issue.message}`);
  }
  const problem = checkAnthropicConversation(parsed.data.messages);
  return problem ? invalidRequest(res, problem) : parsed.data;
}

/** POST /v1/messages: the Messages API over the simulator's one brain, streamed or not. */
export async function handleAnthropicMessages(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  rawBody: string,
  context: AnthropicContext,
): Promise<void> {
  if (!checkHeaders(headers, res, context.acceptedKeys)) return;
  const request = parseMessagesRequest(res, rawBody);
  if (!request) return;
  const internal = anthropicToInternalRequest(request);
  const answer = planProviderAnswer(internal, context);
  if (answer.kind === 'invalid') {
    invalidRequest(res, `${answer.param}: ${answer.message}`);
    return;
  }
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    sendAnthropicError(res, fault.status, anthropicErrorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  const meta = { id: `msg_sim${requestDigest(internal).slice(0, 24)}`, model: request.model };
  if (request.stream !== true) {
    if (fault?.kind === 'stream-error') {
      sendAnthropicError(res, 529, anthropicOverloaded);
      return;
    }
    const body = JSON.stringify(buildAnthropicMessage(plan, meta));
    await sendJsonAnswer(res, body, { completionTokens: plan.usage.completion_tokens, latencyMsPerToken }, fault);
    return;
  }
  await writeAnthropicStream(res, buildAnthropicEvents(plan, meta), { latencyMsPerToken, fault });
}
