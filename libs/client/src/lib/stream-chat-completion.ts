import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import type { AxiosInstance } from 'axios';
import { abortErrorOf } from './abort-error';
import { toFetchHeaders } from './axios-fetcher';
import { parseChatCompletionStream } from './parse-chat-completion-stream';
import { chunksOf, isWebStream, readErrorBody, type StreamBody } from './response-body';
import { RelayApiError } from './relay-api-error';

export interface StreamChatCompletionArgs {
  http: AxiosInstance;
  baseUrl: string;
  apiKey: string;
  request: ChatCompletionRequest;
  signal?: AbortSignal;
  /** Bounds the wait for the response headers; the stream itself may then last as long as it needs. */
  timeoutMs?: number;
}

/**
 * POSTs the request with `stream: true` and yields each chunk of the answer. Leaving the
 * `for await` early (break, throw) or aborting `signal` closes the HTTP request, which tells
 * the relay to stop the upstream call too.
 */
export async function* streamChatCompletion(
  args: StreamChatCompletionArgs,
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { http, baseUrl, apiKey, request, signal, timeoutMs } = args;
  if (signal?.aborted) throw abortErrorOf(signal);
  // Our own controller, so the request is closed on early exit even when the caller gave none.
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let body: StreamBody | undefined;
  try {
    const response = await http.request<StreamBody>({
      method: 'POST',
      url: `${baseUrl}/v1/chat/completions`,
      data: { ...request, stream: true },
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'text/event-stream',
        'content-type': 'application/json',
      },
      responseType: 'stream',
      validateStatus: () => true,
      signal: controller.signal,
      timeout: timeoutMs,
    });
    body = response.data;
    const requestId = toFetchHeaders(response.headers).get('x-request-id') ?? undefined;
    if (response.status < 200 || response.status >= 300) {
      throw RelayApiError.fromBody({ status: response.status, body: await readErrorBody(chunksOf(body)), requestId });
    }
    yield* parseChatCompletionStream({ body: chunksOf(body), requestId });
  } catch (error) {
    if (signal?.aborted) throw abortErrorOf(signal);
    throw error;
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
    if (body && !isWebStream(body) && !body.readableEnded) body.destroy();
    controller.abort();
  }
}
