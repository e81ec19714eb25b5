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
