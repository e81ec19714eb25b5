import type { RelayApi, RelayClient } from '@chat-relay/client';

export type Api = RelayApi;
type Area = keyof Api;

/** The arguments a route is called with e.g. `ArgsOf<Api['tokens']['listTokens']>`, for typed `jest.fn`s. */
export type ArgsOf<Route> = Route extends (args: infer P) => unknown ? P : never;
/** One of a route's contract answers, its headers optional (the fake adds a request id). */
export type FakeAnswer<Route> = Route extends (...args: never[]) => Promise<infer Answer> ? (Answer extends { status: infer S; body: infer B } ? { status: S; body: B; headers?: Headers } : never) : never;
/** A faked route: typed arguments in, a contract answer out, so canned bodies must fit the contract. */
export type RouteFake<Route> = (args: ArgsOf<Route>) => FakeAnswer<Route> | Promise<FakeAnswer<Route>>;
type AreaFakes<Routes> = { [R in keyof Routes]?: RouteFake<Routes[R]> };
/** The routes a test answers, by area, as `client.api.<area>.<route>` names them. */
export type FakeRoutes = { [A in Area]?: AreaFakes<Api[A]> };
/** Anything else the test gives the client besides `api` (e.g. the CSV export). */
export type FakeExtras = Partial<Omit<RelayClient, 'api'>>;

export interface RecordedCall {
  /** `area.route`, e.g. `channels.createChannel`. */
  route: string;
  args: Record<string, unknown>;
}

export const FAKE_REQUEST_ID = 'req_test';

const notFaked = (name: string) => () => Promise.reject(new Error(`fakeClient: ${name} is not faked in this test`));

/**
 * A RelayClient answering only the routes given and recording how they were called; any other
 * route fails the test loudly, naming itself, so a page calling something unexpected is caught.
 */
export function fakeClient(routes: FakeRoutes, extras: FakeExtras = {}): { client: RelayClient; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const handlers = routes as Record<string, Record<string, ((args: unknown) => unknown) | undefined> | undefined>;
  const routeOf = (area: string, route: string) => async (args: Record<string, unknown> = {}) => {
    calls.push({ route: `${area}.${route}`, args });
    const handler = handlers[area]?.[route];
    if (!handler) return notFaked(`${area}.${route}`)();
    const { status, body, headers } = (await handler(args)) as { status: number; body: unknown; headers?: Headers };
    return { status, body, headers: headers ?? new Headers({ 'x-request-id': FAKE_REQUEST_ID }) };
  };
  const api = new Proxy({}, { get: (_areas, area) => new Proxy({}, { get: (_routes, route) => routeOf(String(area), String(route)) }) });
  const client: RelayClient = {
    api: api as RelayApi,
    streamChatCompletion: () => {
      throw new Error('fakeClient: streamChatCompletion is not faked in this test');
    },
    createChatCompletion: notFaked('createChatCompletion'),
    exportLogsCsv: notFaked('exportLogsCsv'),
    ...extras,
  };
  return { client, calls };
}

/** The bodies a route was called with, in order. */
export const bodiesOf = (calls: readonly RecordedCall[], route: string): unknown[] =>
  calls.filter((call) => call.route === route).map((call) => call.args['body']);

/** A contract answer with the given status and body (and a request id, as the relay sends). */
export function answer<S extends number, B>(status: S, body: B, requestId = FAKE_REQUEST_ID): { status: S; body: B; headers: Headers } {
  return { status, body, headers: new Headers({ 'x-request-id': requestId }) };
}

/** The relay's error shape (SPEC §9) as an answer. */
export function refusal<S extends 400 | 401 | 403 | 404 | 409 | 429 | 500 | 502>(
  status: S,
  message: string,
  options: { code?: string | null; param?: string | null; requestId?: string } = {},
) {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return answer(status, { error: { message, type, code: options.code ?? null, param: options.param ?? null } }, options.requestId ?? 'req_refused');
}
