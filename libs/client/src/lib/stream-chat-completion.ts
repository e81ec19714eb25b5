import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import type { AxiosInstance } from 'axios';
import { abortErrorOf } from './abort-error';
import { openStream } from './open-stream';
import { parseChatCompletionStream } from './parse-chat-completion-stream';

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
  const opened = await openStream({
    http,
    method: 'POST',
    url: `${baseUrl}/v1/chat/completions`,
    apiKey,
    accept: 'text/event-stream',
    data: { ...request, stream: true },
    signal,
    timeoutMs,
  });
  try {
    yield* parseChatCompletionStream({ body: opened.chunks, requestId: opened.requestId });
  } catch (error) {
    if (signal?.aborted) throw abortErrorOf(signal);
    throw error;
  } finally {
    opened.close();
  }
}
