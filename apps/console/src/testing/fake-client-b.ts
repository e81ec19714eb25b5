import type { RelayApi, RelayClient, RequestOptions } from '@chat-relay/client';
import type { Account, ChatCompletionChunk, ChatCompletionRequest } from '@chat-relay/contract';
import type { Session } from '../session/session';
import { accountFixture } from './fixtures-b';

/** What a faked route answers: the contract's `{ status, body }` (headers default to a request id). */
export interface FakeResponse {
  status: number;
  body: unknown;
  headers?: Headers;
}
type RouteHandler = (args: Record<string, unknown>) => FakeResponse | Promise<FakeResponse>;
/** Handlers by area and route, as `client.api.<area>.<route>` names them. */
export type FakeRoutes = { [Area in keyof RelayApi]?: { [Route in keyof RelayApi[Area]]?: RouteHandler } };
export type FakeStream = (request: ChatCompletionRequest, options?: RequestOptions) => AsyncIterable<ChatCompletionChunk>;

export interface RecordedCall {
  /** `area.route`, e.g. `channels.createChannel`. */
  route: string;
  args: Record<string, unknown>;
}

export const FAKE_REQUEST_ID = 'req_fake_1';

/** The relay's error body for a refused call. */
export const relayError = (status: number, message: string, code: string | null = null): FakeResponse => ({
  status,
  body: { error: { message, type: 'invalid_request_error', param: null, code } },
});

/**
 * A RelayClient whose routes answer what the test says and record how they were called; a route
 * the test did not fake throws, so a page calling something unexpected fails loudly.
 */
export function fakeClient(routes: FakeRoutes, stream?: FakeStream): { client: RelayClient; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const handlers = routes as Record<string, Record<string, RouteHandler | undefined> | undefined>;
  const api = new Proxy(
    {},
    {
      get: (_areas, area: string) =>
        new Proxy(
          {},
          {
            get: (_routes, route: string) => async (args: Record<string, unknown> = {}) => {
              calls.push({ route: `${area}.${route}`, args });
              const handler = handlers[area]?.[route];
              if (!handler) throw new Error(`fake client: ${area}.${route} is not faked`);
              const response = await handler(args);
              return { status: response.status, body: response.body, headers: response.headers ?? new Headers({ 'x-request-id': FAKE_REQUEST_ID }) };
            },
          },
        ),
    },
  ) as RelayApi;
  const client: RelayClient = {
    api,
    streamChatCompletion: (request, options) => {
      if (!stream) throw new Error('fake client: streamChatCompletion is not faked');
      return stream(request, options);
    },
    createChatCompletion: () => Promise.reject(new Error('fake client: createChatCompletion is not faked')),
    exportLogsCsv: () => Promise.reject(new Error('fake client: exportLogsCsv is not faked')),
  };
  return { client, calls };
}

/** A signed-in session over a fake client (the admin unless the account says otherwise). */
export const fakeSession = (client: RelayClient, account: Account = accountFixture()): Session => ({
  client,
  account,
  isAdmin: account.role === 'admin',
});

/** The bodies a route was called with, in order. */
export const bodiesOf = (calls: readonly RecordedCall[], route: string): unknown[] =>
  calls.filter((call) => call.route === route).map((call) => call.args['body']);

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
