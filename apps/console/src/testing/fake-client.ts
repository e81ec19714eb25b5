import type { RelayClient } from '@chat-relay/client';

export type Api = RelayClient['api'];
type Area = keyof Api;

/** The routes a test answers, by area: each a typed function, so canned bodies must fit the contract. */
export type FakeRoutes = { [A in Area]?: Partial<Api[A]> };

/** The arguments a route is called with e.g. `ArgsOf<Api['tokens']['listTokens']>`, for typed `jest.fn`s. */
export type ArgsOf<Route> = Route extends (args: infer P) => unknown ? P : never;

/** Anything else the test gives the client besides `api` (e.g. the CSV export). */
export type FakeExtras = Partial<Omit<RelayClient, 'api'>> & Record<string, unknown>;

/**
 * A RelayClient answering only the routes given; any other route fails the test loudly, naming
 * itself, so a page calling something unexpected is caught rather than hanging.
 */
export function fakeClient(routes: FakeRoutes, extras: FakeExtras = {}): RelayClient {
  const areaOf = (area: string): object =>
    new Proxy(routes[area as Area] ?? {}, {
      get(target, route) {
        const given = (target as Record<string | symbol, unknown>)[route];
        if (given !== undefined) return given;
        return () => Promise.reject(new Error(`fakeClient: ${area}.${String(route)} is not faked in this test`));
      },
    });
  const api = new Proxy({}, { get: (_target, area) => areaOf(String(area)) });
  return { ...extras, api } as unknown as RelayClient;
}

/** A contract answer with the given status and body (and a request id, as the relay sends). */
export function answer<S extends number, B>(status: S, body: B, requestId = 'req_test'): { status: S; body: B; headers: Headers } {
  return { status, body, headers: new Headers({ 'x-request-id': requestId }) };
}

/** The relay's error shape (SPEC §9) as an answer. */
export function refusal<S extends 400 | 401 | 403 | 404 | 409 | 429 | 500>(
  status: S,
  message: string,
  options: { code?: string | null; param?: string | null; requestId?: string } = {},
) {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return answer(status, { error: { message, type, code: options.code ?? null, param: options.param ?? null } }, options.requestId ?? 'req_refused');
}
