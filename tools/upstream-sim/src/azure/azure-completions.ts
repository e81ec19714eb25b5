import type { ServerResponse } from 'node:http';
import { CompletionRequestSchema } from '@chat-relay/contract';
import { answerPrompt, buildCompletion, buildCompletionChunks, completionId, promptsOf } from '../endpoints/build-completion';
import { planEndpointCall, playFaultInsteadOfAnswer, sendEndpointAnswer, type EndpointFaultContext, type ErrorDialect } from '../endpoints/endpoint-answer';
import { sendError } from '../http-io';
import { openAiError } from '../openai-error';
import { parseOpenAiBody } from '../parse-openai-body';
import { streamErrorEvent } from '../write-chat-stream';
import { clampGoodFrames, writeEventStream } from '../write-event-stream';
import { annotateAnswer, annotateChunk, preambleChunk } from './azure-annotate';
import { PROMPT_FILTER_WORD } from './azure-chat';
import { azureStatusAnswer, promptFiltered, sendAzureError } from './azure-errors';

/** Faults in Azure's words (the retry headers of a queued 429 are written by the route, before the handler). */
const azureDialect: ErrorDialect = {
  forStatus: (status) => ({ status, body: azureStatusAnswer(status).body }),
  unstreamed: { status: 500, body: azureStatusAnswer(500).body },
};

/**
 * `POST …/completions` on an Azure route (gpt-35-turbo-instruct deployments): the simulator's
 * completions, annotated as Azure annotates them — `prompt_filter_results` on the answer and a
 * stream's first chunk alone, `content_filter_results` on each choice — and its prompt refusal.
 */
export async function handleAzureCompletions(res: ServerResponse, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, CompletionRequestSchema);
  if (!request) return;
  const prompts = promptsOf(request.prompt);
  const text = prompts.map((prompt) => prompt.text).join('\n');
  if (text.includes(PROMPT_FILTER_WORD)) return sendAzureError(res, 400, promptFiltered);
  const planned = planEndpointCall(request['x_sim'], text, 'prompt', context);
  if (planned.kind === 'invalid') return sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
  const { plan } = planned;
  const answers = prompts.map((prompt) => answerPrompt(request, prompt));
  const meta = { id: completionId(request), created: Math.floor(Date.now() / 1000), model: request.model };
  const completion = buildCompletion(answers, request.n ?? 1, typeof request.logprobs === 'number', meta);
  if (request.stream !== true) {
    await sendEndpointAnswer(res, plan, azureDialect, { body: JSON.stringify(annotateAnswer(completion)), work: completion.usage?.completion_tokens ?? 0 });
    return;
  }
  if (plan.fault?.kind !== 'stream-error' && playFaultInsteadOfAnswer(res, plan, azureDialect)) return;
  const chunks = [preambleChunk(), ...buildCompletionChunks(completion, request.stream_options?.include_usage === true).map((chunk) => (chunk.choices.length > 0 ? annotateChunk(chunk) : chunk))];
  const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  const fault = plan.fault?.kind === 'status' || plan.fault?.kind === 'timeout' ? undefined : plan.fault;
  await writeEventStream(
    res,
    {
      frames,
      goodFramesBeforeFault: (streamFault) => clampGoodFrames(streamFault.kind === 'cut' ? 4 : 3, frames.length),
      endFrame: 'data: [DONE]\n\n',
      malformedFrame: 'data: {not json\n\n',
      errorFrame: streamErrorEvent,
    },
    { latencyMsPerToken: plan.latencyMsPerToken, fault },
  );
}
