import {
  AnthropicCountTokensResponseSchema,
  type AnthropicCountTokensRequest,
  type AnthropicCountTokensResponse,
  type ChatCompletionRequest,
} from '@chat-relay/contract';
import { stripBridgedThinking } from '@chat-relay/wire';
import type { AbortLike } from '../../core/caller-gone';
import { countTokens, type CountTokensDeps } from '../../pipeline/count-tokens';
import type { RelayTrace } from '../../pipeline/request-context';

export type { CountTokensDeps };

export interface CountMessageTokensRequest {
  /** The request in the hub's form (assistant applied): what routing and the tokenizer see. */
  hub: ChatCompletionRequest;
  /** The caller's own request (assistant applied), for an Anthropic channel. */
  native: AnthropicCountTokensRequest;
  /** The caller's bytes, when `native` is exactly them. */
  rawBody?: Buffer;
  headers: Readonly<Record<string, string>>;
}

/**
 * `POST /v1/messages/count_tokens`: an `anthropic` channel serving the model counts, else the
 * relay's tokenizer (pipeline/count-tokens.ts). Thinking blocks a bridge signed are left out of
 * what an Anthropic channel receives, as on `/v1/messages`.
 */
export function countMessageTokens(
  deps: CountTokensDeps,
  request: CountMessageTokensRequest,
  trace: RelayTrace,
  signal: AbortLike,
): Promise<AnthropicCountTokensResponse> {
  const native = stripBridgedThinking(request.native);
  return countTokens(
    deps,
    {
      hub: request.hub,
      dialect: 'messages',
      native,
      rawBody: native === request.native ? request.rawBody : undefined,
      headers: request.headers,
      answer: AnthropicCountTokensResponseSchema,
      counted: (tokens) => ({ input_tokens: tokens }),
    },
    trace,
    signal,
  );
}
