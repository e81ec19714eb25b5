import type { ServerResponse } from 'node:http';
import { CompletionRequestSchema } from '@chat-relay/contract';
import { sendError } from '../http-io';
import { openAiError } from '../openai-error';
import { parseOpenAiBody } from '../parse-openai-body';
import { writeChatStream } from '../write-chat-stream';
import { answerPrompt, buildCompletion, buildCompletionChunks, completionId, promptsOf } from './build-completion';
import {
  openAiDialect,
  planEndpointCall,
  playFaultInsteadOfAnswer,
  sendEndpointAnswer,
  type EndpointFaultContext,
} from './endpoint-answer';

/**
 * POST /v1/completions (legacy text completions, gpt-3.5-turbo-instruct): the brain's answer
 * to each prompt, `n` times, streamed as `text_completion` chunks then `[DONE]`, or whole.
 */
export async function handleCompletions(res: ServerResponse, rawBody: string, context: EndpointFaultContext): Promise<void> {
  const request = parseOpenAiBody(res, rawBody, CompletionRequestSchema);
  if (!request) return;
  const prompts = promptsOf(request.prompt);
  const planned = planEndpointCall(request['x_sim'], prompts.map((prompt) => prompt.text).join('\n'), 'prompt', context);
  if (planned.kind === 'invalid') {
    sendError(res, 400, openAiError(planned.message, 'invalid_request_error', planned.param));
    return;
  }
  const { plan } = planned;
  const answers = prompts.map((prompt) => answerPrompt(request, prompt));
  const meta = { id: completionId(request), created: Math.floor(Date.now() / 1000), model: request.model };
  const completion = buildCompletion(answers, request.n ?? 1, typeof request.logprobs === 'number', meta);
  if (request.stream !== true) {
    const work = completion.usage?.completion_tokens ?? 0;
    await sendEndpointAnswer(res, plan, openAiDialect, { body: JSON.stringify(completion), work });
    return;
  }
  if (plan.fault?.kind !== 'stream-error' && playFaultInsteadOfAnswer(res, plan, openAiDialect)) return;
  const chunks = buildCompletionChunks(completion, request.stream_options?.include_usage === true);
  const streamFault = plan.fault?.kind === 'status' || plan.fault?.kind === 'timeout' ? undefined : plan.fault;
  await writeChatStream(res, chunks, { latencyMsPerToken: plan.latencyMsPerToken, fault: streamFault });
}
