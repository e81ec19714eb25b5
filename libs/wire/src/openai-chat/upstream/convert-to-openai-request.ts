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

const ASK_FOR_USAGE = Buffer.from(',"stream_options":{"include_usage":true}');

/**
 * The bytes to send. When the caller's body needs nothing changed — same model name, and usage
 * already asked for on a stream (or no stream) — it goes as received, unknown fields and all,
 * without being serialised again; when only `stream_options` is missing, it is appended.
 * Anything else is serialised from `request`.
 */
export function openAiRequestBody(request: ChatCompletionRequest, upstreamModel: string, rawBody: Buffer | undefined): string | Buffer {
  if (rawBody && request.model === upstreamModel) {
    if (!request.stream || request.stream_options?.include_usage === true) return rawBody;
    const end = lastNonSpace(rawBody);
    // A valid request is an object with at least `model` and `messages`, so a comma fits before `}`.
    if (request.stream_options === undefined && rawBody[end] === 0x7d) {
      return Buffer.concat([rawBody.subarray(0, end), ASK_FOR_USAGE, rawBody.subarray(end)]);
    }
  }
  return JSON.stringify(convertToOpenAiRequest(request, upstreamModel));
}

function lastNonSpace(bytes: Buffer): number {
  let index = bytes.length - 1;
  while (index >= 0 && (bytes[index] === 0x20 || bytes[index] === 0x0a || bytes[index] === 0x0d || bytes[index] === 0x09)) index -= 1;
  return index;
}
