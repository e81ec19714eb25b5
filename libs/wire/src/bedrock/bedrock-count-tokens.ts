import { z } from 'zod';
import type { TokenCounter } from '../providers/channel-provider';
import { bedrockAuthHeaders } from '../providers/provider-auth';
import { betasOfHeader } from './bedrock-betas';
import { mapBedrockErrorResponse } from './bedrock-error';
import { bedrockModelUrl, foundationModelIdOf, isBedrockClaude } from './bedrock-model-id';
import { toInvokeModelBody } from './to-invoke-model-body';

const CountTokensAnswerSchema = z.object({ inputTokens: z.number().int().nonnegative() });

/**
 * Bedrock's own count of a Messages caller's request: `POST {base}/model/{id}/count-tokens` with
 * `{"input": {"invokeModel": {"body": "<base64 of the InvokeModel body>"}}}`, answered
 * `{"inputTokens": N}` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html).
 * CountTokens names a foundation model, so an inference profile's prefix is cut off; the body is
 * checked as an InvokeModel body, which needs `max_tokens` — a count_tokens request has none, so
 * it gets 1 (it does not change the prompt's count).
 */
export const bedrockTokenCounter: TokenCounter = {
  dialect: 'messages',
  // CountTokens takes InvokeModel bodies: Claude's only here (the Converse models are counted by the relay).
  counts: isBedrockClaude,
  buildRequest({ channel, key, body, upstreamModel, headers }) {
    const invoke = toInvokeModelBody(body, betasOfHeader(headers['anthropic-beta'])).body;
    if (invoke['max_tokens'] === undefined) invoke['max_tokens'] = 1;
    const count = { input: { invokeModel: { body: Buffer.from(JSON.stringify(invoke), 'utf8').toString('base64') } } };
    return {
      url: bedrockModelUrl(channel.baseUrl, foundationModelIdOf(upstreamModel), 'count-tokens'),
      headers: { ...bedrockAuthHeaders(key), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(count),
    };
  },
  convertResponse: (json) => {
    const answer = CountTokensAnswerSchema.safeParse(json);
    return answer.success ? { input_tokens: answer.data.inputTokens } : json;
  },
  mapErrorResponse: mapBedrockErrorResponse,
};
