import type { ServerResponse } from 'node:http';
import { ChatCompletionRequestSchema, type ChatCompletion, type ChatCompletionChunk } from '@chat-relay/contract';
import { buildChatChunks, buildChatCompletion } from '../build-chat-completion';
import { requestDigest } from '../decide-answer';
import { sendError } from '../http-io';
import { lastUserText } from '../message-text';
import { openAiError } from '../openai-error';
import { refuseChatParameters } from '../openai-model-rules';
import { parseOpenAiBody } from '../parse-openai-body';
import { planProviderAnswer, type ChatContext } from '../plan-provider-answer';
import { sendJsonAnswer } from '../send-json-answer';
import type { SimFault } from '../sim-types';
import { streamErrorEvent } from '../write-chat-stream';
import { clampGoodFrames, writeEventStream } from '../write-event-stream';
import { annotateAnswer, annotateChunk, preambleChunk, promptFilterResults, type Json } from './azure-annotate';
import { azureStatusAnswer, filterVerdicts, promptFiltered, sendAzureError } from './azure-errors';

/** In the last user message: the content filter refuses the prompt (400 `content_filter`), streamed or not. */
export const PROMPT_FILTER_WORD = 'sim-filter-prompt';
/** In the last user message: the filter stops the answer after its first piece (`finish_reason: content_filter`). */
export const OUTPUT_FILTER_WORD = 'sim-filter-output';

/**
 * The chunks Azure streams for `chunks`: the preamble first, each choice annotated; with the
 * output filter tripped, the role and first piece, then a `content_filter` finish (and usage).
 */
function azureChunks(chunks: ChatCompletionChunk[], outputFiltered: boolean): Json[] {
  if (!outputFiltered) return [preambleChunk(), ...chunks.map((chunk) => annotateChunk(chunk, false))];
  const finishAt = chunks.findIndex((chunk) => chunk.choices.some((choice) => choice.finish_reason !== null));
  const kept = chunks.slice(0, Math.min(2, finishAt)).map((chunk) => annotateChunk(chunk, false));
  const finish = chunks[finishAt];
  const filtered = finish ? [annotateChunk({ ...finish, choices: finish.choices.map((choice) => ({ ...choice, finish_reason: 'content_filter' })) }, true)] : [];
  return [preambleChunk(), ...kept, ...filtered, ...chunks.slice(finishAt + 1)];
}

/** A whole answer as Azure sends it: the prompt's verdicts, each choice's; filtered output leaves no content. */
function azureCompletion(completion: ChatCompletion, outputFiltered: boolean): Json {
  if (!outputFiltered) return annotateAnswer(completion);
  const choices = completion.choices.map((choice) => ({ content_filter_results: filterVerdicts(true), ...choice, message: { ...choice.message, content: null }, finish_reason: 'content_filter' }));
  return { ...completion, choices, prompt_filter_results: promptFilterResults() };
}

function sendFault(res: ServerResponse, fault: Extract<SimFault, { kind: 'status' }>): void {
  const { body, headers } = azureStatusAnswer(fault.status);
  sendAzureError(res, fault.status, body, headers);
}

/**
 * `POST …/chat/completions` on an Azure route: the simulator's chat brain and faults, with
 * Azure's differences — the deployment as the model, the content filter's verdicts on every
 * answer and stream, its refusals, and Azure's own error bodies for status faults.
 */
export async function handleAzureChat(res: ServerResponse, rawBody: string, deployment: string | undefined, context: ChatContext): Promise<void> {
  const parsed = parseOpenAiBody(res, rawBody, ChatCompletionRequestSchema);
  if (!parsed) return;
  const request = deployment === undefined ? parsed : { ...parsed, model: deployment };
  const refusal = refuseChatParameters(request);
  if (refusal) {
    sendError(res, 400, openAiError(refusal.message, 'invalid_request_error', refusal.param, refusal.code));
    return;
  }
  const prompt = lastUserText(request.messages);
  if (prompt.includes(PROMPT_FILTER_WORD)) {
    sendAzureError(res, 400, promptFiltered);
    return;
  }
  const answer = planProviderAnswer(request, context);
  if (answer.kind === 'invalid') {
    sendError(res, 400, openAiError(answer.message, 'invalid_request_error', answer.param));
    return;
  }
  const { plan, fault, latencyMsPerToken } = answer;
  if (fault?.kind === 'status') return sendFault(res, fault);
  if (fault?.kind === 'timeout') return;
  const outputFiltered = plan.kind === 'text' && prompt.includes(OUTPUT_FILTER_WORD);
  // Azure names the model behind the deployment; the simulator's deployments are named like their models.
  const meta = { id: `chatcmpl-sim${requestDigest(request).slice(0, 24)}`, created: Math.floor(Date.now() / 1000), model: request.model };
  if (request.stream !== true) {
    if (fault?.kind === 'stream-error') return sendFault(res, { kind: 'status', status: 500 });
    const body = JSON.stringify(azureCompletion(buildChatCompletion(plan, meta), outputFiltered));
    await sendJsonAnswer(res, body, { completionTokens: plan.usage.completion_tokens, latencyMsPerToken }, fault);
    return;
  }
  const chunks = azureChunks(buildChatChunks(plan, meta, request.stream_options?.include_usage === true), outputFiltered);
  const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  await writeEventStream(
    res,
    {
      frames,
      // The preamble and the role chunk go out before a fault, as on OpenAI's side after the role chunk.
      goodFramesBeforeFault: (streamFault) => clampGoodFrames(streamFault.kind === 'cut' ? 4 : 3, frames.length),
      endFrame: 'data: [DONE]\n\n',
      malformedFrame: 'data: {not json\n\n',
      errorFrame: streamErrorEvent,
    },
    { latencyMsPerToken, fault },
  );
}
