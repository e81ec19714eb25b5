import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { ChatCompletionRequest } from '@chat-relay/contract';
import { thinkingTextFor } from '../anthropic/add-thinking';
import type { AnswerContent } from '../build-chat-completion';
import { requestDigest } from '../decide-answer';
import { lastUserText } from '../message-text';
import { planProviderAnswer, type ChatContext } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import { firstIssue, protoPath } from '../zod-issues';
import { buildGenerateContentEvents, buildGenerateContentResponse } from './build-gemini-response';
import { checkGeminiRequest } from './check-gemini-request';
import { refuseForGeminiModel } from './gemini-model-rules';
import { GenerateContentRequestSchema, type GenerateContentRequest, type GroundingMetadata } from './gemini-api';
import { checkGeminiKey } from './check-gemini-key';
import { geminiImageAnswer, wantsImage } from './gemini-image-answer';
import { geminiErrorForStatus, geminiOverloaded, invalidArgument, sendGeminiError } from './gemini-error';
import { geminiContextLength } from '../context-length-fault';
import { findThoughtSignatureProblem, thoughtSignatureFor } from './thought-signature';
import { geminiToInternalRequest } from './to-internal-request';
import { writeGeminiStream } from './write-gemini-stream';

export interface GeminiContext extends ChatContext {
  acceptedKeys: ReadonlySet<string> | undefined;
}

export interface GenerateContentCall {
  /** The `{model}` of `/v1beta/models/{model}:…`, decoded. */
  model: string;
  stream: boolean;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

function parseGenerateContentRequest(res: ServerResponse, rawBody: string, model: string): GenerateContentRequest | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    sendGeminiError(res, invalidArgument('Invalid JSON payload received. The body is not valid JSON.'));
    return undefined;
  }
  const parsed = GenerateContentRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const message = issue.message === 'Required' ? 'required field is not set.' : issue.message;
    sendGeminiError(res, invalidArgument(`* GenerateContentRequest.${protoPath(issue.path)}: ${message}`));
    return undefined;
  }
  const problem =
    refuseForGeminiModel(parsed.data, model) ?? checkGeminiRequest(parsed.data) ?? findThoughtSignatureProblem(parsed.data, model);
  if (problem) {
    sendGeminiError(res, invalidArgument(problem));
    return undefined;
  }
  return parsed.data;
}

/** The thinking the request asked for: a positive `thinkingBudget` is reported as spent. */
function thoughtsTokenCount(request: GenerateContentRequest): number | undefined {
  const budget = request.generationConfig?.thinkingConfig?.thinkingBudget;
  return budget !== undefined && budget > 0 ? budget : undefined;
}

/**
 * The thought summary, when the request asks for it (`includeThoughts`) and thinks (a budget
 * other than 0, or a level): one `thought: true` text part before the answer, as Gemini sends it
 * (test-fixtures/gemini/cassette-thinking-part.yaml).
 */
function thoughtsOf(request: GenerateContentRequest, plan: AnswerContent, internal: ChatCompletionRequest): { thoughts?: string } {
  const config = request.generationConfig?.thinkingConfig as Record<string, unknown> | undefined;
  if (config?.['includeThoughts'] !== true || config['thinkingBudget'] === 0) return {};
  return { thoughts: thinkingTextFor(plan, internal) };
}

/** Google Search offered (`googleSearch`, or its proto name): one query of the user's words, one source. */
function groundingFor(request: { tools?: unknown }, query: string): { grounding?: GroundingMetadata } {
  const tools = Array.isArray(request.tools) ? (request.tools as unknown[]) : [];
  const searches = tools.some((tool) => typeof tool === 'object' && tool !== null && ('googleSearch' in tool || 'google_search' in tool));
  if (!searches) return {};
  const uri = `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(query).toString('base64url').slice(0, 16)}`;
  return { grounding: { webSearchQueries: [query], searchEntryPoint: { renderedContent: '<div></div>' }, groundingChunks: [{ web: { uri, title: 'example.com' } }] } };
}

/** POST /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse */
export async function handleGenerateContent(
  call: GenerateContentCall,
  res: ServerResponse,
  rawBody: string,
  context: GeminiContext,
): Promise<void> {
  if (!checkGeminiKey(call.headers, res, context.acceptedKeys)) return;
  if (call.stream && call.query.get('alt') !== 'sse') {
    sendGeminiError(res, invalidArgument('The simulator streams streamGenerateContent only as server-sent events: add ?alt=sse.'));
    return;
  }
  const request = parseGenerateContentRequest(res, rawBody, call.model);
  if (!request) return;
  const internal = geminiToInternalRequest(request, call.model);
  const answer = planProviderAnswer(internal, context);
  if (answer.kind === 'invalid') {
    sendGeminiError(res, invalidArgument(`${answer.param}: ${answer.message}`));
    return;
  }
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') {
    sendGeminiError(res, fault.contextLength ? geminiContextLength() : geminiErrorForStatus(fault.status));
    return;
  }
  // Never answer; the socket stays open until the client gives up (no timer to leak).
  if (fault?.kind === 'timeout') return;

  const meta = {
    model: call.model,
    responseId: `sim${requestDigest(internal).slice(0, 20)}`,
    thoughtSignature: thoughtSignatureFor(internal),
    thoughtsTokenCount: thoughtsTokenCount(request),
    ...thoughtsOf(request, plan, internal),
    ...groundingFor(request, lastUserText(internal.messages)),
  };
  // An image model asked for an image answers with one instead of the brain's text or calls.
  const image = wantsImage(request) ? geminiImageAnswer(request, internal, plan, meta) : undefined;
  if (!call.stream) {
    if (fault?.kind === 'stream-error') {
      sendGeminiError(res, geminiOverloaded);
      return;
    }
    const body = JSON.stringify(image?.response ?? buildGenerateContentResponse(plan, meta));
    const completionTokens = image?.outputTokens ?? plan.usage.completion_tokens;
    await sendJsonAnswer(res, body, { completionTokens, latencyMsPerToken }, fault);
    return;
  }
  await writeGeminiStream(res, image?.events ?? buildGenerateContentEvents(plan, meta), { latencyMsPerToken, fault });
}
