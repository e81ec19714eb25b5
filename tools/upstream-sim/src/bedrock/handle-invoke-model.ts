import type { ServerResponse } from 'node:http';
import { requestDigest } from '../decide-answer';
import { planProviderAnswer } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import { addThinking } from '../anthropic/add-thinking';
import { MessagesRequestSchema, type AnthropicUsage } from '../anthropic/anthropic-api';
import { refuseForModel } from '../anthropic/anthropic-model-rules';
import { buildAnthropicEvents, buildAnthropicMessage } from '../anthropic/build-anthropic-message';
import { checkAnthropicPrompt, parseAnthropicBody, type CheckedPrompt } from '../anthropic/check-anthropic-request';
import type { AnthropicContext } from '../anthropic/handle-messages';
import { foldSystemMessages } from '../anthropic/mid-conversation-system';
import { refuseServerTools } from '../anthropic/server-tools';
import { anthropicToInternalRequest } from '../anthropic/to-internal-request';
import type { MessagesRequest } from '../anthropic/anthropic-api';
import { bedrockErrorForStatus, sendBedrockError, sendValidationError } from './bedrock-error';
import { claudeNameOf, refuseInvokeBody } from './check-invoke-body';
import { bedrockFrames, throttledMessage, writeBedrockStream, type InvocationMetrics } from './write-bedrock-stream';

export interface InvokeCall {
  /** The model id of the URL, decoded (`us.anthropic.claude-…-v1:0`, an ARN). */
  modelId: string;
  rawBody: string;
  stream: boolean;
  /** Whose prompt cache: the access key id, or the Bedrock API key. */
  caller: string;
}

/** A Claude InvokeModel body, checked as Bedrock and then Claude check it, as the Messages request it carries. */
export type ReadInvokeBody = { ok: true; request: MessagesRequest; checked: Extract<CheckedPrompt, { ok: true }> } | { ok: false; message: string };

/**
 * The body → the Messages request inside it (model named as Claude names itself), or the
 * ValidationException's words: Bedrock's own checks (check-invoke-body.ts), then Claude's, which
 * Bedrock passes on with the Messages API's words.
 */
export function readInvokeBody(modelId: string, rawBody: string, onDemandCheck: boolean): ReadInvokeBody {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { ok: false, message: 'Malformed input request, please reformat your input and try again.' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'Malformed input request: #: expected type: JSONObject, please reformat your input and try again.' };
  const name = claudeNameOf(modelId);
  if (!name) return { ok: false, message: 'The provided model identifier is invalid.' };
  const fields = body as Record<string, unknown>;
  const refusal = refuseInvokeBody(fields, modelId, onDemandCheck);
  if (refusal) return { ok: false, message: refusal };
  const { anthropic_version: _version, anthropic_beta: betas, ...messages } = fields;
  const headers = { 'anthropic-beta': Array.isArray(betas) ? betas.join(',') : '' };
  const parsed = parseAnthropicBody(foldSystemMessages(headers, JSON.stringify({ ...messages, model: name })), MessagesRequestSchema);
  if (!parsed.ok) return parsed;
  const request = parsed.value;
  const problem = refuseForModel(request) ?? refuseServerTools(request.tools);
  if (problem) return { ok: false, message: problem };
  const checked = checkAnthropicPrompt(request, request.max_tokens);
  return checked.ok ? { ok: true, request, checked } : checked;
}

function metricsOf(usage: AnthropicUsage): InvocationMetrics {
  const metrics: InvocationMetrics = { inputTokenCount: usage.input_tokens, outputTokenCount: usage.output_tokens, invocationLatency: 0, firstByteLatency: 0 };
  if (usage.cache_read_input_tokens > 0) metrics.cacheReadInputTokenCount = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens > 0) metrics.cacheWriteInputTokenCount = usage.cache_creation_input_tokens;
  return metrics;
}

/**
 * `POST /model/{id}/invoke` and `/invoke-with-response-stream` for Claude: the Messages API's
 * answer from the simulator's Anthropic brain (the same conversation answers the same), unstreamed
 * with Bedrock's token-count headers, or streamed as AWS's event stream with Bedrock's invocation
 * metrics on the last chunk. The simulator's faults play here too: `status:N` as the exception
 * Bedrock answers with N, `stream-error` mid-stream as a `throttlingException` (unstreamed: 429).
 */
export async function handleInvokeModel(res: ServerResponse, call: InvokeCall, context: AnthropicContext): Promise<void> {
  const read = readInvokeBody(call.modelId, call.rawBody, true);
  if (!read.ok) return sendValidationError(res, read.message);
  const { request, checked } = read;
  const internal = anthropicToInternalRequest(request);
  const answer = planProviderAnswer(internal, context);
  if (answer.kind === 'invalid') return sendValidationError(res, `${answer.param}: ${answer.message}`);
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    const error = bedrockErrorForStatus(fault.status);
    return sendBedrockError(res, fault.status, error.type, error.message);
  }
  // Never answer; the socket stays open until the client gives up.
  if (fault?.kind === 'timeout') return;

  const inputUsage = context.promptCache.account(request.model, checked.segments, { write: true, workspace: `bedrock:${call.caller}` });
  const meta = { id: `msg_bdrk_${requestDigest(internal).slice(0, 24)}`, model: request.model, inputUsage };
  const full = addThinking(plan, internal, request);
  if (!call.stream) {
    if (fault?.kind === 'stream-error') return sendBedrockError(res, 429, 'ThrottlingException', throttledMessage);
    const message = buildAnthropicMessage(full, meta);
    res.setHeader('x-amzn-bedrock-input-token-count', String(message.usage.input_tokens));
    res.setHeader('x-amzn-bedrock-output-token-count', String(message.usage.output_tokens));
    res.setHeader('x-amzn-bedrock-invocation-latency', '0');
    await sendJsonAnswer(res, JSON.stringify(message), { completionTokens: full.outputTokens, latencyMsPerToken }, fault);
    return;
  }
  const events = buildAnthropicEvents(full, meta);
  const delta = events.find((event) => event.type === 'message_delta');
  const usage: AnthropicUsage = { ...inputUsage, output_tokens: delta?.type === 'message_delta' ? delta.usage.output_tokens : 0 };
  await writeBedrockStream(res, bedrockFrames(events, metricsOf(usage)), { latencyMsPerToken, fault });
}
