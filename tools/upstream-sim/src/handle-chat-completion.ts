import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatCompletionRequest, ChatCompletionRequestSchema } from '@chat-relay/contract';
import type { ZodIssue } from 'zod';
import { buildChatChunks, buildChatCompletion, type AnswerContent } from './build-chat-completion';
import { decideAnswer, requestDigest } from './decide-answer';
import { readDirectives } from './faults';
import { sendError, signalOnClose, writeFlushed } from './http-io';
import { errorForStatus, openAiError } from './openai-error';
import type { SimFault } from './sim-types';
import { writeChatStream } from './write-chat-stream';

export interface ChatContext {
  defaultLatencyMsPerToken: number;
  /** The next fault queued with `failNext`, removed from the queue. */
  takeQueuedFault(): SimFault | undefined;
}

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

async function sendCompletion(
  res: ServerResponse,
  plan: AnswerContent,
  meta: { id: string; created: number; model: string },
  fault: SimFault | undefined,
  latencyMsPerToken: number,
): Promise<void> {
  const signal = signalOnClose(res);
  if (latencyMsPerToken > 0) {
    await sleep(latencyMsPerToken * plan.usage.completion_tokens, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
  }
  const body = JSON.stringify(buildChatCompletion(plan, meta));
  if (fault?.kind === 'malformed') {
    const broken = body.slice(0, Math.floor(body.length / 2));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(broken) });
    res.end(broken);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  if (fault?.kind === 'cut') {
    await writeFlushed(res, body.slice(0, Math.floor(body.length / 2)), signal);
    res.destroy();
    return;
  }
  res.end(body);
}

/** POST /v1/chat/completions: validate, pick the fault, decide the answer, send it. */
export async function handleChatCompletion(res: ServerResponse, rawBody: string, context: ChatContext): Promise<void> {
  const request = parseChatRequest(res, rawBody);
  if (!request) return;
  const directives = readDirectives(request);
  if (directives.kind === 'invalid') {
    sendError(res, 400, openAiError(directives.message, 'invalid_request_error', directives.param));
    return;
  }
  const plan = decideAnswer(request);
  if (plan.kind === 'invalid') {
    sendError(res, 400, openAiError(plan.message, 'invalid_request_error', plan.param));
    return;
  }

  const fault = context.takeQueuedFault() ?? directives.directives.fault;
  const latencyMsPerToken = directives.directives.latencyMsPerToken ?? context.defaultLatencyMsPerToken;
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
    await sendCompletion(res, plan, meta, fault, latencyMsPerToken);
    return;
  }
  const includeUsage = request.stream_options?.include_usage === true;
  await writeChatStream(res, buildChatChunks(plan, meta, includeUsage), {
    latencyMsPerToken,
    fault,
    signal: signalOnClose(res),
  });
}
