import type { RequestOptions } from '@chat-relay/client';
import type { ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';

/**
 * A stream the test feeds chunk by chunk (`push`, then `end` or `fail`), so a spec can look at
 * the page between chunks. Aborting the request's signal ends it with an AbortError, as fetch does.
 */
export function chunkFeed() {
  const queue: Array<{ chunk: ChatCompletionChunk } | { error: unknown } | { done: true }> = [];
  let wake: (() => void) | null = null;
  const put = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  const requests: ChatCompletionRequest[] = [];
  async function* stream(request: ChatCompletionRequest, options?: RequestOptions): AsyncGenerator<ChatCompletionChunk> {
    requests.push(request);
    const signal = options?.signal;
    const onAbort = () => put({ error: new DOMException('This operation was aborted', 'AbortError') });
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        const item = queue.shift();
        if (!item) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if ('done' in item) return;
        if ('error' in item) throw item.error;
        yield item.chunk;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
  return {
    stream,
    requests,
    push: (chunk: ChatCompletionChunk) => put({ chunk }),
    end: () => put({ done: true }),
    fail: (error: unknown) => put({ error }),
  };
}

/** A chunk of a streamed chat completion with the first choice's delta (or none, for the usage chunk). */
export const chunkOf = (delta: Record<string, unknown> | null, extra: Partial<ChatCompletionChunk> = {}): ChatCompletionChunk => ({
  id: 'chatcmpl-fake',
  object: 'chat.completion.chunk',
  created: 1_790_000_000,
  model: 'gpt-4o-2024-08-06',
  choices: delta === null ? [] : [{ index: 0, delta, finish_reason: null }],
  ...extra,
});
