import type { ChatCompletionRequest } from '@chat-relay/contract';

/**
 * The body sent to an OpenAI-compatible upstream: the caller's request as it came (unknown
 * fields included) with the upstream model name, and usage always asked for on streams so the
 * relay can account for them (the usage chunk is removed again when the caller did not ask).
 */
export function convertToOpenAiRequest(request: ChatCompletionRequest, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request, model: upstreamModel };
  if (request.stream) body['stream_options'] = { ...(request.stream_options ?? {}), include_usage: true };
  return body;
}
