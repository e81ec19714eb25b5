import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { requestDigest } from '../decide-answer';
import { lastUserText } from '../message-text';
import { planProviderAnswer, type ChatContext } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import { addThinking } from './add-thinking';
import { MessagesRequestSchema } from './anthropic-api';
import { anthropicErrorForStatus, anthropicOverloaded, invalidRequest, sendAnthropicError } from './anthropic-error';
import { anthropicContextLength } from '../context-length-fault';
import { foldSystemMessages } from './mid-conversation-system';
import { checkAnthropicHeaders, type AnthropicHeaderRules } from './anthropic-headers';
import { refuseForModel } from './anthropic-model-rules';
import { buildAnthropicEvents, buildAnthropicMessage } from './build-anthropic-message';
import { checkAnthropicPrompt, parseAnthropicBody } from './check-anthropic-request';
import { refuseServerTools, webSearchBlocks } from './server-tools';
import type { PromptCache } from './prompt-cache';
import { anthropicToInternalRequest } from './to-internal-request';
import { writeAnthropicStream } from './write-anthropic-stream';

export interface AnthropicContext extends ChatContext, AnthropicHeaderRules {
  promptCache: PromptCache;
  /** What count_tokens and `GET /v1/models` know. */
  anthropicModels: readonly string[];
}

/** POST /v1/messages: the Messages API over the simulator's one brain, streamed or not. */
export async function handleAnthropicMessages(
  headers: IncomingHttpHeaders,
  res: ServerResponse,
  rawBody: string,
  context: AnthropicContext,
): Promise<void> {
  if (!checkAnthropicHeaders(headers, res, context)) return;
  const parsed = parseAnthropicBody(foldSystemMessages(headers, rawBody), MessagesRequestSchema);
  if (!parsed.ok) return invalidRequest(res, parsed.message);
  const request = parsed.value;
  const modelRefusal = refuseForModel(request);
  if (modelRefusal) return invalidRequest(res, modelRefusal);
  const checked = checkAnthropicPrompt(request, request.max_tokens);
  if (!checked.ok) return invalidRequest(res, checked.message);
  const serverRefusal = refuseServerTools(request.tools);
  if (serverRefusal) return invalidRequest(res, serverRefusal);

  const internal = anthropicToInternalRequest(request);
  const answer = planProviderAnswer(internal, context);
  if (answer.kind === 'invalid') return invalidRequest(res, `${answer.param}: ${answer.message}`);
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    sendAnthropicError(res, fault.status, fault.contextLength ? anthropicContextLength() : anthropicErrorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  // Only a request that is answered writes to the prompt cache: the cache of the key's workspace.
  const workspace = [headers['x-api-key']].flat()[0]?.trim() ?? '';
  const inputUsage = context.promptCache.account(request.model, checked.segments, { write: true, workspace });
  const offersServerTools = (request.tools ?? []).some((tool) => typeof tool.type === 'string' && tool.type.startsWith('web_search_'));
  const query = lastUserText(internal.messages);
  const meta = {
    id: `msg_sim${requestDigest(internal).slice(0, 24)}`,
    model: request.model,
    inputUsage,
    ...(offersServerTools ? { serverBlocks: webSearchBlocks(request.tools, request.tool_choice, query) } : {}),
  };
  const full = addThinking(plan, internal, request);
  if (request.stream !== true) {
    if (fault?.kind === 'stream-error') {
      sendAnthropicError(res, 529, anthropicOverloaded);
      return;
    }
    const body = JSON.stringify(buildAnthropicMessage(full, meta));
    await sendJsonAnswer(res, body, { completionTokens: full.outputTokens, latencyMsPerToken }, fault);
    return;
  }
  await writeAnthropicStream(res, buildAnthropicEvents(full, meta), { latencyMsPerToken, fault });
}
