import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import type { AxiosInstance } from 'axios';
import type { Readable } from 'node:stream';
import { abortErrorOf } from './abort-error';
import { toFetchHeaders } from './axios-fetcher';
import { parseChatCompletionStream } from './parse-chat-completion-stream';
import { readErrorBody } from './read-error-body';
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
  let body: Readable | undefined;
  try {
    const response = await http.request<Readable>({
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
      throw RelayApiError.fromBody({ status: response.status, body: await readErrorBody(body), requestId });
    }
    yield* parseChatCompletionStream({ body, requestId });
  } catch (error) {
    if (signal?.aborted) throw abortErrorOf(signal);
    throw error;
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
    if (body && !body.readableEnded) body.destroy();
    controller.abort();
  }
}
